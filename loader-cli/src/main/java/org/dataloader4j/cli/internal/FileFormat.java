package org.dataloader4j.cli.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Locale;
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
    /** The bytes detection looks at: a TFRecord header. */
    private static final int HEAD = 12;

    /** {@code file}'s format; {@code framing}, if not null, is taken as given. */
    public static FileFormat of(Path file, Framing framing) throws IOException {
        return of(InputFile.local(file), framing);
    }

    /**
     * {@code file}'s format, local or remote alike: its first bytes are read once, and once more
     * through the decompression they suggest; {@code framing}, if not null, is taken as given.
     */
    public static FileFormat of(InputFile file, Framing framing) throws IOException {
        byte[] raw;
        try (InputStream in = file.open()) {
            raw = in.readNBytes(HEAD);
        }
        String name = file.fileName();
        if (framing != null) {
            return new FileFormat(framing, Compression.detect(name, raw, framing));
        }
        Compression asTF = Compression.detect(name, raw, Framing.TFRECORD);
        byte[] head;
        try (InputStream in = asTF.decompress(file.open())) {
            head = in.readNBytes(HEAD);
        } catch (IOException e) {
            // Not a stream of that compression (say an OFRecord length that looks like zlib):
            // not TFRecord either, whose detection checks the header first.
            head = null;
        }
        if (head != null && TFRecordCrc.isHeader(head, 0)) {
            return new FileFormat(Framing.TFRECORD, asTF);
        }
        if (head != null && head.length == 0 && (asTF != Compression.NONE || tfName(name))) {
            return new FileFormat(Framing.TFRECORD, asTF);
        }
        return new FileFormat(Framing.OFRECORD, Compression.detect(name, raw, Framing.OFRECORD));
    }

    private static boolean tfName(String fileName) {
        String name = fileName.toLowerCase(Locale.ROOT);
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
