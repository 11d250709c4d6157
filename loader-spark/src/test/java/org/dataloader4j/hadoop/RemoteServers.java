package org.dataloader4j.hadoop;

import java.net.URI;
import java.util.Map;

/**
 * loader-hadoop's test servers ({@link RemoteStores}, from its test jar) for tests outside its
 * package: the same MiniDFSCluster and s3proxy, one of each per test JVM, started on first use.
 */
public final class RemoteServers {
    private RemoteServers() {
    }

    /** The MiniDFSCluster's file system URI, {@code hdfs://host:port}. */
    public static URI hdfs() {
        return RemoteStores.hdfs();
    }

    /** The s3proxy bucket's URI, {@code s3a://bucket/}. */
    public static URI s3Bucket() {
        return RemoteStores.s3().bucket();
    }

    /** The S3A options that reach the s3proxy: endpoint, path-style access, credentials, retries. */
    public static Map<String, String> s3Options() {
        return RemoteStores.s3().options();
    }
}
