package org.dataloader4j.core.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A cursor over protobuf wire format in a {@link MemorySegment}: protobuf-java's
 * {@code CodedInputStream} cut down to what zero-copy parsers need, allocating nothing.
 *
 * <p>The cursor reads from {@link #position()} up to {@link #limit()}; every length, fixed-width
 * value and varint is checked against the limit, so bad input is always a
 * {@link WireFormatException} with the byte position, never an {@code IndexOutOfBoundsException}.
 * Positions are offsets in the segment, so errors point at a byte of the record. A nested
 * message is read in place with {@link #pushLimit} / {@link #popLimit}.
 *
 * <pre>{@code
 * WireReader r = new WireReader(record);
 * for (int tag = r.readTag(); tag != 0; tag = r.readTag()) {
 *     if (tag == WireReader.tag(1, WireReader.LENGTH_DELIMITED)) {
 *         MemorySegment value = r.readLengthDelimited();
 *     } else {
 *         r.skipField(tag);
 *     }
 * }
 * }</pre>
 *
 * <p>Not thread-safe: a parser keeps one per thread and {@link #reset} it for each record.
 */
public final class WireReader {
    /** Wire type 0: a varint (int32, int64, uint*, sint*, bool, enum). */
    public static final int VARINT = 0;
    /** Wire type 1: 8 little-endian bytes (fixed64, sfixed64, double). */
    public static final int FIXED64 = 1;
    /** Wire type 2: a varint length, then that many bytes (bytes, string, messages, packed lists). */
    public static final int LENGTH_DELIMITED = 2;
    /** Wire type 3: the start of a group (deprecated; not supported). */
    public static final int START_GROUP = 3;
    /** Wire type 4: the end of a group (deprecated; not supported). */
    public static final int END_GROUP = 4;
    /** Wire type 5: 4 little-endian bytes (fixed32, sfixed32, float). */
    public static final int FIXED32 = 5;

    /** The longest varint: 64 bits in groups of 7. */
    public static final int MAX_VARINT_BYTES = 10;

    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** The high bit of each byte of a word: set in a varint's continuation bytes. */
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private MemorySegment segment;
    private long position;
    private long limit;
    private long tagStart;

    /** A reader over an empty segment; {@link #reset} it before use. */
    public WireReader() {
        this(EMPTY);
    }

    /** A reader over the whole of {@code segment}. */
    public WireReader(MemorySegment segment) {
        this.segment = Objects.requireNonNull(segment, "segment");
        this.limit = segment.byteSize();
    }

    /** The field number of {@code tag}. */
    public static int fieldNumber(int tag) {
        return tag >>> 3;
    }

    /** The wire type of {@code tag}, 0 to 7. */
    public static int wireType(int tag) {
        return tag & 7;
    }

    /** The tag of field {@code fieldNumber} encoded with {@code wireType}. */
    public static int tag(int fieldNumber, int wireType) {
        return fieldNumber << 3 | wireType;
    }

    /** Reads the whole of {@code segment} from its start; returns this reader. */
    public WireReader reset(MemorySegment segment) {
        return reset(segment, 0, segment.byteSize());
    }

    /**
     * Reads {@code segment} from {@code position} up to {@code limit}; returns this reader.
     *
     * @throws IllegalArgumentException unless {@code 0 <= position <= limit <= segment.byteSize()}
     */
    public WireReader reset(MemorySegment segment, long position, long limit) {
        if (position < 0 || position > limit || limit > segment.byteSize()) {
            throw new IllegalArgumentException("need 0 <= position <= limit <= byteSize: position=" + position
                    + " limit=" + limit + " byteSize=" + segment.byteSize());
        }
        this.segment = segment;
        this.position = position;
        this.limit = limit;
        return this;
    }

    /** The segment being read. */
    public MemorySegment segment() {
        return segment;
    }

    /** The offset in the segment of the next byte to read. */
    public long position() {
        return position;
    }

    /**
     * Moves to {@code position}.
     *
     * @throws IllegalArgumentException unless {@code 0 <= position <= limit()}
     */
    public void position(long position) {
        if (position < 0 || position > limit) {
            throw new IllegalArgumentException("position must be in [0, " + limit + "]: position=" + position);
        }
        this.position = position;
    }

    /** The offset in the segment where reading stops: the end of the current message. */
    public long limit() {
        return limit;
    }

    /** The number of bytes before the limit. */
    public long remaining() {
        return limit - position;
    }

    /** Whether any byte is left before the limit. */
    public boolean hasRemaining() {
        return position < limit;
    }

    /**
     * Reads a field's tag, or returns 0 at the limit (the end of the message).
     *
     * @throws WireFormatException if the tag is not a valid varint or its field number is 0
     */
    public int readTag() {
        long p = position;
        if (p >= limit) {
            return 0;
        }
        tagStart = p;
        byte b = segment.get(ValueLayout.JAVA_BYTE, p);
        // Field numbers below 16 fit in one byte: the common case.
        int tag = b >= 0 ? positionAfter(p + 1, b) : (int) readVarint64Slow();
        if (fieldNumber(tag) == 0) {
            throw new WireFormatException(p, "invalid tag " + Integer.toUnsignedString(tag) + " (field number 0)");
        }
        return tag;
    }

    private int positionAfter(long p, int value) {
        position = p;
        return value;
    }

    /**
     * Reads a varint of up to 10 bytes; the bits past the 64th are dropped, as protobuf does.
     *
     * @throws WireFormatException {@code "malformed varint"} if it is longer than 10 bytes, or
     *                             {@code "truncated varint"} if it runs past the limit
     */
    public long readVarint64() {
        long p = position;
        if (p < limit) {
            byte b = segment.get(ValueLayout.JAVA_BYTE, p);
            if (b >= 0) {
                position = p + 1;
                return b;
            }
        }
        return readVarint64Slow();
    }

    private long readVarint64Slow() {
        long start = position;
        long p = start;
        long result = 0;
        for (int shift = 0; shift < 7 * MAX_VARINT_BYTES; shift += 7) {
            if (p >= limit) {
                throw WireFormatException.truncatedVarint(start);
            }
            byte b = segment.get(ValueLayout.JAVA_BYTE, p++);
            result |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                position = p;
                return result;
            }
        }
        throw WireFormatException.malformedVarint(start);
    }

    /** Reads a varint and keeps its low 32 bits: an int32 (negatives are 10-byte varints). */
    public int readVarint32() {
        return (int) readVarint64();
    }

    /**
     * Reads 4 little-endian bytes (a fixed32, sfixed32 or the bits of a float).
     *
     * @throws WireFormatException {@code "truncated field"} if fewer than 4 bytes are left
     */
    public int readFixed32() {
        long p = position;
        if (limit - p < Integer.BYTES) {
            throw WireFormatException.truncatedField(p);
        }
        position = p + Integer.BYTES;
        return segment.get(LE_INT, p);
    }

    /**
     * Reads 8 little-endian bytes (a fixed64, sfixed64 or the bits of a double).
     *
     * @throws WireFormatException {@code "truncated field"} if fewer than 8 bytes are left
     */
    public long readFixed64() {
        long p = position;
        if (limit - p < Long.BYTES) {
            throw WireFormatException.truncatedField(p);
        }
        position = p + Long.BYTES;
        return segment.get(LE_LONG, p);
    }

    /**
     * Reads the length of a length-delimited field and leaves the cursor at its first byte.
     *
     * @throws WireFormatException {@code "invalid length N"} if the length is 2^31 or more, or
     *                             {@code "truncated field"} if the field runs past the limit
     */
    public long readLength() {
        long start = position;
        long length = readVarint64();
        // Tell a nonsense length from a short message: protobuf-java would read only its low 32 bits.
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw WireFormatException.invalidLength(start, length);
        }
        if (length > limit - position) {
            throw WireFormatException.truncatedField(start);
        }
        return length;
    }

    /**
     * Reads a length-delimited field and returns its bytes as a slice of the segment (no copy).
     *
     * @throws WireFormatException {@code "truncated field"} if the field runs past the limit
     */
    public MemorySegment readLengthDelimited() {
        long length = readLength();
        MemorySegment value = segment.asSlice(position, length);
        position += length;
        return value;
    }

    /**
     * Moves {@code n} bytes forward.
     *
     * @throws WireFormatException {@code "truncated field"} if fewer than {@code n} bytes are left
     */
    public void skip(long n) {
        if (n < 0 || n > limit - position) {
            throw WireFormatException.truncatedField(position);
        }
        position += n;
    }

    /**
     * Skips the value of the field whose tag was just read, for wire types 0, 1, 2 and 5.
     *
     * @throws WireFormatException {@code "unsupported wire type"} for groups (3, 4) and the
     *                             invalid types 6 and 7, or if the value is truncated
     */
    public void skipField(int tag) {
        switch (wireType(tag)) {
            case VARINT -> readVarint64();
            case FIXED64 -> skip(Long.BYTES);
            case LENGTH_DELIMITED -> skip(readLength());
            case FIXED32 -> skip(Integer.BYTES);
            default -> throw WireFormatException.unsupportedWireType(tagStart, wireType(tag));
        }
    }

    /**
     * Makes the next {@code length} bytes the whole message, to read a nested one in place;
     * returns the old limit for {@link #popLimit}.
     *
     * @throws WireFormatException {@code "truncated field"} if they run past the current limit
     */
    public long pushLimit(long length) {
        if (length < 0 || length > limit - position) {
            throw WireFormatException.truncatedField(position);
        }
        long old = limit;
        limit = position + length;
        return old;
    }

    /** Restores the limit {@link #pushLimit} returned. */
    public void popLimit(long oldLimit) {
        if (oldLimit < limit || oldLimit > segment.byteSize()) {
            throw new IllegalArgumentException("not a limit pushLimit returned: oldLimit=" + oldLimit + " limit=" + limit);
        }
        limit = oldLimit;
    }

    /**
     * Counts the varints of a packed field: the {@code length} bytes from the position, which
     * does not move. Checks every varint as {@link #readVarint64()} would, so that decoding the
     * region afterwards cannot fail.
     *
     * @throws WireFormatException if the region runs past the limit, holds a varint longer than
     *                             10 bytes, or ends inside a varint
     */
    public long countVarints(long length) {
        long start = position;
        if (length < 0 || length > limit - start) {
            throw WireFormatException.truncatedField(start);
        }
        long end = start + length;
        long count = 0;
        int run = 0; // continuation bytes since the last varint ended
        long p = start;
        // Eight bytes at a time: a varint ends at each byte whose high bit is clear.
        for (; end - p >= Long.BYTES; p += Long.BYTES) {
            long ends = ~segment.get(LE_LONG, p) & HIGH_BITS;
            if (ends == 0) {
                run += Long.BYTES;
                if (run >= MAX_VARINT_BYTES) {
                    throw badVarints(start, end);
                }
                continue;
            }
            // Byte index of the first and of the last varint end in this little-endian word.
            int first = Long.numberOfTrailingZeros(ends) >>> 3;
            int last = (63 - Long.numberOfLeadingZeros(ends)) >>> 3;
            if (run + first >= MAX_VARINT_BYTES) {
                throw badVarints(start, end);
            }
            count += Long.bitCount(ends);
            run = Long.BYTES - 1 - last;
        }
        for (; p < end; p++) {
            if (segment.get(ValueLayout.JAVA_BYTE, p) >= 0) {
                count++;
                run = 0;
            } else if (++run >= MAX_VARINT_BYTES) {
                throw badVarints(start, end);
            }
        }
        if (run != 0) {
            throw badVarints(start, end);
        }
        return count;
    }

    /** The error of the first bad varint in {@code [start, end)}, found again one at a time. */
    private WireFormatException badVarints(long start, long end) {
        long savedPosition = position;
        long savedLimit = limit;
        limit = end;
        try {
            while (position < end) {
                readVarint64();
            }
        } catch (WireFormatException e) {
            return e;
        } finally {
            position = savedPosition;
            limit = savedLimit;
        }
        throw new AssertionError("no bad varint in [" + start + ", " + end + ")");
    }
}
