package org.dataloader4j.format;

/**
 * How records are laid out in a record file.
 *
 * <ul>
 *   <li>{@link #OFRECORD}: OneFlow's framing, an 8-byte little-endian payload length, then the
 *       payload. OneFlow never writes an empty payload, and a zero length is refused.</li>
 *   <li>{@link #TFRECORD}: TensorFlow's framing, an 8-byte little-endian length, the masked
 *       CRC32C of those 8 bytes (4 bytes, little-endian), the payload, then the masked CRC32C of
 *       the payload (see {@link TFRecordCrc}). An empty payload is a valid record.</li>
 * </ul>
 */
public enum Framing {
    /** OneFlow's OFRecord framing: length, payload. */
    OFRECORD(8, 0),
    /** TensorFlow's TFRecord framing: length, length CRC, payload, payload CRC. */
    TFRECORD(12, 4);

    private final int headerBytes;
    private final int footerBytes;

    Framing(int headerBytes, int footerBytes) {
        this.headerBytes = headerBytes;
        this.footerBytes = footerBytes;
    }

    /** The number of bytes before each payload: 8 for OFRecord, 12 for TFRecord. */
    public int headerBytes() {
        return headerBytes;
    }

    /** The number of bytes after each payload: 0 for OFRecord, 4 for TFRecord. */
    public int footerBytes() {
        return footerBytes;
    }

    /**
     * Whether a frame whose header says {@code length} fits in the {@code bytesLeft} bytes from
     * its start: header, payload and footer. The length is read unsigned, so a negative one, which
     * no writer writes, fits nowhere. Every reader judges a length against its file by this.
     */
    public boolean fits(long length, long bytesLeft) {
        long room = bytesLeft - headerBytes - footerBytes;
        return room >= 0 && Long.compareUnsigned(length, room) <= 0;
    }
}
