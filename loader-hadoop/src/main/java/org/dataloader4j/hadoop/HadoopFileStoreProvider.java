package org.dataloader4j.hadoop;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.dataloader4j.format.store.FileStore;
import org.dataloader4j.format.store.FileStoreProvider;

/**
 * Opens a {@link HadoopFileStore} for any scheme but {@code file} (which the readers map
 * themselves): the options are Hadoop configuration keys set over the configuration Hadoop
 * loads from its class path ({@code core-site.xml}, {@code hdfs-site.xml}).
 */
public final class HadoopFileStoreProvider implements FileStoreProvider {
    /** Found by {@link java.util.ServiceLoader}. */
    public HadoopFileStoreProvider() {
    }

    @Override
    public boolean supports(String scheme) {
        return !scheme.equals("file");
    }

    @Override
    public FileStore open(URI location, Map<String, String> options) throws IOException {
        Configuration conf = new Configuration();
        options.forEach(conf::set);
        return HadoopFileStore.open(location, conf);
    }
}
