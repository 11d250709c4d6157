package org.dataloader4j.format.store;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.List;

/**
 * Where the files of a dataset are kept: the local file system, or any store behind a
 * {@link FileStoreProvider} (HDFS and S3 through loader-hadoop). It lists a folder's part files,
 * tells a file's length and modification time, opens a stream that reads ahead, and reads many
 * ranges of a file in one call ({@link RangeReader}).
 *
 * <p>Errors name the location without its user information ({@link Locations#display}), so no
 * credential reaches a message or a log. Thread-safe; {@link #close()} ends the store's
 * connections and threads, and is idempotent.
 */
public interface FileStore extends Closeable {
    /** The default size of the blocks a sequential stream reads ahead: 4 MiB. */
    int READ_AHEAD_BYTES = 4 << 20;

    /**
     * The files directly in folder {@code dir} that hold data ({@link org.dataloader4j.format.PartFileNames#isDataFile}:
     * not {@code _SUCCESS}, checksums or hidden files), sorted by name.
     *
     * @throws java.io.FileNotFoundException naming the folder if it does not exist
     * @throws IOException                   if it cannot be listed
     */
    List<StoredFile> list(URI dir) throws IOException;

    /**
     * The file at {@code file}.
     *
     * @throws java.io.FileNotFoundException naming the file if there is none, or it is a folder
     * @throws IOException                   if it cannot be looked up
     */
    StoredFile stat(URI file) throws IOException;

    /**
     * A stream of the whole file, read in order, ahead of the caller in blocks of
     * {@link #READ_AHEAD_BYTES}. The caller closes it.
     *
     * @throws IOException naming the file if it cannot be opened
     */
    InputStream open(StoredFile file) throws IOException;

    /**
     * A reader of ranges of {@code file}, which the caller closes.
     *
     * @throws IOException naming the file if it cannot be opened
     */
    RangeReader ranges(StoredFile file) throws IOException;
}
