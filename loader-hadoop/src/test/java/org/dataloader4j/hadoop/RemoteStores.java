package org.dataloader4j.hadoop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * The servers the tests read from, started by the tests: one {@link MiniDFSCluster} per test JVM
 * (started on first use, shut down when the JVM exits), and s3proxy as a child process on
 * 127.0.0.1 with a file-system back end, reached through S3A. Both keep their data under
 * {@code target/remote-tests}.
 */
final class RemoteStores {
    /** A secret no log line, message or output may show: the tests look for it. */
    static final String SECRET = "d4j-SECRET-7f3a9c2e51b84d06";
    static final String ACCESS_KEY = "d4j-access";
    static final String BUCKET = "data";

    private static MiniDFSCluster hdfs;
    private static S3 s3;

    private RemoteStores() {
    }

    /** The test data folder, under the build's target folder. */
    static Path testDir() {
        return Path.of(System.getProperty("test.dir", "target/remote-tests")).toAbsolutePath();
    }

    /** The MiniDFSCluster's file system URI ({@code hdfs://127.0.0.1:port}), the cluster started on first use. */
    static synchronized URI hdfs() {
        if (hdfs == null) {
            Configuration conf = new Configuration();
            conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, testDir().resolve("minidfs").toString());
            conf.setInt("dfs.replication", 1);
            try {
                hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
                hdfs.waitActive();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the MiniDFSCluster", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> hdfs.shutdown(true), "minidfs-shutdown"));
        }
        return hdfs.getURI();
    }

    /** The cluster, started ({@link #hdfs()}). */
    static synchronized MiniDFSCluster cluster() {
        hdfs();
        return hdfs;
    }

    /**
     * Starts the {@code stopped} datanodes again on their ports and storage, and waits until the
     * cluster is active and has their block reports, so that every block is readable again.
     */
    static synchronized void restartDataNodes(List<MiniDFSCluster.DataNodeProperties> stopped) {
        try {
            for (MiniDFSCluster.DataNodeProperties datanode : stopped) {
                hdfs.restartDataNode(datanode, true);
            }
            hdfs.waitActive();
            hdfs.waitFirstBRCompleted(0, 60_000);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restart the datanodes", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the datanodes sent no block report within 60 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted restarting the datanodes", e);
        }
    }

    /** Copies local {@code files} into folder {@code dir} of {@code store} (a URI with a file system), returning their URIs. */
    static List<URI> upload(URI store, Map<String, String> options, List<Path> files, String dir) throws IOException {
        Configuration conf = new Configuration();
        options.forEach(conf::set);
        List<URI> out = new ArrayList<>();
        try (FileSystem fs = FileSystem.newInstance(store, conf)) {
            org.apache.hadoop.fs.Path folder = new org.apache.hadoop.fs.Path(store.resolve("/" + dir + "/"));
            fs.delete(folder, true);
            fs.mkdirs(folder);
            for (Path file : files) {
                org.apache.hadoop.fs.Path to = new org.apache.hadoop.fs.Path(folder, file.getFileName().toString());
                try (var stream = fs.create(to, true)) {
                    Files.copy(file, stream);
                }
                out.add(to.toUri());
            }
        }
        return out;
    }

    /** The s3proxy shared by the tests, started on first use and stopped when the JVM exits. */
    static synchronized S3 s3() {
        if (s3 == null) {
            s3 = S3.start(testDir().resolve("s3"), freePort());
            Runtime.getRuntime().addShutdownHook(new Thread(s3::stop, "s3proxy-shutdown"));
        }
        return s3;
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An s3proxy child process on 127.0.0.1, objects kept as files under {@code dir}. */
    static final class S3 {
        final Path dir;
        final int port;
        private Process process;

        private S3(Path dir, int port) {
            this.dir = dir;
            this.port = port;
        }

        static S3 start(Path dir, int port) {
            S3 s3 = new S3(dir, port);
            s3.start();
            return s3;
        }

        /** Starts (or starts again) the server, on the same port and files; returns when it accepts connections. */
        synchronized void start() {
            try {
                Files.createDirectories(dir.resolve("objects").resolve(BUCKET));
                Path properties = dir.resolve("s3proxy.properties");
                Files.writeString(properties, String.join("\n",
                        "s3proxy.endpoint=http://127.0.0.1:" + port,
                        "s3proxy.authorization=aws-v2-or-v4",
                        "s3proxy.identity=" + ACCESS_KEY,
                        "s3proxy.credential=" + SECRET,
                        "jclouds.provider=filesystem",
                        "jclouds.filesystem.basedir=" + dir.resolve("objects"), ""));
                String java = ProcessHandle.current().info().command().orElse("java");
                process = new ProcessBuilder(java, "-Xmx256m", "-jar", System.getProperty("s3proxy.jar"),
                        "--properties", properties.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("s3proxy.log").toFile()))
                        .start();
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (!accepts()) {
                    if (!process.isAlive() || System.nanoTime() > deadline) {
                        process.destroyForcibly();
                        throw new IllegalStateException("s3proxy did not start; see " + dir.resolve("s3proxy.log"));
                    }
                    Thread.sleep(100);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start s3proxy", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted starting s3proxy", e);
            }
        }

        private boolean accepts() {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        /** Kills the server at once, as a crash would, and waits for it to be gone. */
        synchronized void stop() {
            if (process != null) {
                process.destroyForcibly();
                try {
                    process.waitFor();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                process = null;
            }
        }

        /** The bucket's URI. */
        URI bucket() {
            return URI.create("s3a://" + BUCKET + "/");
        }

        /** The object of {@code key} as s3proxy keeps it on disk. */
        Path object(String key) {
            return dir.resolve("objects").resolve(BUCKET).resolve(key);
        }

        /**
         * S3A's options for this server: the endpoint, path-style access, the credentials, and
         * few, quick retries so that a stopped server fails a read in seconds.
         */
        Map<String, String> options() {
            Map<String, String> o = new LinkedHashMap<>();
            o.put("fs.s3a.endpoint", "http://127.0.0.1:" + port);
            o.put("fs.s3a.endpoint.region", "us-east-1");
            o.put("fs.s3a.path.style.access", "true");
            o.put("fs.s3a.connection.ssl.enabled", "false");
            o.put("fs.s3a.access.key", ACCESS_KEY);
            o.put("fs.s3a.secret.key", SECRET);
            o.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
            o.put("fs.s3a.change.detection.mode", "none");
            o.put("fs.s3a.attempts.maximum", "1");
            o.put("fs.s3a.retry.limit", "2");
            o.put("fs.s3a.retry.interval", "100ms");
            o.put("fs.s3a.retry.throttle.limit", "2");
            o.put("fs.s3a.connection.establish.timeout", "2s");
            o.put("fs.s3a.connection.timeout", "5s");
            o.put("fs.s3a.connection.request.timeout", "10s");
            return o;
        }
    }
}
