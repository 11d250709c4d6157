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

/**
 * The round trips on S3: the test JVM's s3proxy, through {@code s3a://} URIs, its S3A options
 * set on the shared session's Hadoop configuration as a job would set {@code spark.hadoop.*}.
 */
@Tag("remote")
class S3SparkRoundTripTest extends SparkRoundTripContract {
    private static final AtomicInteger FOLDERS = new AtomicInteger();
    private static URI bucket;

    @BeforeAll
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    static void startServer() {
        bucket = RemoteServers.s3Bucket();
        RemoteServers.s3Options().forEach(spark().sparkContext().hadoopConfiguration()::set);
    }

    /** A folder of the bucket, emptied: s3proxy keeps its objects on disk from one build to the next. */
    @Override
    String folder() throws IOException {
        String dir = bucket.resolve("spark-round-trips/data-" + FOLDERS.getAndIncrement()).toString();
        StoredFiles.fs(dir).delete(new Path(dir), true);
        return dir;
    }
}
