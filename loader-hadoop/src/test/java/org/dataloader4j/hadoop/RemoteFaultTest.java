package org.dataloader4j.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.StorageException;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.testing.ResumeRuns;
import org.dataloader4j.core.testing.ResumeRuns.Seen;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Faults of a remote store, on an s3proxy of the test's own and on the MiniDFSCluster with its
 * datanodes stopped (and started again on the same ports, so that the other tests find the
 * cluster as it was): the server stopped in the middle of a read fails {@code read()} within a bounded time with a {@link StorageException} naming the
 * file and offset, and a reader resumed from the last good batch's state after the server is
 * back loses and repeats nothing; a file cut short on the server after it was indexed is a
 * corrupt record. No log line, message or metric shows the store's secret key.
 */
class RemoteFaultTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final int PARTS = 2;

    private static Path write(Path dir, int records) throws IOException {
        Files.createDirectories(dir);
        Random random = new Random(3);
        try (PartWriter out = PartWriter.create(dir, PARTS)) {
            for (int i = 0; i < records; i++) {
                float[] values = new float[1 + random.nextInt(500)];
                java.util.Arrays.fill(values, i);
                out.write(Features.record(Map.of("id", Features.int64Feature(i), "values", Features.floatFeature(values))));
            }
            return dir;
        }
    }

    private static List<Path> parts(Path dir) {
        return List.of(dir.resolve("part-00000"), dir.resolve("part-00001"));
    }

    private static OFRecordReader.Builder builder() {
        return OFRecordReader.builder()
                .decoder(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64))
                .decoder(OFRecordRawDecoder.of("values", Shape.of(500), DataType.FLOAT32).withDim1VaryingLength())
                .dataPartNum(PARTS).partNameSuffixLength(PartWriter.SUFFIX_LENGTH).batchSize(16)
                .reader(o -> o.name("fault-" + NAMES.incrementAndGet()).parseThreads(1).ringSize(2));
    }

    private static OFRecordReader.Builder remote(RemoteStores.S3 s3, String dir) {
        OFRecordReader.Builder b = builder().dataDir(s3.bucket().resolve(dir + "/"));
        s3.options().forEach(b::storeOption);
        return b;
    }

    @Test
    @Timeout(180)
    void aStoppedServerFailsNamingFileAndOffsetAndAResumeLosesNothing() throws IOException {
        Path local = write(RemoteStores.testDir().resolve("fault-stop"), 2000);
        List<Seen> expected = ResumeRuns.readAll(builder().dataDir(local).build());
        RemoteStores.S3 s3 = RemoteStores.S3.start(RemoteStores.testDir().resolve("s3-fault"), RemoteStores.freePort());
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new TeeStream(err, captured), true, StandardCharsets.UTF_8));
        try {
            RemoteStores.upload(s3.bucket(), s3.options(), parts(local), "stop");
            List<Seen> read = new ArrayList<>();
            DatasetState state;
            Throwable failure = null;
            String metrics;
            try (DataReader reader = remote(s3, "stop").build()) {
                for (int b = 0; b < 3; b++) {
                    read.add(Seen.of(reader.read()));
                }
                s3.stop();
                // The test's timeout bounds how long the failure may take.
                ReadOn on = readOn(reader, reader.state(), read);
                failure = on.failure();
                state = on.state();
                metrics = reader.metrics().toString();
            }
            assertNotNull(failure, "reading on after the server stopped fails");
            StorageException unreadable = cause(failure, StorageException.class);
            assertNotNull(unreadable, "a StorageException: " + failure);
            assertTrue(unreadable.file().startsWith("s3a://data/stop/part-0000"), unreadable.file());
            assertTrue(unreadable.offset() >= 0 && unreadable.getMessage().contains("offset " + unreadable.offset()),
                    unreadable.getMessage());
            assertTrue(read.size() < expected.size(), "the fault came before the end: " + read.size());

            s3.start();
            DatasetState last = state;
            try (DataReader resumed = remote(s3, "stop").reader(o -> o.restore(last)).build()) {
                read.addAll(ResumeRuns.readAll(resumed));
            }
            assertEquals(expected, read, "the batches before the fault and after the resume, none lost or repeated");

            assertNoSecret(failure);
            assertFalse(metrics.contains(RemoteStores.SECRET), metrics);
        } finally {
            System.setErr(err);
            s3.stop();
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertFalse(log.contains(RemoteStores.SECRET), "a log line shows the secret");
    }

    @Test
    @Timeout(180)
    void stoppedDataNodesFailNamingFileAndOffsetAndAResumeLosesNothing() throws IOException {
        Path local = write(RemoteStores.testDir().resolve("fault-datanodes"), 2000);
        List<Seen> expected = ResumeRuns.readAll(builder().dataDir(local).build());
        URI hdfs = RemoteStores.hdfs();
        RemoteStores.upload(hdfs, Map.of(), parts(local), "datanodes");
        MiniDFSCluster cluster = RemoteStores.cluster();
        List<Seen> read = new ArrayList<>();
        DatasetState state;
        Throwable failure = null;
        List<MiniDFSCluster.DataNodeProperties> stopped = new ArrayList<>();
        try {
            try (DataReader reader = hdfs(hdfs, "datanodes").build()) {
                for (int b = 0; b < 3; b++) {
                    read.add(Seen.of(reader.read()));
                }
                while (!cluster.getDataNodes().isEmpty()) {
                    stopped.add(cluster.stopDataNode(0));
                }
                // The test's timeout bounds how long the failure may take.
                ReadOn on = readOn(reader, reader.state(), read);
                failure = on.failure();
                state = on.state();
            }
        } finally {
            RemoteStores.restartDataNodes(stopped);
        }
        assertNotNull(failure, "reading on after the datanodes stopped fails");
        StorageException unreadable = cause(failure, StorageException.class);
        assertNotNull(unreadable, "a StorageException: " + failure);
        assertTrue(unreadable.file().startsWith(hdfs.resolve("/datanodes/part-0000").toString()), unreadable.file());
        assertTrue(unreadable.offset() >= 0 && unreadable.getMessage().contains("offset " + unreadable.offset()),
                unreadable.getMessage());
        assertTrue(read.size() < expected.size(), "the fault came before the end: " + read.size());

        DatasetState last = state;
        try (DataReader resumed = hdfs(hdfs, "datanodes").reader(o -> o.restore(last)).build()) {
            read.addAll(ResumeRuns.readAll(resumed));
        }
        assertEquals(expected, read, "the batches before the fault and after the resume, none lost or repeated");
    }

    /**
     * A reader of folder {@code dir} of the MiniDFSCluster whose client gives up on unreachable
     * datanodes at once: one pass over a block's locations, short waits and socket timeouts.
     */
    private static OFRecordReader.Builder hdfs(URI hdfs, String dir) {
        return builder().dataDir(hdfs.resolve("/" + dir + "/"))
                .storeOption("dfs.client.max.block.acquire.failures", "1")
                .storeOption("dfs.client.retry.window.base", "10")
                .storeOption("dfs.client.socket-timeout", "3000")
                .storeOption("ipc.client.connect.max.retries", "1")
                .storeOption("ipc.client.connect.timeout", "2000");
    }

    @Test
    @Timeout(120)
    void aFileCutShortOnTheServerIsACorruptRecord() throws IOException {
        Path local = write(RemoteStores.testDir().resolve("fault-cut"), 400);
        RemoteStores.S3 s3 = RemoteStores.s3();
        RemoteStores.upload(s3.bucket(), s3.options(), parts(local), "cut");
        Throwable failure = null;
        try (DataReader reader = remote(s3, "cut").build()) {
            Path object = s3.object("cut/part-00001");
            try (RandomAccessFile file = new RandomAccessFile(object.toFile(), "rw")) {
                file.setLength(file.length() / 2);
            }
            try {
                while (reader.read() != null) {
                    // read on to the cut
                }
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        assertNotNull(failure, "the cut is found");
        CorruptDataException corrupt = cause(failure, CorruptDataException.class);
        assertNotNull(corrupt, "a corrupt record: " + failure);
        assertEquals("s3a://data/cut/part-00001", corrupt.file());
        assertTrue(corrupt.offset() > 0, corrupt.getMessage());
        assertNoSecret(failure);
    }

    /** What reading on gave: its failure (null if it reached the end) and the state after the last batch read. */
    private record ReadOn(Throwable failure, DatasetState state) {
    }

    /** Reads {@code reader}, whose state is {@code state}, to its end or its failure, adding each batch to {@code read}. */
    private static ReadOn readOn(DataReader reader, DatasetState state, List<Seen> read) {
        try {
            for (var batch = reader.read(); batch != null; batch = reader.read()) {
                read.add(Seen.of(batch));
                state = reader.state();
            }
            return new ReadOn(null, state);
        } catch (RuntimeException e) {
            return new ReadOn(e, state);
        }
    }

    private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    /** No message of {@code e}, its causes or its suppressed errors shows the secret. */
    private static void assertNoSecret(Throwable e) {
        java.io.StringWriter trace = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(trace));
        assertFalse(trace.toString().contains(RemoteStores.SECRET), "an error message shows the secret");
        assertFalse(trace.toString().contains(RemoteStores.ACCESS_KEY + ":"), "an error message shows user information");
    }

    /** Writes to two streams. */
    private static final class TeeStream extends java.io.OutputStream {
        private final java.io.OutputStream a;
        private final java.io.OutputStream b;

        TeeStream(java.io.OutputStream a, java.io.OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int c) throws IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public void write(byte[] bytes, int off, int len) throws IOException {
            a.write(bytes, off, len);
            b.write(bytes, off, len);
        }
    }
}
