package org.dataloader4j.format.store;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

/**
 * Makes {@link FileStore}s for locations of some URI schemes; found by {@link FileStores}
 * through {@link java.util.ServiceLoader}, so that the readers open {@code hdfs://} or
 * {@code s3a://} files when an implementation (loader-hadoop) is on the class or module path,
 * and depend on none.
 */
public interface FileStoreProvider {

    /** Whether this provider opens locations of {@code scheme} (lower case, such as {@code "hdfs"}). */
    boolean supports(String scheme);

    /**
     * A store holding {@code location}, configured by {@code options} (keys and values as the
     * store documents them) on top of its own defaults. The caller closes it.
     *
     * @throws IOException if the store cannot be reached or configured
     */
    FileStore open(URI location, Map<String, String> options) throws IOException;
}
