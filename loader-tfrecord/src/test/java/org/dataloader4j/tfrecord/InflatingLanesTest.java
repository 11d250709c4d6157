package org.dataloader4j.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.testing.FaultRuns;
import org.dataloader4j.core.testing.ResumeRuns;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.testing.CorruptFiles;
import org.dataloader4j.format.testing.CorruptFiles.Damaged;
import org.dataloader4j.format.testing.CorruptFiles.Fault;
import org.dataloader4j.format.tf.BytesList;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.format.tf.Feature;
import org.dataloader4j.format.tf.Features;
import org.dataloader4j.format.tf.Int64List;
import org.dataloader4j.tfrecord.internal.InflatingLane;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compressed files inflated on lanes of their own, ahead of the reader, against the same files
 * inflated on the load thread ({@code inflateAheadBytes(0)}): the same records in the same batches,
 * the same failures at the same batches, the same skips, across epochs and file orders and at every
 * resume; and no lane thread left after close. The lanes hold the fewest blocks (two each), so they
 * wait on the reader, and the files span several blocks.
 */
@Timeout(120)
class InflatingLanesTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final int BATCH = 16;

    @TempDir
    Path dir;

    private final String name = "inflate-test-" + NAMES.incrementAndGet();

    @AfterEach
    void noLaneOutlivesItsReader() {
        List<String> left = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith(name + "-")).toList();
        assertEquals(List.of(), left);
    }

    /** A record of {@code id} with about 1.5 KiB of padding, so that a few hundred records span several blocks. */
    private static byte[] record(long id, Random random) {
        byte[] pad = new byte[1000 + random.nextInt(1000)];
        random.nextBytes(pad);
        return Example.newBuilder().setFeatures(Features.newBuilder()
                .putFeature("id", Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(id)).build())
                .putFeature("pad", Feature.newBuilder().setBytesList(BytesList.newBuilder()
                        .addValue(ByteString.copyFrom(pad))).build())).build().toByteArray();
    }

    /** Five compressed files: GZIP, ZLIB, empty, a damaged stream, GZIP; ids counted on from file to file. */
    private List<Path> files() throws IOException {
        Random random = new Random(17);
        Path a = write("a.gz", CorruptFiles.compress(CorruptFiles.frame(CorruptFiles.payloads(0, 400, random,
                InflatingLanesTest::record), Framing.TFRECORD), Compression.GZIP));
        Path b = write("b.zz", CorruptFiles.compress(CorruptFiles.frame(CorruptFiles.payloads(400, 300, random,
                InflatingLanesTest::record), Framing.TFRECORD), Compression.ZLIB));
        Path c = write("c.gz", CorruptFiles.compress(new byte[0], Compression.GZIP));
        Damaged damaged = CorruptFiles.damage(CorruptFiles.payloads(700, 300, random, InflatingLanesTest::record),
                Framing.TFRECORD, Compression.GZIP, Fault.DAMAGED_STREAM, random);
        Path d = write("d.gz", damaged.bytes());
        Path e = write("e.gz", CorruptFiles.compress(CorruptFiles.frame(CorruptFiles.payloads(1000, 250, random,
                InflatingLanesTest::record), Framing.TFRECORD), Compression.GZIP));
        return List.of(a, b, c, d, e);
    }

    private Path write(String file, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(file), bytes);
    }

    private TFRecordReader.Builder reader(List<Path> files, boolean lanes) {
        return TFRecordReader.builder().files(files).batchSize(BATCH).inflateAheadBytes(lanes ? 1 : 0)
                .reader(o -> o.name(name).parseThreads(2).ringSize(4))
                .feature(FixedLenFeature.of("id", Shape.of(1), DataType.INT64));
    }

    @Test
    void lanesReadWhatTheLoadThreadReads() throws IOException {
        List<Path> files = files();
        FaultRuns strictPlain = FaultRuns.read(reader(files, false).build(), "id");
        FaultRuns strictLanes = FaultRuns.read(reader(files, true).build(), "id");
        assertNotNull(strictPlain.corruption(), "the damaged stream fails a strict reader");
        assertEquals(strictPlain.ids(), strictLanes.ids());
        assertEquals(strictPlain.corruption().getMessage(), strictLanes.corruption().getMessage());

        Function<Boolean, DataReader> skipping = lanes -> reader(files, lanes).skipCorrupt(5).epochs(3)
                .shuffleAfterEpoch(true).randomShuffle(true).shuffleBufferSize(64).seed(3).build();
        FaultRuns plain = FaultRuns.read(skipping.apply(false), "id");
        FaultRuns lanes = FaultRuns.read(skipping.apply(true), "id");
        assertEquals(3, plain.skipped(), "the damaged stream, once an epoch");
        assertEquals(plain.ids(), lanes.ids());
        assertEquals(plain.batchSizes(), lanes.batchSizes());
        assertEquals(plain.skipped(), lanes.skipped());
    }

    @Test
    void aReaderOnLanesResumesAtEveryBatch() throws IOException {
        List<Path> files = files();
        Function<DatasetState, DataReader> open = state -> {
            TFRecordReader.Builder b = reader(files, true).skipCorrupt(5).epochs(2).shuffleAfterEpoch(true).seed(8);
            return (state == null ? b : b.reader(o -> o.restore(state))).build();
        };
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(open);
        assertTrue(run.batches().size() > 2 * 1200 / BATCH, run.batches().size() + " batches");
    }

    @Test
    void aLaneHandsOutTheSourceBytesThenItsFailure() throws IOException {
        byte[] bytes = new byte[3 * InflatingLane.BLOCK + 12345];
        new Random(2).nextBytes(bytes);
        IOException failure = new IOException("damaged here");
        InputStream source = new InputStream() {
            private final InputStream in = new ByteArrayInputStream(bytes);

            @Override
            public int read() throws IOException {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                // Short reads, then the failure where the bytes end.
                int n = in.read(b, off, Math.min(len, 7000));
                if (n < 0) {
                    throw failure;
                }
                return n;
            }
        };
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (InflatingLane lane = new InflatingLane(source, name + "-lane", 2, new ConcurrentLinkedQueue<>())) {
            byte[] buffer = new byte[5000];
            IOException thrown = assertThrows(IOException.class, () -> {
                for (int n; (n = lane.read(buffer, 0, buffer.length)) >= 0; ) {
                    got.write(buffer, 0, n);
                }
            });
            assertSame(failure, thrown);
            assertSame(failure, assertThrows(IOException.class, () -> lane.read(buffer, 0, 1)), "again on every later read");
        }
        assertArrayEquals(bytes, got.toByteArray(), "every byte before the failure, in order");
    }
}
