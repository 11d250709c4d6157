package org.dataloader4j.core.decode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.dataloader4j.api.DataType;
import org.dataloader4j.core.decode.fast.SimdSupport;
import org.dataloader4j.core.decode.fast.SimdVarints;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;

/**
 * Writes a resolved feature's values into tensor memory, cast to the output type.
 *
 * <p>A list stored as the output's own type (a packed {@code float_list} into FLOAT32, a packed
 * {@code double_list} into FLOAT64, a byte string into UINT8 or INT8) is copied in bulk, one
 * {@link MemorySegment#copy} per piece: the wire's little-endian values are already the tensor's
 * bytes, NaN payloads included. Anything else is decoded value by value and cast as C++'s
 * {@code static_cast} does, except that a floating value out of an integer type's range
 * saturates and NaN becomes 0, as Java's casts do; into INT8 and UINT8 it saturates at their
 * ranges too.
 *
 * <p>An instance holds one thread's scratch for varints and its {@link DecodeMode}: on
 * {@link DecodeMode#FAST}, packed varints into INT32 and INT64 rows are decoded with the Vector
 * API where {@link SimdSupport} finds it fast. One instance per decoder, used on its thread; the
 * static methods are stateless.
 *
 * <p>Longer than most classes: the scalar varint decoder's word-at-a-time cases and the stores of
 * each type stay beside the copies that call them, so that a value's decoding and its store are
 * compiled as one loop.
 */
public final class ValueCopier {
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** The high bit of each byte of a word: clear in all eight when the word holds eight one-byte varints. */
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Whether packed varints into INT32 and INT64 rows go to {@link SimdVarints}. */
    private final boolean vectors;
    /** Where varints are decoded a chunk at a time before they are stored. */
    private final long[] scratch = new long[256];

    /** A copier for one thread's decoder on {@code mode}'s path. */
    public ValueCopier(DecodeMode mode) {
        // SimdSupport is not even loaded on the plain path.
        this.vectors = mode == DecodeMode.FAST && SimdSupport.VARINTS;
    }

    /** Whether this copier decodes packed varints into INT32 and INT64 rows with the Vector API. */
    boolean usesVectors() {
        return vectors;
    }

    /**
     * Whether this JVM's parsers decode packed varints into INT32 and INT64 rows with the Vector
     * API, for reports: on the {@linkplain DecodeMode#configured() configured} mode's path, where
     * the {@code jdk.incubator.vector} module and the processor allow (docs/ofrecord-parser.md).
     */
    public static boolean vectorVarints() {
        return DecodeMode.configured() == DecodeMode.FAST && SimdSupport.VARINTS;
    }

    /**
     * Writes the first {@code max} values of {@code f}, a feature of {@code r}'s segment (fewer if
     * it has fewer), to elements {@code at, at + 1, …} of {@code out}; returns how many it wrote.
     * Moves {@code r}. The feature should have been {@linkplain FeatureView#count counted}, so
     * that its pieces are known to be valid.
     *
     * @throws WireFormatException if a packed varint is malformed, which a counted feature's is not
     */
    public long copy(WireReader r, FeatureView f, MemorySegment out, DataType type, long at, long max) {
        MemorySegment record = r.segment();
        long written = 0;
        for (int i = 0; i < f.pieces() && written < max; i++) {
            written += switch (f.kind()) {
                case BYTES -> copyBytes(record, f.start(i), f.end(i), out, at + written, max - written);
                case FLOAT -> copyFloats(record, f.start(i), f.end(i), out, type, at + written, max - written);
                case DOUBLE -> copyDoubles(record, f.start(i), f.end(i), out, type, at + written, max - written);
                case INT32, INT64 -> copyVarints(r.reset(record, f.start(i), f.end(i)), f.kind() == ListKind.INT32,
                        scratch, out, type, at + written, max - written, vectors);
            };
        }
        return written;
    }

    /**
     * Counts the values of {@code f}, a numeric list of {@code r}'s segment, and writes the first
     * {@code max} of them to elements {@code at, at + 1, …} of {@code out}: what
     * {@link FeatureView#count} and then {@link #copy} do, with the same count, values and errors,
     * but in one walk over a varint list's bytes. Returns the count, which may be more or less than
     * {@code max}; {@code min(count, max)} values were written. Moves {@code r}.
     *
     * <p>Values are written before the count is known, so a caller that rejects the count leaves
     * them in its row: fine for a row whose batch fails anyway. Nothing is written past
     * {@code max}, and every varint is checked, those past {@code max} too.
     *
     * @throws IllegalArgumentException if {@code f} holds a {@code bytes_list}, which
     *                                  {@code count} measures in strings and {@code copy} in bytes
     * @throws WireFormatException      as {@link FeatureView#count} does
     */
    public long countAndCopy(WireReader r, FeatureView f, MemorySegment out, DataType type, long at, long max) {
        ListKind kind = f.kind();
        if (kind == ListKind.BYTES) {
            throw new IllegalArgumentException("countAndCopy takes a numeric list, not a " + kind);
        }
        if (kind != ListKind.INT32 && kind != ListKind.INT64) {
            // A fixed-width list is counted from its length alone: no walk to save.
            long count = f.count(r);
            copy(r, f, out, type, at, max);
            return count;
        }
        MemorySegment record = r.segment();
        long count = 0;
        long written = 0;
        for (int i = 0; i < f.pieces(); i++) {
            r.reset(record, f.start(i), f.end(i));
            long n = copyVarints(r, kind == ListKind.INT32, scratch, out, type, at + written, max - written, vectors);
            written += n;
            // Past max, the rest of the piece is only counted and checked.
            count += n + (r.hasRemaining() ? r.countVarints(r.remaining()) : 0);
        }
        return count;
    }

    /**
     * The list whose bytes {@link #copy} writes as they stand into a {@code type} output: a
     * {@code float_list} into FLOAT32, a {@code double_list} into FLOAT64; else null.
     */
    public static ListKind rowKind(DataType type) {
        return switch (type) {
            case FLOAT32 -> ListKind.FLOAT;
            case FLOAT64 -> ListKind.DOUBLE;
            default -> null;
        };
    }

    private static long copyBytes(MemorySegment record, long start, long end, MemorySegment out, long at, long max) {
        long n = Math.min(end - start, max);
        MemorySegment.copy(record, start, out, at, n);
        return n;
    }

    private static long copyFloats(MemorySegment record, long start, long end, MemorySegment out, DataType type,
                                   long at, long max) {
        long n = Math.min((end - start) / Float.BYTES, max);
        if (type == DataType.FLOAT32) {
            MemorySegment.copy(record, start, out, at * Float.BYTES, n * Float.BYTES);
            return n;
        }
        for (long k = 0; k < n; k++) {
            putDouble(out, type, at + k, record.get(F32, start + k * Float.BYTES));
        }
        return n;
    }

    private static long copyDoubles(MemorySegment record, long start, long end, MemorySegment out, DataType type,
                                    long at, long max) {
        long n = Math.min((end - start) / Double.BYTES, max);
        if (type == DataType.FLOAT64) {
            MemorySegment.copy(record, start, out, at * Double.BYTES, n * Double.BYTES);
            return n;
        }
        for (long k = 0; k < n; k++) {
            putDouble(out, type, at + k, record.get(F64, start + k * Double.BYTES));
        }
        return n;
    }

    /**
     * Writes the varints from {@code r}'s position up to its limit, at most {@code max} of them,
     * and leaves {@code r} after the last one written; returns how many it wrote. Into an INT32
     * or INT64 row, if {@code simd}, {@link SimdVarints} takes what it can, and the scalar
     * decoder below takes up to one of its groups' worth (16 values) where it stops. The scalar
     * decoder decodes a chunk at a time into {@code scratch}, then stores it by a loop of one
     * type: the decoding loop does not branch on the output type, and stores no value into a
     * segment.
     *
     * @throws WireFormatException for the first malformed or truncated varint it reaches
     */
    static long copyVarints(WireReader r, boolean int32, long[] scratch, MemorySegment out, DataType type,
                            long at, long max, boolean simd) {
        if (max > 0 && r.remaining() == 1) {
            // One value of one byte, as a label is: written as it stands, without the walk's
            // set-up, which costs more than the value. With its high bit set it is cut short,
            // which the walk reports.
            long p = r.position();
            byte b = r.segment().get(ValueLayout.JAVA_BYTE, p);
            if (b >= 0) {
                putLong(out, type, at, b);
                r.position(p + 1);
                return 1;
            }
        }
        boolean vectors = simd && (type == DataType.INT32 || type == DataType.INT64) && SimdVarints.takes(r.segment(), out);
        long n = 0;
        while (n < max && r.hasRemaining()) {
            if (vectors) {
                n += SimdVarints.decode(r, out, at + n, max - n, type == DataType.INT64);
                if (n == max || !r.hasRemaining()) {
                    break;
                }
            }
            int chunk = vectors ? SimdVarints.LANES : scratch.length;
            int k = decodeVarints(r, int32, scratch, (int) Math.min(chunk, max - n));
            store(scratch, k, out, type, at + n);
            n += k;
        }
        return n;
    }

    /**
     * Decodes up to {@code max} varints from {@code r}'s position into {@code values}, each an
     * int32 list's value sign-extended from its low 32 bits if {@code int32}; stops at the limit.
     * Returns how many it decoded and leaves {@code r} after the last.
     */
    private static int decodeVarints(WireReader r, boolean int32, long[] values, int max) {
        MemorySegment record = r.segment();
        int n = 0;
        long p = r.position();
        long end = r.limit();
        while (n < max && p < end) {
            if (end - p >= Long.BYTES) {
                long word = record.get(I64, p);
                if ((word & HIGH_BITS) == 0 && max - n >= Long.BYTES) {
                    // Eight one-byte varints (values 0 to 127, the same in every type), as masks and
                    // segment ids are: taken eight at a time.
                    for (int k = 0; k < Long.BYTES; k++) {
                        values[n + k] = word >>> (k * Byte.SIZE) & 0x7F;
                    }
                    n += Long.BYTES;
                    p += Long.BYTES;
                    continue;
                }
                // Varints of up to four bytes (values below 2^28, as token ids are) from the word,
                // without a branch per byte: a varint ends at a byte without the high bit, and its
                // 7-bit groups are moved together by shifts. Two at a time where both end in the
                // word, so that the next load waits on one length in two. A varint that ends
                // within the word ends within the region: it is valid.
                long ends = ~word & HIGH_BITS;
                int length = (Long.numberOfTrailingZeros(ends) >>> 3) + 1;
                // Through the end of the second varint; 9 if the word holds no second end.
                int through = (Long.numberOfTrailingZeros(ends & ends - 1) >>> 3) + 1;
                if (length <= 4 && through - length <= 4 && max - n >= 2) {
                    values[n] = groups(word, length);
                    values[n + 1] = groups(word >>> (length * Byte.SIZE), through - length);
                    n += 2;
                    p += through;
                    continue;
                }
                if (length <= 4) {
                    values[n++] = groups(word, length);
                    p += length;
                    continue;
                }
            }
            // The last bytes of the region, or a varint of five bytes or more (a negative int32
            // has ten): read by the reader, which checks it against the limit and its length.
            r.position(p);
            long v = r.readVarint64();
            p = r.position();
            values[n++] = int32 ? (int) v : v;
        }
        r.position(p);
        return n;
    }

    /** The value of the varint of {@code length} bytes (1 to 4) in the low bytes of {@code word}. */
    private static long groups(long word, int length) {
        long bytes = word & (-1L >>> (Long.SIZE - length * Byte.SIZE));
        return bytes & 0x7F | bytes >>> 1 & 0x3F80 | bytes >>> 2 & 0x1F_C000 | bytes >>> 3 & 0xFE0_0000;
    }

    /** Writes {@code values[0, count)} to elements {@code at, at + 1, …} of {@code out}, cast to {@code type}. */
    private static void store(long[] values, int count, MemorySegment out, DataType type, long at) {
        switch (type) {
            case INT64 -> MemorySegment.copy(values, 0, out, I64, at * Long.BYTES, count);
            case INT32 -> {
                for (int i = 0; i < count; i++) {
                    out.setAtIndex(I32, at + i, (int) values[i]);
                }
            }
            default -> {
                for (int i = 0; i < count; i++) {
                    putLong(out, type, at + i, values[i]);
                }
            }
        }
    }

    /** Writes {@code count} copies of {@code value}, cast to {@code type}, from element {@code at}. */
    public static void fill(MemorySegment out, DataType type, long at, long count, double value) {
        for (long k = 0; k < count; k++) {
            putDouble(out, type, at + k, value);
        }
    }

    /** Zeroes {@code count} elements of {@code type} from element {@code at}. */
    public static void zero(MemorySegment out, DataType type, long at, long count) {
        if (count > 0) {
            out.asSlice(at * type.byteSize(), count * type.byteSize()).fill((byte) 0);
        }
    }

    /** Element {@code i} of {@code out} = {@code static_cast<type>(v)}; integer targets keep the low bits. */
    public static void putLong(MemorySegment out, DataType type, long i, long v) {
        switch (type) {
            case INT8, UINT8 -> out.set(ValueLayout.JAVA_BYTE, i, (byte) v);
            case INT32 -> out.setAtIndex(I32, i, (int) v);
            case INT64 -> out.setAtIndex(I64, i, v);
            case FLOAT32 -> out.setAtIndex(F32, i, (float) v);
            case FLOAT64 -> out.setAtIndex(F64, i, (double) v);
        }
    }

    /** Element {@code i} of {@code out} = {@code v} cast to {@code type}; integer targets saturate, NaN is 0. */
    public static void putDouble(MemorySegment out, DataType type, long i, double v) {
        switch (type) {
            case INT8 -> out.set(ValueLayout.JAVA_BYTE, i, (byte) Math.clamp((long) v, Byte.MIN_VALUE, Byte.MAX_VALUE));
            case UINT8 -> out.set(ValueLayout.JAVA_BYTE, i, (byte) Math.clamp((long) v, 0, 255));
            case INT32 -> out.setAtIndex(I32, i, (int) v);
            case INT64 -> out.setAtIndex(I64, i, (long) v);
            case FLOAT32 -> out.setAtIndex(F32, i, (float) v);
            case FLOAT64 -> out.setAtIndex(F64, i, v);
        }
    }
}
