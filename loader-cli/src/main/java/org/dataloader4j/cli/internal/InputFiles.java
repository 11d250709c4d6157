package org.dataloader4j.cli.internal;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import org.dataloader4j.format.store.FileStore;
import org.dataloader4j.format.store.FileStores;
import org.dataloader4j.format.store.Locations;

/**
 * The record files named on a command line ({@link RecordFiles#expand}), and the remote stores
 * they were found in, which stay open until {@link #close()}. Remote stores are found at run
 * time ({@link FileStores}): with loader-hadoop and a Hadoop client on the class path,
 * {@code hdfs://} and {@code s3a://} locations read as local files do; without them, a remote
 * location is a usage error that says what to add, and local files read as ever.
 */
public final class InputFiles implements Closeable {
    /** What to add to the class path for remote locations, as the error says it. */
    static final String HADOOP_HINT = "put loader-hadoop and your Hadoop client (hadoop-client-api and"
            + " hadoop-client-runtime; for s3a:// also hadoop-aws and the AWS SDK) on the class path; for ./loader,"
            + " name their jars in LOADER_CLASSPATH";

    private final Map<String, String> options;
    private final Map<String, FileStore> stores = new LinkedHashMap<>();
    private final List<InputFile> files;

    private InputFiles(List<String> locations, Map<String, String> options) throws IOException {
        this.options = Map.copyOf(options);
        try {
            this.files = RecordFiles.expand(locations, this);
        } catch (IOException | RuntimeException | Error e) {
            close(e);
            throw e;
        }
    }

    /**
     * The files of {@code locations} (local paths, {@code file:} URIs, or remote URIs whose
     * stores are configured by {@code options}), as {@link RecordFiles#expand} finds them.
     *
     * @throws java.nio.file.NoSuchFileException if a location does not exist
     * @throws CliException (usage) if a folder holds no record file, or no store reads a location's scheme
     */
    public static InputFiles open(List<String> locations, Map<String, String> options) throws IOException {
        return new InputFiles(locations, options);
    }

    /** The files, in the order given. */
    public List<InputFile> files() {
        return files;
    }

    /** Whether any file is remote. */
    public boolean anyRemote() {
        return files.stream().anyMatch(InputFile::remote);
    }

    /**
     * {@code location} as a URI if it names a remote file or folder, else null: a local path
     * (kept as written, so that it is shown as given) or a {@code file:} URI.
     */
    static URI remoteLocation(String location) {
        URI uri = Locations.parse(location);
        return Locations.isLocal(uri) ? null : uri;
    }

    /** Whether {@code location} names a file or folder of a remote store ({@code hdfs://}, {@code s3a://}). */
    public static boolean isRemote(String location) {
        return remoteLocation(location) != null;
    }

    /** {@code location} as {@code loader} shows it: a local path as written, a remote one without user information. */
    public static String shown(String location) {
        URI remote = remoteLocation(location);
        return remote == null ? location : Locations.display(remote);
    }

    /** {@code location} (not remote) as a local path: a {@code file:} URI's path, or the path as written. */
    static Path localPath(String location) {
        return location.regionMatches(true, 0, "file:", 0, 5) ? Path.of(Locations.parse(location)) : Path.of(location);
    }

    /** The store of {@code location}, opened once per scheme and authority. */
    FileStore storeOf(URI location) throws IOException {
        String key = Locations.scheme(location) + "://" + location.getRawAuthority();
        FileStore store = stores.get(key);
        if (store == null) {
            store = open(location);
            stores.put(key, store);
        }
        return store;
    }

    private FileStore open(URI location) throws IOException {
        try {
            return FileStores.forLocation(location, options);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCodes.USAGE, "no file store reads " + Locations.scheme(location) + ":// locations such as "
                    + Locations.display(location) + ": " + HADOOP_HINT);
        } catch (ServiceConfigurationError | LinkageError e) {
            // loader-hadoop found, but not the Hadoop classes it calls.
            throw new CliException(ExitCodes.USAGE, "cannot open the store of " + Locations.display(location)
                    + ": loader-hadoop is on the class path but its Hadoop client is not (" + e.getClass().getSimpleName()
                    + "); " + HADOOP_HINT);
        }
    }

    /** Closes the remote stores. */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (FileStore store : stores.values()) {
            try {
                store.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        stores.clear();
        if (first != null) {
            throw first;
        }
    }

    private void close(Throwable failure) {
        try {
            close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** The files of remote folder or file {@code location}, found in its store. */
    List<InputFile> remoteFiles(URI location) throws IOException {
        FileStore store = storeOf(location);
        List<InputFile> found = new ArrayList<>();
        try {
            found.add(InputFile.remote(store, store.stat(location)));
            return found;
        } catch (java.io.FileNotFoundException notAFile) {
            // A folder, or nothing: listed next.
        }
        try {
            store.list(location).forEach(f -> found.add(InputFile.remote(store, f)));
        } catch (java.io.FileNotFoundException e) {
            throw new java.nio.file.NoSuchFileException(Locations.display(location), null, "no such file or folder");
        }
        if (found.isEmpty()) {
            throw new CliException(ExitCodes.USAGE, Locations.display(location) + ": no record files in this folder");
        }
        return found;
    }
}
