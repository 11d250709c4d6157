package org.dataloader4j.core.features;

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
 * ({@code jdk.incubator.vector}): the decoder {@link ValueCopier} uses where {@link SimdSupport}
 * finds it fast.
 *
 * <p>Each step loads 64 bytes of the list and takes their high bits as a mask; a clear bit ends a
 * varint.
 * <ul>
 *   <li>No high bit set: 16 to 64 one-byte values (masks, segment ids, padding), widened into
 *       ints or longs.</li>
 *   <li>Otherwise the first 16 varints ending in the window: the positions of their last bytes
 *       are gathered by one compress of the lane numbers, and each varint's first four bytes by
 *       one byte permute into an int lane of its own. Each lane keeps its varint's bytes and
 *       joins their 7-bit groups with three shifts. Every varint is taken in one step whatever
 *       its length, with no branch per value and no load that waits for the previous varint's
 *       end.</li>
 * </ul>
 * A window with a varint of five bytes or more among its first 16 (a value of 2^28 or more, or a
 * negative one) is left to the scalar decoder, which also reads the last 63 bytes of a segment
 * and reports every malformed varint. Values written here are those of varints of one to four
 * bytes, under 2^28, which read the same as int32 and int64 list values.
 *
 * <p>The steps take a 512-bit byte vector with a byte compress and a byte permute, which x86
 * runs as single instructions from AVX-512 VBMI and VBMI2 on; elsewhere the Vector API computes
 * them in plain Java, correctly but many times slower. Stateless and thread-safe.
 */
final class SimdVarints {
    /** Values one step of the general case writes at most. */
    static final int LANES = 16;
    private static final int WINDOW = 64;
    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_512;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_512;
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_512;
    /** Lane {@code i} holds {@code i}. */
    private static final ByteVector LANE_NUMBERS = (ByteVector) BYTES.iotaShuffle(0, 1, false).toVector();
    private static final ByteVector ZERO = ByteVector.zero(BYTES);
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
        // 64 one-byte values, then 16 of one to four bytes, then room for a whole window.
        int[] values = new int[WINDOW + LANES];
        byte[] bytes = new byte[WINDOW + LANES * 4 + WINDOW];
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
    static boolean takes(MemorySegment record, MemorySegment out) {
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
    static long decode(WireReader r, MemorySegment out, long at, long max, boolean longs) {
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
            if (continued == 0 && left >= LANES && room >= LANES) {
                // Widened in place, each part a constant: a vector handed to a method the JIT does
                // not inline is boxed on the heap.
                int take = left >= WINDOW && room >= WINDOW ? WINDOW : LANES;
                if (longs) {
                    long o = (at + n) * Long.BYTES;
                    bytes.convertShape(VectorOperators.B2L, LONGS, 0).intoMemorySegment(out, o, LE);
                    bytes.convertShape(VectorOperators.B2L, LONGS, 1).intoMemorySegment(out, o + 64, LE);
                    if (take == WINDOW) {
                        bytes.convertShape(VectorOperators.B2L, LONGS, 2).intoMemorySegment(out, o + 128, LE);
                        bytes.convertShape(VectorOperators.B2L, LONGS, 3).intoMemorySegment(out, o + 192, LE);
                        bytes.convertShape(VectorOperators.B2L, LONGS, 4).intoMemorySegment(out, o + 256, LE);
                        bytes.convertShape(VectorOperators.B2L, LONGS, 5).intoMemorySegment(out, o + 320, LE);
                        bytes.convertShape(VectorOperators.B2L, LONGS, 6).intoMemorySegment(out, o + 384, LE);
                        bytes.convertShape(VectorOperators.B2L, LONGS, 7).intoMemorySegment(out, o + 448, LE);
                    }
                } else {
                    long o = (at + n) * Integer.BYTES;
                    bytes.convertShape(VectorOperators.B2I, INTS, 0).intoMemorySegment(out, o, LE);
                    if (take == WINDOW) {
                        bytes.convertShape(VectorOperators.B2I, INTS, 1).intoMemorySegment(out, o + 64, LE);
                        bytes.convertShape(VectorOperators.B2I, INTS, 2).intoMemorySegment(out, o + 128, LE);
                        bytes.convertShape(VectorOperators.B2I, INTS, 3).intoMemorySegment(out, o + 192, LE);
                    }
                }
                n += take;
                p += take;
                continue;
            }
            long ends = ~continued & inList;
            int count = (int) Math.min(Math.min(Long.bitCount(ends), LANES), room);
            if (count == 0) {
                break;
            }
            ByteVector last = LANE_NUMBERS.compress(VectorMask.fromLong(BYTES, ends));
            ByteVector first = ZERO.slice(WINDOW - 1, last.add((byte) 1));
            IntVector starts = (IntVector) first.convertShape(VectorOperators.B2I, INTS, 0);
            // Each varint's length less one, 0 to 3 if it has at most four bytes.
            IntVector extra = ((IntVector) last.convertShape(VectorOperators.B2I, INTS, 0)).sub(starts);
            VectorMask<Integer> lanes = INTS.indexInRange(0, count);
            if (extra.compare(VectorOperators.GT, 3, lanes).anyTrue()) {
                break;
            }
            // Lane i gathers bytes starts[i] .. starts[i] + 3, then keeps those of its own varint.
            ByteVector picks = starts.mul(0x0101_0101).add(0x0302_0100).reinterpretAsBytes().and((byte) (WINDOW - 1));
            IntVector x = picks.selectFrom(bytes).reinterpretAsInts()
                    .and(IntVector.broadcast(INTS, -1).lanewise(VectorOperators.LSHR, extra.mul(-8).add(24)));
            IntVector values = x.and(0x7F)
                    .or(x.lanewise(VectorOperators.LSHR, 1).and(0x3F80))
                    .or(x.lanewise(VectorOperators.LSHR, 2).and(0x1F_C000))
                    .or(x.lanewise(VectorOperators.LSHR, 3).and(0xFE0_0000));
            if (longs) {
                // Values under 2^28: widened alike whether signed or not.
                long o = (at + n) * Long.BYTES;
                values.convertShape(VectorOperators.I2L, LONGS, 0).intoMemorySegment(out, o, LE, LONGS.indexInRange(0, count));
                if (count > LONGS.length()) {
                    values.convertShape(VectorOperators.I2L, LONGS, 1)
                            .intoMemorySegment(out, o + 64, LE, LONGS.indexInRange(LONGS.length(), count));
                }
            } else {
                values.intoMemorySegment(out, (at + n) * Integer.BYTES, LE, lanes);
            }
            n += count;
            // Past the count-th end: the set bit of ends that bit count - 1 is deposited on.
            p += Long.numberOfTrailingZeros(Long.expand(1L << (count - 1), ends)) + 1;
        }
        r.position(p);
        return n;
    }
}
