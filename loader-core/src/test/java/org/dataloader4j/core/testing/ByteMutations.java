package org.dataloader4j.core.testing;

import java.util.Arrays;
import java.util.Random;

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
