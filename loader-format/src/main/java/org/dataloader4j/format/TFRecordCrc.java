package org.dataloader4j.format;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The masked CRC32C that TFRecord framing stores after the length and after the payload:
 * {@code mask(crc) = ((crc >>> 15) | (crc << 17)) + 0xa282ead8} in 32-bit arithmetic, where
 * {@code crc} is the CRC32C (Castagnoli) of the bytes. TensorFlow masks the CRC because a CRC
 * computed over data that itself holds CRCs is weak. Stateless and thread-safe.
 */
public final class TFRecordCrc {
    /** The constant TensorFlow adds after rotating the CRC. */
    public static final int MASK_DELTA = 0xa282ead8;

    private TFRecordCrc() {
    }

    /** The masked form of the CRC32C {@code crc}. */
    public static int mask(int crc) {
        return ((crc >>> 15) | (crc << 17)) + MASK_DELTA;
    }

    /** The CRC32C whose masked form is {@code masked}; the inverse of {@link #mask}. */
    public static int unmask(int masked) {
        int rotated = masked - MASK_DELTA;
        return (rotated >>> 17) | (rotated << 15);
    }

    /** The masked CRC32C of {@code len} bytes of {@code b} from {@code off}. */
    public static int maskedCrc32c(byte[] b, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(b, off, len);
        return mask((int) crc.getValue());
    }

    /**
     * Whether the 12 bytes of {@code b} from {@code off} are a TFRecord frame's header: an 8-byte
     * little-endian length followed by its masked CRC32C. What tells a TFRecord stream apart.
     */
    public static boolean isHeader(byte[] b, int off) {
        return b.length - off >= 12 && maskedCrc32c(b, off, 8) == Compression.littleEndianInt(b, off + 8);
    }

    /**
     * The masked CRC32C of the bytes from {@code buf}'s position to its limit; on return the
     * position is at the limit. Works on heap and direct buffers alike. Over a memory-mapped
     * file that may be cut short while it is read, copy the bytes out first: the JVM's CRC32C
     * reads a direct buffer in a way that cannot take the fault of a vanished page, and the
     * process dies with SIGBUS.
     */
    public static int maskedCrc32c(ByteBuffer buf) {
        CRC32C crc = new CRC32C();
        crc.update(buf);
        return mask((int) crc.getValue());
    }
}
