package org.dataloader4j.core.decode.fast;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.dataloader4j.core.wire.WireReader;

/**
 * Packed varints into an INT32 or INT64 row, up to 64 at a time, with the Vector API
 * ({@code jdk.incubator.vector}): the decoder the fast path's copies of values use where
 * {@link SimdSupport} finds it fast.
 *
 * <p>Each step loads 64 bytes of the list and takes their high bits as a mask; a clear bit ends a
 * varint.
 * <ul>
 *   <li>No high bit set: 16 to 64 one-byte values (masks, segment ids, padding), widened into
 *       ints or longs.</li>
 *   <li>Otherwise up to 32 of the varints ending in the window, in groups of 16: the positions
 *       of a group's first and last bytes are gathered by two compresses of the lane numbers
 *       (by the mask of ends, and by the same mask shifted by one), and each varint's first four
 *       bytes by one byte permute into an int lane of its own. Each lane keeps its varint's bytes
 *       and joins their 7-bit groups with three shifts. Every varint is taken in one step
 *       whatever its length, with no branch per value and no load that waits for the previous
 *       varint's end.</li>
 * </ul>
 * A step stops before a varint of five bytes or more (a value of 2^28 or more, or a negative
 * one); one that starts a window is left to the scalar decoder, which also reads the last 63
 * bytes of a segment and reports every malformed varint. Values written here are those of
 * varints of one to four bytes, under 2^28, which read the same as int32 and int64 list values.
 *
 * <p>The steps take a 512-bit byte vector with a byte compress and a byte permute, which x86
 * runs as single instructions from AVX-512 VBMI and VBMI2 on; elsewhere the Vector API computes
 * them in plain Java, correctly but many times slower. Stateless and thread-safe.
 *
 * <p>Longer than most classes: each step is kept whole in {@link #decode}, within the JIT's
 * budget of inlining, with the reason for each shift written out, and the self-check that keeps a
 * changed incubating API from decoding wrongly stands beside it.
 */
public final class SimdVarints {
    /** Values one group of the general case writes at most; a step writes up to two groups. */
    public static final int LANES = 16;
    private static final int WINDOW = 64;
    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_512;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_512;
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_512;
    private static final VectorSpecies<Byte> SIXTEEN_BYTES = ByteVector.SPECIES_128;
    private static final VectorSpecies<Byte> EIGHT_BYTES = ByteVector.SPECIES_64;
    /** Lane {@code i} holds {@code i}. */
    private static final ByteVector LANE_NUMBERS = (ByteVector) BYTES.iotaShuffle(0, 1, false).toVector();
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private SimdVarints() {
    }

    /** Whether this JVM's preferred vectors are 512 bits wide, which the steps take. */
    static boolean preferredWidthFits() {
        return ByteVector.SPECIES_PREFERRED.vectorBitSize() >= BYTES.vectorBitSize();
    }

    /**
     * Decodes a short list through both kinds of step and checks the values: run once before the
     * decoder is chosen, so that a JDK whose incubating API no longer links with this class, or
     * computes otherwise, fails here rather than in a parse.
     */
    static boolean selfCheck() {
        // 64 one-byte values, then 32 of one to four bytes (windows of more than 16 ends, so both
        // groups of a step), then room for a whole window.
        int[] values = new int[WINDOW + 2 * LANES];
        byte[] bytes = new byte[WINDOW + 2 * LANES * 4 + WINDOW];
        int length = 0;
        for (int i = 0; i < values.length; i++) {
            values[i] = i < WINDOW ? i : (i * 40_503) >>> (i % 4 * 7);
            for (int v = values[i]; ; v >>>= 7) {
                bytes[length++] = (byte) (v < 0x80 ? v : v & 0x7F | 0x80);
                if (v < 0x80) {
                    break;
                }
            }
        }
        MemorySegment record = MemorySegment.ofArray(bytes);
        MemorySegment out = MemorySegment.ofArray(new byte[values.length * Integer.BYTES]);
        WireReader r = new WireReader(record).reset(record, 0, length);
        boolean ints = decode(r, out, 0, values.length, false) == values.length && r.position() == length
                && Arrays.equals(values, out.toArray(ValueLayout.JAVA_INT_UNALIGNED.withOrder(LE)));
        MemorySegment wide = MemorySegment.ofArray(new byte[values.length * Long.BYTES]);
        r.reset(record, 0, length);
        return ints && decode(r, wide, 0, values.length, true) == values.length && r.position() == length
                && Arrays.equals(Arrays.stream(values).asLongStream().toArray(),
                wide.toArray(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(LE)));
    }

    /**
     * Whether the steps can read {@code record} and write {@code out}: the Vector API reads and
     * writes native segments and heap segments over {@code byte[]} only.
     */
    public static boolean takes(MemorySegment record, MemorySegment out) {
        return byteAddressed(record) && byteAddressed(out);
    }

    private static boolean byteAddressed(MemorySegment s) {
        return s.isNative() || s.heapBase().orElse(null) instanceof byte[];
    }

    /**
     * Writes the varints from {@code r}'s position, at most {@code max} of them, to INT64 elements
     * {@code at, at + 1, …} of {@code out} if {@code longs}, else INT32 ones, while a step can take
     * them; returns how many it wrote and leaves {@code r} after the last. Stops early, leaving the
     * rest to the scalar decoder, at a window holding a varint of five bytes or more, a varint that
     * does not end before {@code r}'s limit, or fewer than 64 bytes before the end of {@code r}'s
     * segment.
     */
    public static long decode(WireReader r, MemorySegment out, long at, long max, boolean longs) {
        MemorySegment record = r.segment();
        long p = r.position();
        long end = r.limit();
        long lastWindow = record.byteSize() - WINDOW;
        long n = 0;
        while (n < max && p < end && p <= lastWindow) {
            ByteVector bytes = ByteVector.fromMemorySegment(BYTES, record, p, LE);
            long left = end - p;
            // The bytes of the list in this window; the rest belong to what follows it.
            long inList = left >= WINDOW ? -1L : (1L << left) - 1;
            long continued = bytes.lt((byte) 0).toLong() & inList;
            long room = max - n;
            if (continued != 0 || left < LANES || room < LANES) {
                // The general step comes first, so that the JIT spends the method's budget of
                // inlining on it; the one-byte step below may stay a call.
                long ends = ~continued & inList;
                int endCount = Long.bitCount(ends);
                // Up to 32 of the window's varints, in up to two groups of 16.
                int total = (int) Math.min(Math.min(endCount, 2 * LANES), room);
                if (total == 0) {
                    break;
                }
                // A varint starts at the window's first byte and after each end.
                long endBits = ends;
                long startBits = ends << 1 | 1;
                int taken = 0;
                while (true) {
                    // The positions of the group's first and last bytes, one a lane.
                    ByteVector first = LANE_NUMBERS.compress(VectorMask.fromLong(BYTES, startBits));
                    ByteVector last = LANE_NUMBERS.compress(VectorMask.fromLong(BYTES, endBits));
                    IntVector starts = (IntVector) first.convertShape(VectorOperators.B2I, INTS, 0);
                    IntVector extra = ((IntVector) last.convertShape(VectorOperators.B2I, INTS, 0)).sub(starts);
                    int fit = fitting(extra, Math.min(total - taken, LANES));
                    if (fit > 0) {
                        store(values(bytes, starts, extra), fit, out, at + n + taken, longs);
                        taken += fit;
                    }
                    if (fit < LANES || taken == total) {
                        break;
                    }
                    // A window of short varints holds more than 16 ends: the next 16 from the same
                    // load, which saves the wait on the next window's position.
                    long past = -1L << Long.numberOfTrailingZeros(Long.expand(1L << (LANES - 1), endBits)) + 1;
                    endBits &= past;
                    startBits &= past;
                }
                if (taken == 0) {
                    break;
                }
                n += taken;
                // Past the taken-th end: the set bit of ends that bit taken - 1 is deposited on.
                p += Long.numberOfTrailingZeros(Long.expand(1L << (taken - 1), ends)) + 1;
                continue;
            }
            // One-byte values only: 16, 32, 48 or 64 of them.
            int take = (int) Math.min(Math.min(left, room), WINDOW) & -LANES;
            widen(record, p, take, out, at + n, longs);
            n += take;
            p += take;
        }
        r.position(p);
        return n;
    }

    /**
     * Writes the {@code count} one-byte varints at {@code p} of {@code record}, a multiple of 16,
     * to INT64 elements {@code at, at + 1, …} of {@code out} if {@code longs}, else INT32 ones.
     * Each load of 16 bytes (8 into longs) widens in one instruction, where a part of a 512-bit
     * window would first be extracted. Takes no vector, so the JIT may leave it a call of its own
     * and spend {@link #decode}'s budget of inlining on the general step.
     */
    private static void widen(MemorySegment record, long p, int count, MemorySegment out, long at, boolean longs) {
        if (longs) {
            for (int k = 0; k < count; k += LONGS.length()) {
                ByteVector.fromMemorySegment(EIGHT_BYTES, record, p + k, LE)
                        .convertShape(VectorOperators.B2L, LONGS, 0)
                        .intoMemorySegment(out, (at + k) * Long.BYTES, LE);
            }
        } else {
            for (int k = 0; k < count; k += INTS.length()) {
                ByteVector.fromMemorySegment(SIXTEEN_BYTES, record, p + k, LE)
                        .convertShape(VectorOperators.B2I, INTS, 0)
                        .intoMemorySegment(out, (at + k) * Integer.BYTES, LE);
            }
        }
    }

    /**
     * How many of the first {@code count} varints of a group have at most four bytes, before the
     * first that has more: {@code extra} holds each varint's length less one.
     */
    private static int fitting(IntVector extra, int count) {
        long tooLong = extra.compare(VectorOperators.GT, 3).toLong() & (1L << count) - 1;
        return tooLong == 0 ? count : Long.numberOfTrailingZeros(tooLong);
    }

    /**
     * The values of a group's varints of one to four bytes in the window {@code bytes}, given
     * where each starts and its length less one.
     */
    private static IntVector values(ByteVector bytes, IntVector starts, IntVector extra) {
        // Lane i gathers bytes starts[i] .. starts[i] + 3, then keeps those of its own varint.
        ByteVector picks = starts.mul(0x0101_0101).add(0x0302_0100).reinterpretAsBytes().and((byte) (WINDOW - 1));
        IntVector x = picks.selectFrom(bytes).reinterpretAsInts()
                .and(IntVector.broadcast(INTS, -1).lanewise(VectorOperators.LSHR, extra.mul(-8).add(24)));
        return x.and(0x7F)
                .or(x.lanewise(VectorOperators.LSHR, 1).and(0x3F80))
                .or(x.lanewise(VectorOperators.LSHR, 2).and(0x1F_C000))
                .or(x.lanewise(VectorOperators.LSHR, 3).and(0xFE0_0000));
    }

    /**
     * Writes the first {@code count} lanes of {@code values} to INT64 elements {@code at, at + 1, …}
     * of {@code out} if {@code longs}, else INT32 ones. A full group is stored without a mask,
     * which takes less than half as long.
     */
    private static void store(IntVector values, int count, MemorySegment out, long at, boolean longs) {
        if (longs) {
            // Values under 2^28: widened alike whether signed or not.
            long o = at * Long.BYTES;
            LongVector low = (LongVector) values.convertShape(VectorOperators.I2L, LONGS, 0);
            LongVector high = (LongVector) values.convertShape(VectorOperators.I2L, LONGS, 1);
            if (count == LANES) {
                low.intoMemorySegment(out, o, LE);
                high.intoMemorySegment(out, o + 64, LE);
            } else {
                low.intoMemorySegment(out, o, LE, LONGS.indexInRange(0, count));
                if (count > LONGS.length()) {
                    high.intoMemorySegment(out, o + 64, LE, LONGS.indexInRange(LONGS.length(), count));
                }
            }
        } else if (count == LANES) {
            values.intoMemorySegment(out, at * Integer.BYTES, LE);
        } else {
            values.intoMemorySegment(out, at * Integer.BYTES, LE, INTS.indexInRange(0, count));
        }
    }
}
