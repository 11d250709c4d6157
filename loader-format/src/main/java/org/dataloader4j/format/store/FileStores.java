package org.dataloader4j.format.store;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Finds the {@link FileStore} for a location: the local file system for {@code file} and
 * plain paths, otherwise the first {@link FileStoreProvider} on the class or module path that
 * supports the location's scheme.
 */
public final class FileStores {
    private FileStores() {
    }

    /**
     * The store holding {@code location}, configured by {@code options} (ignored by the local
     * store). The caller closes it.
     *
     * @throws IllegalArgumentException naming the scheme if no provider supports it
     * @throws IOException              if the store cannot be reached or configured
     */
    public static FileStore forLocation(URI location, Map<String, String> options) throws IOException {
        if (Locations.isLocal(location)) {
            return LocalFileStore.INSTANCE;
        }
        String scheme = Locations.scheme(location);
        for (FileStoreProvider provider : ServiceLoader.load(FileStoreProvider.class, FileStores.class.getClassLoader())) {
            if (provider.supports(scheme)) {
                return provider.open(location, Map.copyOf(options));
            }
        }
        throw new IllegalArgumentException("no file store reads " + scheme + ":// locations such as "
                + Locations.display(location) + ": put loader-hadoop and your Hadoop client on the class path");
    }

    /** The local file system as a store. */
    public static FileStore local() {
        return LocalFileStore.INSTANCE;
    }
}
