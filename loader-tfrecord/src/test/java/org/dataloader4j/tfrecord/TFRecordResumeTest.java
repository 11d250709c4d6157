package org.dataloader4j.tfrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.dataset.DistributedTrainingOptions;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Mode;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Remainder;
import org.dataloader4j.core.dataset.GroupBatchDataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.ReaderOptions;
import org.dataloader4j.core.testing.ResumeRuns;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.format.tf.BytesList;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.format.tf.Feature;
import org.dataloader4j.format.tf.Features;
import org.dataloader4j.format.tf.Int64List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exact resume and determinism of whole TFRecord readers, over uncompressed, GZIP and ZLIB files:
 * a reader restored from {@link DataReader#state()} after any batch reads byte for byte what the
 * uninterrupted run read next, and a seed gives the same batches whatever the parse threads and
 * the ring size.
 */
class TFRecordResumeTest {
    private static final long SEED = 31;
    private static final int PARTS = 3;
    private static final int MAX_BLOB = 400;
    private static final AtomicInteger NAMES = new AtomicInteger();
    /** Groups of payload lengths 100 bytes wide: four of them. */
    private static final ToLongFunction<RecordSlice> LENGTH_BUCKET = slice -> slice.payload().byteSize() / 100;

    @TempDir
    Path dir;

    /** Writes {@code records} Examples over {@link #PARTS} parts in {@code dir/<compression>}: an {@code id} and a {@code blob} of 1 to 400 bytes. */
    private Path writeRecords(int records, Compression compression) throws IOException {
        Path data = dir.resolve(compression.name());
        Random random = new Random(SEED);
        try (PartWriter out = PartWriter.create(data, PartWriter.PREFIX, PartWriter.SUFFIX_LENGTH, PARTS, Framing.TFRECORD,
                compression)) {
            for (int i = 0; i < records; i++) {
                byte[] blob = new byte[1 + random.nextInt(MAX_BLOB)];
                random.nextBytes(blob);
                out.write(Example.newBuilder().setFeatures(Features.newBuilder()
                        .putFeature("id", Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(i)).build())
                        .putFeature("blob", Feature.newBuilder().setBytesList(BytesList.newBuilder()
                                .addValue(ByteString.copyFrom(blob))).build())).build());
            }
        }
        return data;
    }

    private static ExampleParser parser() {
        return ExampleParser.forExample(FixedLenFeature.of("id", Shape.of(1), DataType.INT64), BytesFeature.of("blob", MAX_BLOB));
    }

    private static TFRecordReader.Builder builder(Path data, int batchSize) {
        return TFRecordReader.builder()
                .reader(o -> o.name("tfrecord-resume-" + NAMES.incrementAndGet()).parseThreads(2).ringSize(4))
                .dataDir(data).dataPartNum(PARTS).partNameSuffixLength(PartWriter.SUFFIX_LENGTH).batchSize(batchSize)
                .feature(FixedLenFeature.of("id", Shape.of(1), DataType.INT64)).feature(BytesFeature.of("blob", MAX_BLOB));
    }

    /** The reader {@code builder} builds, restored from {@code state} unless it is null. */
    private static DataReader open(TFRecordReader.Builder builder, DatasetState state) {
        return (state == null ? builder : builder.reader(o -> o.restore(state))).build();
    }

    /** The shuffled file stack: two epochs, the files reordered after the first. */
    private static TFRecordReader.Builder shuffled(Path data) {
        return builder(data, 6).randomShuffle(true).shuffleBufferSize(10).seed(SEED).epochs(2).shuffleAfterEpoch(true);
    }

    /** The group stack, hand-composed: two epochs of the files, grouped by payload length; {@code options} adjusts the reader. */
    private static DataReader grouped(Path data, UnaryOperator<ReaderOptions.Builder> options) {
        List<Path> files = List.of(data.resolve("part-00000"), data.resolve("part-00001"), data.resolve("part-00002"));
        TFRecordDataset records = new TFRecordDataset(files, 2, true, SEED, null, true);
        return DataReader.of(GroupBatchDataset.of(records, 5, LENGTH_BUCKET), parser(),
                options.apply(ReaderOptions.builder().name("tfrecord-group-" + NAMES.incrementAndGet())).build());
    }

    /** This rank's share, padded, of two shuffled epochs, shuffled again through a buffer. */
    private TFRecordReader.Builder distributed(Path data, int worldSize) {
        DistributedTrainingOptions options = DistributedTrainingOptions.builder().rank(worldSize - 1).worldSize(worldSize)
                .mode(Mode.STRIDE).remainder(Remainder.PAD_WITH_MASK).shuffle(true).seed(SEED).epochs(2).build();
        return builder(data, 4).distributed(options).indexDir(dir.resolve("index"))
                .randomShuffle(true).shuffleBufferSize(6).seed(SEED);
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = {"NONE", "GZIP", "ZLIB"})
    @Timeout(60)
    void aShuffledRunOverEpochsResumesAtEveryBatch(Compression compression) throws IOException {
        // 2 epochs of 40 records in batches of 6: batch 6 holds the end of epoch 0 and the start of epoch 1.
        Path data = writeRecords(40, compression);
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(state -> open(shuffled(data), state));
        assertEquals(14, run.batches().size(), "80 samples in batches of 6");
        for (DatasetState state : run.states()) {
            if (compression == Compression.NONE) {
                // Read by record number: one number per buffered record.
                DatasetState records = ResumeRuns.find(state, "records");
                int buffered = records.list("buffer").length;
                int epochLongs = records.hasList("bufferEpochBits") ? records.list("bufferEpochBits").length
                        : records.list("bufferEpochs").length;
                assertTrue(epochLongs <= Math.max(1, buffered), "at most a long per buffered record for its epoch: " + state);
                continue;
            }
            DatasetState shuffle = ResumeRuns.find(state, "shuffle");
            assertEquals(2 * shuffle.list("epochs").length, shuffle.list("locations").length, "a location per buffered sample: " + state);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = {"NONE", "GZIP"})
    @Timeout(60)
    void aGroupBatchRunResumesAtEveryBatch(Compression compression) throws IOException {
        Path data = writeRecords(40, compression);
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(state -> state == null ? grouped(data, o -> o)
                : grouped(data, o -> o.restore(state)));
        assertEquals(80, run.batches().stream().mapToInt(ResumeRuns.Seen::size).sum(), "every sample of both epochs");
        assertTrue(run.states().stream().anyMatch(s -> ResumeRuns.find(s, "group").list("sizes").length > 1),
                "some resumes restore batches of several groups");
    }

    @Test
    @Timeout(60)
    void aDistributedRunResumesAtEveryBatch() throws IOException {
        Path data = writeRecords(40, Compression.NONE);
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(state -> open(distributed(data, 3), state));
        assertEquals(2 * 14, run.batches().stream().mapToInt(ResumeRuns.Seen::size).sum(), "two epochs of ceil(40 / 3)");
    }

    @Test
    @Timeout(30)
    void distributedRefusesCompressedFilesNamingTheFileAndItsCompression() throws IOException {
        Path data = writeRecords(10, Compression.GZIP);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> distributed(data, 2).build());
        assertTrue(e.getMessage().contains("uncompressed files only") && e.getMessage().contains(data.resolve("part-00000")
                + " is GZIP") && e.getMessage().contains("shard(rank, worldSize)"), e.getMessage());
    }

    /** Reads the reader {@code open} builds for every parse-thread count and ring size, and checks all read the same. */
    private static void assertSameBatchesWhateverThreadsAndRing(Function<int[], DataReader> open, String stack) {
        List<ResumeRuns.Seen> reference = null;
        for (int threads : new int[] {1, 2, 4}) {
            for (int ring : new int[] {1, 2, 8}) {
                List<ResumeRuns.Seen> batches;
                try (DataReader reader = open.apply(new int[] {threads, ring})) {
                    batches = ResumeRuns.readAll(reader);
                }
                if (reference == null) {
                    reference = batches;
                    assertTrue(reference.size() > 8, stack + ": more batches than the largest ring");
                }
                assertEquals(reference, batches, stack + " parseThreads=" + threads + " ringSize=" + ring + " seed=" + SEED);
            }
        }
    }

    @Test
    @Timeout(60)
    void aSeedGivesTheSameBatchesWhateverTheParseThreadsAndRingSize() throws IOException {
        Path data = writeRecords(150, Compression.NONE);
        Path gzip = writeRecords(150, Compression.GZIP);
        assertSameBatchesWhateverThreadsAndRing(c -> shuffled(gzip).batchSize(16)
                .reader(o -> o.parseThreads(c[0]).ringSize(c[1])).build(),
                "shuffled GZIP files");
        assertSameBatchesWhateverThreadsAndRing(c -> grouped(data, o -> o.parseThreads(c[0]).ringSize(c[1])), "group batches");
        assertSameBatchesWhateverThreadsAndRing(c -> distributed(data, 2).batchSize(8)
                .reader(o -> o.parseThreads(c[0]).ringSize(c[1])).build(),
                "distributed, padded");
    }
}
