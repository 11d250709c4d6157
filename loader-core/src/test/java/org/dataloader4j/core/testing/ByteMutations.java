package org.dataloader4j.core.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/** Seeded damage to encoded records, for the parsers' differential tests. */
public final class ByteMutations {
    private ByteMutations() {
    }

    /** A copy of {@code bytes} (not empty) with one bit flipped, at a random place. */
    public static byte[] flipBit(Random random, byte[] bytes) {
        return flip(random, bytes, random.nextInt(bytes.length));
    }

    /**
     * A copy of {@code bytes} with one random bit flipped: half the time anywhere, half the time
     * in its first or last {@code edge} bytes, where a record's framing lies around a long list.
     */
    public static byte[] flipBitMostlyAtTheEdges(Random random, byte[] bytes, int edge) {
        if (random.nextBoolean()) {
            return flipBit(random, bytes);
        }
        int span = Math.min(edge, bytes.length);
        int at = random.nextInt(span);
        return flip(random, bytes, random.nextBoolean() ? at : bytes.length - 1 - at);
    }

    private static byte[] flip(Random random, byte[] bytes, int at) {
        byte[] b = bytes.clone();
        b[at] ^= (byte) (1 << random.nextInt(8));
        return b;
    }

    /**
     * {@code batches} batches of {@code rows} records drawn by {@code draw}, every third (the
     * third, the sixth, …) with one to three of them damaged, by a flipped bit (mostly in the
     * framing around long lists) or by {@link #mutate}: bad records among good ones, as a parser's
     * learned layouts meet them.
     */
    public static List<List<byte[]>> batchesWithDamage(Random random, int batches, int rows, Function<Random, byte[]> draw) {
        List<List<byte[]>> all = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            List<byte[]> records = new ArrayList<>();
            for (int i = 0; i < rows; i++) {
                records.add(draw.apply(random));
            }
            for (int i = b % 3 == 2 ? 1 + random.nextInt(3) : 0; i > 0; i--) {
                int at = random.nextInt(rows);
                byte[] r = records.get(at);
                records.set(at, random.nextBoolean() ? flipBitMostlyAtTheEdges(random, r, 40) : mutate(random, r));
            }
            all.add(records);
        }
        return all;
    }

    /** A byte flipped, the record cut short, a byte inserted or a run of bytes repeated. */
    public static byte[] mutate(Random random, byte[] bytes) {
        if (bytes.length == 0) {
            return bytes;
        }
        int at = random.nextInt(bytes.length);
        return switch (random.nextInt(4)) {
            case 0 -> flip(random, bytes, at);
            case 1 -> Arrays.copyOf(bytes, at);
            case 2 -> {
                byte[] b = new byte[bytes.length + 1];
                System.arraycopy(bytes, 0, b, 0, at);
                b[at] = (byte) random.nextInt(256);
                System.arraycopy(bytes, at, b, at + 1, bytes.length - at);
                yield b;
            }
            default -> {
                int len = random.nextInt(Math.min(16, bytes.length - at)) + 1;
                byte[] b = new byte[bytes.length + len];
                System.arraycopy(bytes, 0, b, 0, at + len);
                System.arraycopy(bytes, at, b, at + len, bytes.length - at);
                yield b;
            }
        };
    }
}
