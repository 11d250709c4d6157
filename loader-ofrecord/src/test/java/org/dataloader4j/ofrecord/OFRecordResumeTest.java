package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.DistributedTrainingOptions;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Mode;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Remainder;
import org.dataloader4j.core.dataset.GroupBatchDataset;
import org.dataloader4j.core.dataset.RandomShuffleDataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.ValidMaskParser;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.ReaderOptions;
import org.dataloader4j.core.testing.ResumeRuns;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Exact resume of whole OFRecord readers: a reader restored from {@link DataReader#state()} after
 * any batch reads byte for byte what the uninterrupted run read next; the state holds a location
 * per buffered sample, never its bytes; and a restore fetches the buffered samples without
 * replaying the stream.
 */
class OFRecordResumeTest {
    private static final long SEED = 23;
    private static final int PARTS = 3;
    /** Every record holds at least this many floats, so that a record is larger than a whole state. */
    private static final int MIN_VALUES = 512;
    private static final int MIN_RECORD_BYTES = MIN_VALUES * Float.BYTES;
    /** The bytes a buffered record adds to a reader's state: its number (file and record); epochs are kept as bits. */
    private static final int BYTES_PER_BUFFERED_SAMPLE = Long.BYTES;
    private static final AtomicInteger NAMES = new AtomicInteger();

    @TempDir
    Path dir;

    /** Writes {@code records} records over {@link #PARTS} parts: {@code id} and 512 to 639 {@code values} derived from it. */
    private void writeRecords(int records) throws IOException {
        Random random = new Random(SEED);
        try (PartWriter out = PartWriter.create(dir, PARTS)) {
            for (int i = 0; i < records; i++) {
                float[] values = new float[MIN_VALUES + random.nextInt(128)];
                for (int k = 0; k < values.length; k++) {
                    values[k] = i + k / 1000f;
                }
                out.write(Features.record(Map.of("id", Features.int64Feature(i), "values", Features.floatFeature(values))));
            }
        }
    }

    private static OFRecordParser parser() {
        return OFRecordParser.of(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64),
                OFRecordRawDecoder.of("values", Shape.of(MIN_VALUES + 128), DataType.FLOAT32).withDim1VaryingLength());
    }

    private OFRecordReader.Builder builder(int batchSize) {
        OFRecordReader.Builder builder = OFRecordReader.builder()
                .reader(o -> o.name("ofrecord-resume-" + NAMES.incrementAndGet()).parseThreads(2).ringSize(4))
                .dataDir(dir).dataPartNum(PARTS).partNameSuffixLength(PartWriter.SUFFIX_LENGTH)
                .batchSize(batchSize);
        parser().decoders().forEach(builder::decoder);
        return builder;
    }

    /** The reader {@code builder} builds, restored from {@code state} unless it is null. */
    private static DataReader open(OFRecordReader.Builder builder, DatasetState state) {
        return (state == null ? builder : builder.reader(o -> o.restore(state))).build();
    }

    @Test
    @Timeout(60)
    void aShuffledRunOverEpochsResumesAtEveryBatchFromASmallState() throws IOException {
        // 3 epochs of 60 records in batches of 7: batch 8 holds the end of epoch 0 and the start of epoch 1.
        writeRecords(60);
        int bufferSize = 12;
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(state -> open(builder(7).randomShuffle(true)
                .shuffleBufferSize(bufferSize).seed(SEED).epochs(3).shuffleAfterEpoch(true)
                        .reader(o -> o.checkpointEvery(1)), state));
        assertEquals(26, run.batches().size(), "180 samples in batches of 7");
        assertEquals(List.of(0L, 1L, 2L), run.batches().stream().map(ResumeRuns.Seen::epoch).distinct().toList());

        int base = DatasetStateCodec.toBytes(run.states().get(0)).length;
        int fullBuffers = 0;
        int bitStates = 0;
        for (int k = 0; k < run.states().size(); k++) {
            DatasetState state = run.states().get(k);
            DatasetState records = ResumeRuns.find(state, "records");
            int buffered = records.list("buffer").length;
            String where = "after " + k + " batches: " + state;
            assertTrue(buffered <= bufferSize, where);
            // Epochs as a base and a bit per record where the buffer holds two at most (nearly always).
            if (records.hasList("bufferEpochBits")) {
                bitStates++;
                assertEquals(buffered == 0 ? 1 : 2, records.list("bufferEpochBits").length, where);
                assertEquals(base + (long) BYTES_PER_BUFFERED_SAMPLE * buffered + (buffered == 0 ? 0 : Long.BYTES),
                        DatasetStateCodec.toBytes(state).length, where);
            } else {
                assertEquals(buffered, records.list("bufferEpochs").length, where);
            }
            assertTrue(DatasetStateCodec.toBytes(state).length < MIN_RECORD_BYTES, "the state is smaller than one record " + where);
            if (buffered == bufferSize) {
                fullBuffers++;
            }
        }
        assertEquals(0, ResumeRuns.find(run.states().get(0), "records").list("buffer").length, "nothing buffered before the first batch");
        assertTrue(fullBuffers >= 20, "most resumes restore a full buffer: " + fullBuffers);
        assertTrue(bitStates >= 20, "most states keep their epochs as bits: " + bitStates);
    }

    @ParameterizedTest(name = "{0} {1} randomShuffle={2}")
    @CsvSource({
        "PAD_WITH_MASK,  STRIDE,     false", "PAD_WITH_MASK,  STRIDE,     true", "PAD_WITH_MASK,  CONTIGUOUS, false", "PAD_WITH_MASK,  CONTIGUOUS, true",
        "WRAP, STRIDE,     false", "WRAP, STRIDE,     true", "WRAP, CONTIGUOUS, false", "WRAP, CONTIGUOUS, true",
        "DROP, STRIDE,     false", "DROP, STRIDE,     true", "DROP, CONTIGUOUS, false", "DROP, CONTIGUOUS, true"})
    @Timeout(60)
    void aDistributedRunResumesAtEveryBatch(Remainder remainder, Mode mode, boolean randomShuffle) throws IOException {
        // 50 records over 3 ranks: the last rank's share is padded (PAD_WITH_MASK, WRAP) or the tail dropped (DROP).
        writeRecords(50);
        int worldSize = 3;
        DistributedTrainingOptions options = DistributedTrainingOptions.builder().rank(worldSize - 1).worldSize(worldSize)
                .mode(mode).remainder(remainder).shuffle(true).seed(SEED).epochs(2).build();
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(state -> open(builder(4).distributed(options)
                .indexDir(dir.resolve("index")).randomShuffle(randomShuffle).shuffleBufferSize(8).seed(SEED), state));

        int perRank = remainder == Remainder.DROP ? 50 / worldSize : (50 + worldSize - 1) / worldSize;
        assertEquals(2 * perRank, run.batches().stream().mapToInt(ResumeRuns.Seen::size).sum(), "two epochs of this rank's share");
        if (remainder == Remainder.PAD_WITH_MASK) {
            long padding = run.batches().stream().flatMap(b -> asList(b.output(ValidMaskParser.VALID)).stream())
                    .filter(v -> v == 0).count();
            assertEquals(2 * (perRank * worldSize - 50), padding, "the padding rows, marked in the valid mask");
        }
    }

    private static List<Byte> asList(byte[] bytes) {
        Byte[] boxed = new Byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            boxed[i] = bytes[i];
        }
        return List.of(boxed);
    }

    /** A dataset that counts the calls to {@link #next()} and the samples its locator fetches. */
    private static final class Counting<T> implements Dataset<T> {
        private final Dataset<T> dataset;
        int nexts;
        int fetched;

        Counting(Dataset<T> dataset) {
            this.dataset = dataset;
        }

        @Override
        public List<T> next() {
            nexts++;
            return dataset.next();
        }

        @Override
        public DatasetState state() {
            return dataset.state();
        }

        @Override
        public void restore(DatasetState state) {
            dataset.restore(state);
        }

        @Override
        public long epoch() {
            return dataset.epoch();
        }

        @Override
        public Optional<SampleLocator<T>> locator() {
            return dataset.locator().map(locator -> new SampleLocator<>() {
                @Override
                public int width() {
                    return locator.width();
                }

                @Override
                public void locate(T sample, long[] to, int at) {
                    locator.locate(sample, to, at);
                }

                @Override
                public List<T> fetch(long[] locations) {
                    fetched += locations.length / locator.width();
                    return locator.fetch(locations);
                }
            });
        }

        @Override
        public void close() {
            dataset.close();
        }
    }

    private Counting<RecordSlice> records() {
        List<Path> files = List.of(dir.resolve("part-00000"), dir.resolve("part-00001"), dir.resolve("part-00002"));
        return new Counting<>(new OFRecordDataset(files, 2, true, SEED));
    }

    /**
     * Runs the stack {@code stack} builds over {@link #records()} with batches of {@code batchSize},
     * takes the state after {@code k} batches, restores a new stack from it and checks that the
     * restore read nothing but fetched {@code buffered(state)} samples, and that the restored
     * reader reads the rest of the run.
     */
    private void assertRestoreFetchesOnlyTheBuffer(Function<Counting<RecordSlice>, Dataset<RecordSlice>> stack,
                                                   int batchSize, int k, ToLongFunction<DatasetState> buffered) {
        ResumeRuns.Run run = ResumeRuns.run(state -> DataReader.of(stack.apply(records()), parser(),
                ReaderOptions.builder()
                .name("ofrecord-counting-" + NAMES.incrementAndGet()).parseThreads(2).checkpointEvery(1).build()));
        assertTrue(run.batches().size() > k, "the run is longer than " + k + " batches");
        DatasetState state = ResumeRuns.storedAndReadBack(run.states().get(k), k);
        long expectedFetches = buffered.applyAsLong(state);
        assertTrue(expectedFetches > 0, "something is buffered: " + state);

        Counting<RecordSlice> counted = records();
        Dataset<RecordSlice> restored = stack.apply(counted);
        restored.restore(ResumeRuns.position(state));
        assertEquals(0, counted.nexts, "records read while restoring");
        assertEquals(expectedFetches, counted.fetched, "records fetched while restoring: the buffered ones");
        try (DataReader reader = DataReader.of(restored, parser(),
                ReaderOptions.builder().name("ofrecord-counting-" + NAMES.incrementAndGet()).parseThreads(2).build())) {
            // Restored by hand, not through the reader: the reader counts its steps from 0.
            assertEquals(run.batches().subList(k, run.batches().size()), ResumeRuns.renumbered(ResumeRuns.readAll(reader), k));
        }
    }

    @Test
    @Timeout(60)
    void restoringAShuffleFetchesItsBufferAndReadsNothingElse() throws IOException {
        // 2 epochs of 900 records in batches of 16, resumed in the second epoch after 1600 samples.
        writeRecords(900);
        int bufferSize = 64;
        assertRestoreFetchesOnlyTheBuffer(records -> new BatchDataset<>(new RandomShuffleDataset<>(records, bufferSize, SEED), 16, false),
                16, 100, state -> {
                    long n = ResumeRuns.find(state, "shuffle").list("epochs").length;
                    assertEquals(bufferSize, n, "a full buffer mid-run");
                    return n;
                });
    }

    @Test
    @Timeout(60)
    void restoringAGroupBatchFetchesItsPendingSamplesAndReadsNothingElse() throws IOException {
        writeRecords(900);
        // Groups of payload lengths 200 bytes wide: three or four of them.
        ToLongFunction<RecordSlice> lengthBucket = slice -> slice.payload().byteSize() / 200;
        assertRestoreFetchesOnlyTheBuffer(records -> GroupBatchDataset.of(records, 16, lengthBucket), 16, 70,
                state -> ResumeRuns.find(state, "group").list("epochs").length);
    }
}
