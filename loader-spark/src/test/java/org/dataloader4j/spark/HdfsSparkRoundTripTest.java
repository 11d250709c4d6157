package org.dataloader4j.spark;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.Path;
import org.dataloader4j.hadoop.RemoteServers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

/** The round trips on HDFS: the test JVM's MiniDFSCluster, through {@code hdfs://} URIs. */
@Tag("remote")
class HdfsSparkRoundTripTest extends SparkRoundTripContract {
    private static final AtomicInteger FOLDERS = new AtomicInteger();
    private static URI cluster;

    @BeforeAll
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    static void startCluster() {
        cluster = RemoteServers.hdfs();
    }

    @Override
    String folder() throws IOException {
        String dir = cluster.resolve("/spark-round-trips/data-" + FOLDERS.getAndIncrement()).toString();
        StoredFiles.fs(dir).delete(new Path(dir), true);
        return dir;
    }
}
