package org.dataloader4j.core.wire;

import java.io.Serial;

/**
 * Bytes that are not valid protobuf wire format: the reason and the byte position, counted
 * from the start of the segment the {@link WireReader} reads (a record's payload).
 *
 * <p>Parsers catch it and rethrow it as a {@link org.dataloader4j.api.CorruptDataException} that
 * also names the file and the record, which the wire reader does not know.
 */
public final class WireFormatException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long position;
    private final String reason;

    /** Bad input at byte {@code position}, for {@code reason} (e.g. {@code "malformed varint"}). */
    public WireFormatException(long position, String reason) {
        super(reason + " at byte " + position);
        this.position = position;
        this.reason = reason;
    }

    /** A varint of more than 10 bytes starting at {@code position}. */
    public static WireFormatException malformedVarint(long position) {
        return new WireFormatException(position, "malformed varint");
    }

    /** A varint starting at {@code position} that runs past the end of its message or field. */
    public static WireFormatException truncatedVarint(long position) {
        return new WireFormatException(position, "truncated varint");
    }

    /** A field at {@code position} whose bytes run past the end of its message. */
    public static WireFormatException truncatedField(long position) {
        return new WireFormatException(position, "truncated field");
    }

    /**
     * A length-delimited field at {@code position} that claims {@code length} bytes, 2^31 or
     * more (or a negative 64-bit value): no message holds such a field, and protobuf's C++ parser
     * refuses the length however many bytes follow.
     */
    public static WireFormatException invalidLength(long position, long length) {
        return new WireFormatException(position, "invalid length " + Long.toUnsignedString(length));
    }

    /** A tag at {@code position} with a wire type this reader does not skip (groups, 6, 7). */
    public static WireFormatException unsupportedWireType(long position, int wireType) {
        return new WireFormatException(position, "unsupported wire type " + wireType);
    }

    /** The byte where the problem is, counted from the start of the reader's segment. */
    public long position() {
        return position;
    }

    /** What is wrong, without the position. */
    public String reason() {
        return reason;
    }
}
