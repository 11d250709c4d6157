package org.dataloader4j.format;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;

/**
 * How a record file is compressed as a whole: not at all, as gzip (RFC 1952, as TensorFlow's
 * {@code compression_type="GZIP"} writes it) or as zlib (RFC 1950, {@code "ZLIB"}). Record
 * offsets always count in the decompressed stream.
 *
 * <p>{@link #detect(Path, Framing)} tells them apart, in this order:
 * <ol>
 *   <li>By the file name's extension, ignoring case: {@code .gz} is GZIP, {@code .zz} and
 *       {@code .zlib} are ZLIB. The extension wins over the content.</li>
 *   <li>An empty file is NONE.</li>
 *   <li>TFRecord only: if the first 12 bytes are a valid TFRecord header (a length and its
 *       matching masked CRC32C) the file is NONE. An uncompressed file whose first length
 *       happens to start with a zlib or gzip header (a first record of 40,056 bytes starts
 *       {@code 78 9c}) is thereby not mistaken for a compressed one; a file whose first length
 *       CRC is damaged goes on to the next steps.</li>
 *   <li>The gzip magic: {@code 1f 8b} for TFRecord; {@code 1f 8b 08} (the deflate method every
 *       gzip file names) for OFRecord, whose first bytes have no CRC to confirm them. GZIP.</li>
 *   <li>A valid zlib header ({@code CMF & 0x0f == 8}, {@code CMF >>> 4 <= 7},
 *       {@code (CMF * 256 + FLG) % 31 == 0}): ZLIB. For OFRecord only if the first 8 bytes,
 *       read as a little-endian length, are at least 2^40: an OFRecord length below that (every
 *       real one) is taken as NONE, while a zlib stream's first 8 bytes reach 2^40 unless three
 *       bytes of compressed data in a row are zero.</li>
 *   <li>Otherwise NONE.</li>
 * </ol>
 * An OFRecord file whose first payload is exactly 559,903 bytes (or that plus a multiple of
 * 2^24) starts like a gzip file; name its compression instead of detecting it.
 */
public enum Compression {
    /** Not compressed. */
    NONE,
    /** gzip (RFC 1952): one member or several back to back. */
    GZIP,
    /** zlib (RFC 1950): one stream. */
    ZLIB;

    private static final int BUFFER = 1 << 16;
    private static final int HEAD = 12;

    /** The compression of {@code file}, holding records in {@code framing}; see the class comment. */
    public static Compression detect(Path file, Framing framing) throws IOException {
        Objects.requireNonNull(framing, "framing");
        Compression byName = byExtension(String.valueOf(file.getFileName()));
        if (byName != null) {
            return byName;
        }
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(HEAD);
        }
        return byContent(head, framing);
    }

    /**
     * The compression of a file called {@code fileName} (its extension is looked at; may be
     * null) whose first bytes are {@code firstBytes} (up to 12 are looked at; fewer when the file
     * is shorter), holding records in {@code framing}. For streams and mapped files; see the
     * class comment.
     */
    public static Compression detect(String fileName, byte[] firstBytes, Framing framing) {
        Objects.requireNonNull(firstBytes, "firstBytes");
        Objects.requireNonNull(framing, "framing");
        Compression byName = fileName == null ? null : byExtension(fileName);
        return byName != null ? byName : byContent(firstBytes, framing);
    }

    private static Compression byExtension(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".gz")) {
            return GZIP;
        }
        if (lower.endsWith(".zz") || lower.endsWith(".zlib")) {
            return ZLIB;
        }
        return null;
    }

    private static Compression byContent(byte[] b, Framing framing) {
        int n = Math.min(b.length, HEAD);
        if (n == 0) {
            return NONE;
        }
        boolean tf = framing == Framing.TFRECORD;
        if (tf && n == HEAD && TFRecordCrc.isHeader(b, 0)) {
            return NONE;
        }
        if (n >= 2 && (b[0] & 0xff) == 0x1f && (b[1] & 0xff) == 0x8b && (tf || n >= 3 && b[2] == 8)) {
            return GZIP;
        }
        if (n >= 2 && zlibHeader(b[0] & 0xff, b[1] & 0xff) && (tf || n < 8 || (littleEndianLong(b) >>> 40) != 0)) {
            return ZLIB;
        }
        return NONE;
    }

    private static boolean zlibHeader(int cmf, int flg) {
        return (cmf & 0x0f) == 8 && (cmf >>> 4) <= 7 && (cmf * 256 + flg) % 31 == 0;
    }

    static int littleEndianInt(byte[] b, int off) {
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8 | (b[off + 2] & 0xff) << 16 | (b[off + 3] & 0xff) << 24;
    }

    private static long littleEndianLong(byte[] b) {
        return (littleEndianInt(b, 0) & 0xffffffffL) | (long) littleEndianInt(b, 4) << 32;
    }

    /**
     * The decompressed bytes of {@code raw}, buffered, every damage a {@code ZipException} that
     * says what is wrong and where; closing the result closes {@code raw}.
     */
    public InputStream decompress(InputStream raw) {
        return switch (this) {
            case GZIP -> new BufferedInputStream(new InflatingInputStream(raw, true), BUFFER);
            case ZLIB -> new BufferedInputStream(new InflatingInputStream(raw, false), BUFFER);
            case NONE -> raw instanceof BufferedInputStream ? raw : new BufferedInputStream(raw, BUFFER);
        };
    }

    /**
     * A buffered stream that compresses into {@code raw}; closing it finishes the compressed
     * stream and closes {@code raw}.
     */
    OutputStream compress(OutputStream raw) throws IOException {
        return switch (this) {
            case GZIP -> new BufferedOutputStream(new GZIPOutputStream(raw, BUFFER), BUFFER);
            // The one-argument constructor owns its Deflater and frees it on close.
            case ZLIB -> new BufferedOutputStream(new DeflaterOutputStream(new BufferedOutputStream(raw, BUFFER)), BUFFER);
            case NONE -> new BufferedOutputStream(raw, BUFFER);
        };
    }
}
