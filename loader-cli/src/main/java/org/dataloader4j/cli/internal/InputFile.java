package org.dataloader4j.cli.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.dataloader4j.format.store.FileStore;
import org.dataloader4j.format.store.StoredFile;

/**
 * One record file a command reads: a local file, or a file of a remote {@link FileStore}
 * ({@code hdfs://}, {@code s3a://}) read through the store's stream. Its {@link #name()} is how
 * {@code loader} shows it: a local path as given, a remote location without its user
 * information.
 */
public final class InputFile {
    private final Path path;
    private final FileStore store;
    private final StoredFile stored;

    private InputFile(Path path, FileStore store, StoredFile stored) {
        this.path = path;
        this.store = store;
        this.stored = stored;
    }

    /** The local file at {@code path}. */
    public static InputFile local(Path path) {
        return new InputFile(Objects.requireNonNull(path, "path"), null, null);
    }

    /** The file {@code stored} of {@code store}, which the caller keeps open while the file is read. */
    static InputFile remote(FileStore store, StoredFile stored) {
        return new InputFile(null, Objects.requireNonNull(store, "store"), Objects.requireNonNull(stored, "stored"));
    }

    /** Whether the file is in a remote store. */
    public boolean remote() {
        return path == null;
    }

    /** The local file; only for a local one. */
    public Path path() {
        if (path == null) {
            throw new IllegalStateException(stored + " is not a local file");
        }
        return path;
    }

    /** The remote file as its store lists it; only for a remote one. */
    public StoredFile stored() {
        if (stored == null) {
            throw new IllegalStateException(path + " is not a remote file");
        }
        return stored;
    }

    /** The store of the remote file; only for a remote one. */
    public FileStore store() {
        stored();
        return store;
    }

    /** The last segment of the file's path, whose extension may name its compression. */
    public String fileName() {
        return path != null ? String.valueOf(path.getFileName()) : stored.name();
    }

    /** The file's bytes. */
    public long size() throws IOException {
        return path != null ? Files.size(path) : stored.length();
    }

    /** A stream of the whole file, which the caller closes. */
    public InputStream open() throws IOException {
        return path != null ? Files.newInputStream(path) : store.open(stored);
    }

    /** The file as shown: the local path as given, or the location without user information. */
    public String name() {
        return path != null ? path.toString() : stored.toString();
    }

    @Override
    public String toString() {
        return name();
    }
}
