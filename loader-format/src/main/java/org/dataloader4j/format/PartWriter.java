package org.dataloader4j.format;

import com.google.protobuf.MessageLite;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes a dataset as OneFlow part files, {@code part-00000} to {@code part-<parts - 1>}:
 * record {@code i} goes to part {@code i % parts}, so the parts differ in size by at most one
 * record and each can be read, shuffled and sharded on its own. OFRecord framing by default;
 * TFRecord framing and compression on request (the names stay as given: a compressed part is
 * found by {@link Compression#detect(Path, Framing) its first bytes}). Not thread-safe.
 */
public final class PartWriter implements Closeable {
    /** OneFlow's prefix. */
    public static final String PREFIX = "part-";
    /** The zero-padded width of the part index that OneFlow's own datasets use. */
    public static final int SUFFIX_LENGTH = 5;

    private final List<Path> files = new ArrayList<>();
    private final List<RecordWriter> writers = new ArrayList<>();
    private long records;

    private PartWriter(Path dir, String prefix, int suffixLength, int parts, Framing framing, Compression compression)
            throws IOException {
        Objects.requireNonNull(framing, "framing");
        Objects.requireNonNull(compression, "compression");
        if (parts < 1) {
            throw new IllegalArgumentException("parts must be > 0: parts=" + parts);
        }
        if (suffixLength < -1) {
            throw new IllegalArgumentException("suffixLength must be >= -1: suffixLength=" + suffixLength);
        }
        Files.createDirectories(dir);
        try {
            for (int i = 0; i < parts; i++) {
                Path file = dir.resolve(PartFileNames.partName(prefix, suffixLength, i));
                files.add(file);
                writers.add(RecordWriter.create(file, framing, compression));
            }
        } catch (IOException | RuntimeException e) {
            closeAll(e);
            throw e;
        }
    }

    /**
     * Creates {@code dir} if needed and {@code parts} part files in it named {@code part-00000}
     * and up, truncating old ones.
     */
    public static PartWriter create(Path dir, int parts) throws IOException {
        return new PartWriter(dir, PREFIX, SUFFIX_LENGTH, parts, Framing.OFRECORD, Compression.NONE);
    }

    /**
     * As {@link #create(Path, int)}, with OneFlow's naming options: {@code prefix}, then the
     * index zero-padded to {@code suffixLength} digits (-1 for no padding).
     */
    public static PartWriter create(Path dir, String prefix, int suffixLength, int parts) throws IOException {
        return new PartWriter(dir, prefix, suffixLength, parts, Framing.OFRECORD, Compression.NONE);
    }

    /**
     * As {@link #create(Path, String, int, int)}, writing every part in {@code framing},
     * compressed as {@code compression}.
     */
    public static PartWriter create(Path dir, String prefix, int suffixLength, int parts, Framing framing,
            Compression compression) throws IOException {
        return new PartWriter(dir, prefix, suffixLength, parts, framing, compression);
    }

    /** Writes one record to the next part. */
    public void write(byte[] payload) throws IOException {
        writers.get((int) (records % writers.size())).write(payload);
        records++;
    }

    /** Writes {@code message} (an {@code OFRecord}, a {@code tf.Example}, …) serialized, to the next part. */
    public void write(MessageLite message) throws IOException {
        write(message.toByteArray());
    }

    /** The part files, in index order. */
    public List<Path> files() {
        return List.copyOf(files);
    }

    /** The number of records written. */
    public long recordsWritten() {
        return records;
    }

    @Override
    public void close() throws IOException {
        closeAll(null);
    }

    private void closeAll(Exception primary) throws IOException {
        IOException first = null;
        for (RecordWriter w : writers) {
            try {
                w.close();
            } catch (IOException e) {
                if (primary != null) {
                    primary.addSuppressed(e);
                } else if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
