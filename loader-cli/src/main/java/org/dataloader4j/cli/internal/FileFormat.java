package org.dataloader4j.cli.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.TFRecordCrc;

/**
 * The framing and compression of one record file, as {@code loader} finds them.
 *
 * <p>A file is TFRecord if the first 12 bytes of its (decompressed) stream are a TFRecord
 * header: a length and its matching masked CRC32C, which random bytes match once in 2^32.
 * Otherwise it is OFRecord, whose compression is then detected by OFRecord's rules
 * ({@link Compression#detect(Path, Framing)}). An empty stream holds no records in either
 * framing; it is called TFRecord when its name says so ({@code .tfrecord}, {@code .tfr}, …) or it
 * is compressed, OFRecord otherwise.
 *
 * @param framing     the framing
 * @param compression the compression
 */
public record FileFormat(Framing framing, Compression compression) {

    /** {@code file}'s format; {@code framing}, if not null, is taken as given. */
    public static FileFormat of(Path file, Framing framing) throws IOException {
        if (framing != null) {
            return new FileFormat(framing, Compression.detect(file, framing));
        }
        Compression asTF = Compression.detect(file, Framing.TFRECORD);
        byte[] head;
        try (InputStream in = open(file, asTF)) {
            head = in.readNBytes(12);
        } catch (IOException e) {
            // Not a stream of that compression (say an OFRecord length that looks like zlib):
            // not TFRecord either, whose detection checks the header first.
            head = null;
        }
        if (head != null && TFRecordCrc.isHeader(head, 0)) {
            return new FileFormat(Framing.TFRECORD, asTF);
        }
        if (head != null && head.length == 0 && (asTF != Compression.NONE || tfName(file))) {
            return new FileFormat(Framing.TFRECORD, asTF);
        }
        return new FileFormat(Framing.OFRECORD, Compression.detect(file, Framing.OFRECORD));
    }

    private static InputStream open(Path file, Compression compression) throws IOException {
        InputStream raw = Files.newInputStream(file);
        try {
            return switch (compression) {
                case GZIP -> new GZIPInputStream(raw);
                case ZLIB -> new InflaterInputStream(raw);
                case NONE -> raw;
            };
        } catch (IOException e) {
            raw.close();
            throw e;
        }
    }

    private static boolean tfName(Path file) {
        String name = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT);
        return name.contains(".tfrecord") || name.endsWith(".tfr") || name.contains(".tfr.");
    }

    /** As {@code loader} prints it: {@code tfrecord, gzip}. */
    @Override
    public String toString() {
        return name(framing) + ", " + compression.name().toLowerCase(Locale.ROOT);
    }

    /** {@code ofrecord} or {@code tfrecord}. */
    public static String name(Framing framing) {
        return framing.name().toLowerCase(Locale.ROOT);
    }
}
