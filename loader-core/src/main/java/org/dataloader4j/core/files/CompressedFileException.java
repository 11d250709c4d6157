package org.dataloader4j.core.files;

import org.dataloader4j.format.Compression;

/**
 * A remote file about to be indexed is compressed (as its name or first bytes say,
 * {@link Compression#detect(String, byte[], org.dataloader4j.format.Framing)}), so its records
 * cannot be fetched by location: a reader then reads its files as streams instead, or refuses what
 * needs an index. Thrown by {@link RecordFiles#open(org.dataloader4j.format.store.FileStore,
 * java.util.List, FrameReader, org.dataloader4j.format.Framing, java.nio.file.Path, String, int)}
 * where it was asked to look.
 */
public final class CompressedFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final transient Compression compression;

    /** {@code file} (as shown in errors) is compressed with {@code compression}. */
    public CompressedFileException(String file, Compression compression) {
        super(file + " is " + compression + " compressed: its records cannot be read by location");
        this.file = file;
        this.compression = compression;
    }

    /** The file, as shown in errors. */
    public String file() {
        return file;
    }

    /** Its compression. */
    public Compression compression() {
        return compression;
    }
}
