package org.dataloader4j.core.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataLoaderException;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.BatchingDataset;
import org.dataloader4j.core.dataset.GroupBatchDataset;
import org.dataloader4j.core.dataset.ListDataset;
import org.dataloader4j.core.dataset.RandomShuffleDataset;
import org.dataloader4j.core.dataset.SampleRecycler;
import org.dataloader4j.core.reader.internal.ReaderState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(20)
class DataReaderTest {
    private static final List<Integer> SAMPLES = IntStream.range(0, 1000).boxed().toList();
    private static final int BATCH = 32;
    private static final AtomicInteger NAMES = new AtomicInteger();

    private final String name = "test-" + NAMES.incrementAndGet();

    @AfterEach
    void noThreadOutlivesItsReader(TestInfo test) {
        assertEquals(List.of(), LiveThreads.named(name + "-"), test.getDisplayName());
    }

    private static Dataset<Integer> stack(long epochs, long seed) {
        return new BatchDataset<>(new RandomShuffleDataset<>(new ListDataset<>(SAMPLES, epochs), 64, seed), BATCH, false);
    }

    /** A reader of {@code dataset} named after the test, with {@code options} otherwise. */
    private DataReader reader(Dataset<Integer> dataset, ReaderOptions.Builder options) {
        return DataReader.of(dataset, new IntParser(), options.name(name).build());
    }

    private DataReader reader(Dataset<Integer> dataset) {
        return reader(dataset, ReaderOptions.builder());
    }

    /** The batches the same stack gives when parsed on this thread, one batch at a time. */
    private static List<IntParser.Rows> reference(Supplier<Dataset<Integer>> stack) {
        List<IntParser.Rows> out = new ArrayList<>();
        IntParser parser = new IntParser();
        try (BatchBuffer batch = BatchBuffer.of(parser, BATCH); Dataset<Integer> ds = stack.get()) {
            for (List<Integer> samples = ds.next(); !samples.isEmpty(); samples = ds.next()) {
                IntParser.Rows rows = IntParser.Rows.of(batch.parse(parser, samples));
                out.add(new IntParser.Rows(rows.id(), rows.features(), rows.offsets(), rows.tokens(), ds.epoch()));
            }
        }
        return out;
    }

    private static List<IntParser.Rows> readAll(DataReader reader) {
        List<IntParser.Rows> out = new ArrayList<>();
        for (Batch b : reader) {
            assertEquals(out.size(), b.index());
            out.add(IntParser.Rows.of(b));
        }
        return out;
    }

    @ParameterizedTest(name = "parseThreads={0} ringSize={1}")
    @CsvSource({"1,1", "1,2", "1,8", "2,1", "2,2", "2,8", "4,1", "4,2", "4,8"})
    void givesTheSameBatchesAsASingleThreadedReference(int parseThreads, int ringSize) {
        List<IntParser.Rows> expected = reference(() -> stack(2, 17));
        try (DataReader reader = reader(stack(2, 17),
                ReaderOptions.builder().parseThreads(parseThreads).ringSize(ringSize))) {
            List<IntParser.Rows> actual = readAll(reader);

            assertEquals(expected.size(), actual.size());
            assertEquals(expected, actual);
            assertEquals(2000 % BATCH, actual.get(actual.size() - 1).id().length, "partial last batch");
            assertNull(reader.read(), "the end stays the end");
        }
    }

    @Test
    void everyRunReachesTheEndOfTheData() {
        // Small rings make the end marker reuse a slot soon after the parse stage publishes it.
        for (int run = 0; run < 300; run++) {
            int ringSize = 1 << (run % 3);
            int samples = 1 + run % 41;
            Dataset<Integer> dataset = new BatchDataset<>(ListDataset.of(SAMPLES.subList(0, samples)), 4, false);
            try (DataReader reader = reader(dataset, ReaderOptions.builder().ringSize(ringSize).parseThreads(2))) {
                int rows = 0;
                for (Batch b : reader) {
                    rows += b.size();
                }
                assertEquals(samples, rows, "run " + run + " ringSize=" + ringSize);
            }
        }
    }

    @Test
    void anInterruptedReadThrowsAndTheReaderGoesOn() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Dataset<Integer> slow = new CountingDataset(ListDataset.of(SAMPLES), new CountDownLatch(0)) {
            @Override
            public List<Integer> next() {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return super.next();
            }
        };
        try (DataReader reader = reader(new BatchDataset<>(slow, BATCH, false))) {
            Thread.currentThread().interrupt();
            DataLoaderException e = assertThrows(DataLoaderException.class, reader::read);
            assertTrue(Thread.interrupted(), "the interrupt status stays set");
            assertTrue(e.getCause() instanceof InterruptedException);
            release.countDown();
            assertEquals(0, reader.read().tensor("id").getLong(0));
        }
    }

    @Test
    void groupBatchesFlowThroughTheReaderOneGroupPerBatch() {
        Dataset<Integer> grouped = GroupBatchDataset.of(
                new RandomShuffleDataset<>(ListDataset.of(SAMPLES), 64, 9), BATCH, v -> v % 3);
        List<Long> seen = new ArrayList<>();
        try (DataReader reader = reader(grouped, ReaderOptions.builder().parseThreads(2))) {
            for (Batch b : reader) {
                long[] ids = b.tensor("id").toLongArray();
                for (long id : ids) {
                    assertEquals(ids[0] % 3, id % 3, "batch " + b.index() + " holds one group");
                    seen.add(id);
                }
            }
        }
        assertEquals(SAMPLES.size(), seen.size());
        assertEquals(SAMPLES.size(), seen.stream().distinct().count());
    }

    @Test
    void closesWhileTheLoadThreadIsBlockedOnAFullRing() throws InterruptedException {
        int ringSize = 2;
        // Once the dataset is asked for a batch beyond the full ring, the load thread can only wait.
        CountDownLatch pulledPastTheRing = new CountDownLatch((ringSize + 1) * BATCH);
        Dataset<Integer> counting = new CountingDataset(new ListDataset<>(SAMPLES, Dataset.FOREVER), pulledPastTheRing);
        DataReader reader = reader(new BatchDataset<>(counting, BATCH, false),
                ReaderOptions.builder().ringSize(ringSize).parseThreads(2));
        Batch held = reader.read();
        assertTrue(pulledPastTheRing.await(10, TimeUnit.SECONDS));

        reader.close();

        assertTrue(reader.isClosed());
        assertEquals(List.of(), LiveThreads.named(name + "-"));
        assertThrows(IllegalStateException.class, held::size);
        assertThrows(IllegalStateException.class, reader::read);
        reader.close();
    }

    @Test
    void closesWithoutEverReading() {
        DataReader reader = reader(stack(Dataset.FOREVER, 1), ReaderOptions.builder().parseThreads(3));
        reader.close();
        assertEquals(List.of(), LiveThreads.named(name + "-"));
        assertEquals(0, reader.offHeapBytes());
    }

    @Test
    void closeFreesTheArenaAndEveryThread() {
        MemorySegment memory;
        DataReader reader = reader(stack(1, 1), ReaderOptions.builder().parseThreads(4));
        try (reader) {
            assertTrue(reader.offHeapBytes() > 0);
            memory = reader.read().tensor("id").segment();
            assertTrue(memory.scope().isAlive());
            assertFalse(LiveThreads.named(name + "-").isEmpty());
        }
        assertFalse(memory.scope().isAlive(), "the arena is closed");
        assertEquals(0, reader.offHeapBytes());
        assertEquals(List.of(), LiveThreads.named(name + "-"));
    }

    @Test
    void aHeldBatchKeepsItsValuesWhileTheRingFillsBehindIt() {
        int ringSize = 4;
        List<IntParser.Rows> expected = reference(() -> stack(1, 3));
        try (DataReader reader = reader(stack(1, 3), ReaderOptions.builder().ringSize(ringSize).parseThreads(2))) {
            Batch first = reader.read();
            // Every slot but the held one is parsed: each took a set of tensors while the first was out.
            while (reader.metrics().batchesParsed() < ringSize) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }

            assertEquals(expected.get(0), IntParser.Rows.of(first));
            List<IntParser.Rows> actual = new ArrayList<>(List.of(IntParser.Rows.of(first)));
            for (Batch b = reader.read(); b != null; b = reader.read()) {
                actual.add(IntParser.Rows.of(b));
            }
            assertEquals(expected, actual);
        }
    }

    @Test
    void aConsumerThatKeepsPaceIsHandedAtMostTwoSetsOfTensors() {
        // The dataset yields a batch only once the one before it has been read, so at most two
        // batches are out at once: the one held and the one being parsed.
        Semaphore readSoFar = new Semaphore(BATCH);
        Dataset<Integer> paced = new BatchDataset<>(new PacedDataset(new ListDataset<>(SAMPLES, 1), readSoFar), BATCH, false);
        Set<Long> addresses = new HashSet<>();
        try (DataReader reader = reader(paced, ReaderOptions.builder().ringSize(8).parseThreads(1))) {
            int batches = 0;
            for (Batch b : reader) {
                addresses.add(b.tensor("id").segment().address());
                batches++;
                readSoFar.release(BATCH);
            }
            assertEquals((SAMPLES.size() + BATCH - 1) / BATCH, batches);
        } finally {
            readSoFar.release(SAMPLES.size());
        }
        // One set if every batch is parsed after the one before it is released, two if some are parsed while it is held.
        assertTrue(addresses.size() <= 2, addresses.size() + " sets: the tensors released last are parsed into next, not the next slot's");
    }

    @ParameterizedTest(name = "parseThreads={0} ringSize={1}")
    @CsvSource({"1,1", "2,2", "2,8"})
    void handsEachSampleBackOnceAndNotBeforeItsBatchIsRead(int parseThreads, int ringSize) {
        Set<Integer> read = ConcurrentHashMap.newKeySet();
        Map<Integer, Integer> handedBack = new ConcurrentHashMap<>();
        List<Integer> tooEarly = new CopyOnWriteArrayList<>();
        final class Recycling extends CountingDataset implements SampleRecycler<Integer> {
            Recycling() {
                super(ListDataset.of(SAMPLES), new CountDownLatch(0));
            }

            @Override
            public void recycle(List<? extends Integer> samples) {
                for (int s : samples) {
                    if (!read.contains(s)) {
                        tooEarly.add(s);
                    }
                    handedBack.merge(s, 1, Integer::sum);
                }
            }
        }
        Dataset<Integer> source = new Recycling();
        Dataset<Integer> stack = new BatchDataset<>(new RandomShuffleDataset<>(source, 64, 5), BATCH, false);
        int batches = 0;
        try (DataReader reader = reader(stack, ReaderOptions.builder().parseThreads(parseThreads).ringSize(ringSize))) {
            for (Batch b = reader.read(); b != null; b = reader.read()) {
                // Counted before the release, which may hand them back at once.
                for (long id : IntParser.Rows.of(b).id()) {
                    read.add((int) id);
                }
                b.close();
                batches++;
            }
        }

        assertEquals(List.of(), tooEarly, "samples handed back before their batch was read");
        assertEquals(Set.of(1), Set.copyOf(handedBack.values()), "each sample handed back once");
        // Only the batches still in the ring at the end are not handed back.
        assertTrue(handedBack.size() >= SAMPLES.size() - ringSize * BATCH,
                handedBack.size() + " of " + SAMPLES.size() + " handed back, " + batches + " batches");
    }

    @Test
    void aReleasedBatchAndItsTensorsThrow() {
        try (DataReader reader = reader(stack(1, 1))) {
            Batch first = reader.read();
            Tensor firstIds = first.tensor("id");
            long id = firstIds.getLong(0);

            Batch second = reader.read();

            assertThrows(IllegalStateException.class, first::size);
            assertThrows(IllegalStateException.class, () -> firstIds.getLong(0));
            assertThrows(IllegalStateException.class, () -> first.tensor("id"));
            assertTrue(id >= 0);
            second.close();
            second.close();
            assertThrows(IllegalStateException.class, () -> second.tensor("features"));
            assertEquals(2, reader.read().index(), "a closed batch is released, the next read moves on");
        }
    }

    @Test
    void aDatasetFailureComesOutOfReadAtItsPosition() {
        RuntimeException boom = new IllegalStateException("bad sample 100");
        Dataset<Integer> failing = new CountingDataset(ListDataset.of(SAMPLES), new CountDownLatch(0)) {
            @Override
            public List<Integer> next() {
                List<Integer> next = super.next();
                if (next.equals(List.of(100))) {
                    throw boom;
                }
                return next;
            }
        };
        try (DataReader reader = reader(new BatchDataset<>(failing, 10, false))) {
            for (int i = 0; i < 10; i++) {
                assertEquals(10L * i, reader.read().tensor("id").getLong(0), "batches before the failure are delivered");
            }
            DataLoaderException e = assertThrows(DataLoaderException.class, reader::read);
            assertSame(boom, e.getCause());
            assertTrue(e.getMessage().contains("load") && e.getMessage().contains("batch 10"), e.getMessage());
            assertSame(e, assertThrows(DataLoaderException.class, reader::read), "the failure stays");
        }
    }

    @Test
    void aParserFailureComesOutOfReadAtItsPosition() {
        RuntimeException boom = new IllegalArgumentException("cannot parse 77");
        Parser<Integer> failing = new Parser<>() {
            private final IntParser parser = new IntParser();

            @Override
            public List<TensorSpec> outputs(int batchCapacity) {
                return parser.outputs(batchCapacity);
            }

            @Override
            public void parse(List<? extends Integer> samples, Batch out, ParallelLoop loop) {
                loop.forEach(samples.size(), i -> {
                    if (samples.get(i) == 77) {
                        throw boom;
                    }
                });
                parser.parse(samples, out, loop);
            }
        };
        Dataset<Integer> dataset = new BatchDataset<>(ListDataset.of(SAMPLES), BATCH, false);
        try (DataReader reader = DataReader.of(dataset, failing,
                ReaderOptions.builder().name(name).parseThreads(4).build())) {
            assertEquals(0, reader.read().tensor("id").getLong(0));
            assertEquals(32, reader.read().tensor("id").getLong(0));
            DataLoaderException e = assertThrows(DataLoaderException.class, reader::read);
            assertSame(boom, e.getCause());
            assertTrue(e.getMessage().contains("parse") && e.getMessage().contains("batch 2"), e.getMessage());
        }
    }

    /** IntParser, noting the thread that parsed each batch (by its first id) and failing or pausing on given ones. */
    private static Parser<Integer> noting(Map<Integer, String> parsedBy, int failAt, int pauseAt) {
        IntParser parser = new IntParser();
        return new Parser<>() {
            @Override
            public List<TensorSpec> outputs(int batchCapacity) {
                return parser.outputs(batchCapacity);
            }

            @Override
            public void parse(List<? extends Integer> samples, Batch out, ParallelLoop loop) {
                int first = samples.get(0);
                parsedBy.put(first, Thread.currentThread().getName());
                if (first == pauseAt) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
                }
                if (first == failAt) {
                    throw new IllegalStateException("batch of " + first);
                }
                parser.parse(samples, out, loop);
            }
        };
    }

    @Test
    void parseWorkersTakeWholeBatchesInTurn() {
        // Two threads, a ring of 8: two workers, each parsing every other batch on its own.
        Map<Integer, String> parsedBy = new ConcurrentHashMap<>();
        Dataset<Integer> dataset = new BatchDataset<>(ListDataset.of(SAMPLES), BATCH, false);
        try (DataReader reader = DataReader.of(dataset, noting(parsedBy, -1, -1),
                ReaderOptions.builder().name(name).parseThreads(2).ringSize(8).build())) {
            assertEquals(List.of(name + "-parse-0", name + "-parse-1"), LiveThreads.named(name + "-parse"));
            int batches = 0;
            for (Batch b : reader) {
                assertEquals(32L * batches, b.tensor("id").getLong(0));
                batches++;
            }
            assertEquals(32, batches);
        }
        for (int k = 0; k < 32; k++) {
            assertEquals(name + "-parse-" + (k % 2), parsedBy.get(32 * k), "batch " + k);
        }
    }

    @Test
    void threadsBeyondHalfTheRingSplitEachWorkersBatches() {
        Dataset<Integer> dataset = new BatchDataset<>(ListDataset.of(SAMPLES), BATCH, false);
        try (DataReader reader = DataReader.of(dataset, new IntParser(),
                ReaderOptions.builder().name(name).parseThreads(5).ringSize(4).build())) {
            // Two workers; of the three threads left, the first worker splits with two, the second with one.
            assertEquals(List.of(name + "-parse-0", name + "-parse-0-1", name + "-parse-0-2", name + "-parse-1", name + "-parse-1-1"),
                    LiveThreads.named(name + "-parse"));
            assertEquals(reference(() -> new BatchDataset<>(ListDataset.of(SAMPLES), BATCH, false)), readAll(reader));
        }
    }

    @Test
    void aFailureComesAtItsBatchWhileTheOtherWorkerIsBehind() {
        // Batch 4 (worker 0) takes 200 ms; batch 5 (worker 1) fails at once. The batches before 5 all come first.
        Map<Integer, String> parsedBy = new ConcurrentHashMap<>();
        Dataset<Integer> dataset = new BatchDataset<>(ListDataset.of(SAMPLES), BATCH, false);
        try (DataReader reader = DataReader.of(dataset, noting(parsedBy, 5 * 32, 4 * 32),
                ReaderOptions.builder().name(name).parseThreads(2).ringSize(8).build())) {
            for (int k = 0; k < 5; k++) {
                assertEquals(32L * k, reader.read().tensor("id").getLong(0), "batch " + k);
            }
            DataLoaderException e = assertThrows(DataLoaderException.class, reader::read);
            assertTrue(e.getMessage().contains("batch 5") && e.getCause().getMessage().equals("batch of 160"), e.getMessage());
            assertThrows(DataLoaderException.class, reader::read, "the failure stays");
        }
    }

    @Test
    void resumesAfterTheLastBatchRead() {
        List<IntParser.Rows> expected = reference(() -> stack(2, 5));
        DatasetState state;
        try (DataReader reader = reader(stack(2, 5), ReaderOptions.builder().ringSize(4))) {
            for (int i = 0; i < 40; i++) {
                reader.read();
            }
            state = DatasetStateCodec.fromText(DatasetStateCodec.toText(reader.state()));
        }
        try (DataReader resumed = reader(stack(2, 999), ReaderOptions.builder().restore(state))) {
            List<IntParser.Rows> rest = new ArrayList<>();
            for (Batch b = resumed.read(); b != null; b = resumed.read()) {
                rest.add(IntParser.Rows.of(b));
            }
            assertEquals(expected.subList(40, expected.size()), rest);
        }
    }

    @Test
    void resumesAfterEveryBatchBetweenAndAtCheckpoints() {
        // 2 epochs of 1,000 samples in batches of 32: 63 batches, the last partial; checkpoints every 16.
        List<IntParser.Rows> expected = reference(() -> stack(2, 5));
        List<DatasetState> states = new ArrayList<>();
        try (DataReader reader = reader(stack(2, 5), ReaderOptions.builder().ringSize(4))) {
            states.add(reader.state());
            while (reader.read() != null) {
                states.add(reader.state());
            }
        }
        assertEquals(expected.size() + 1, states.size());
        for (int k = 0; k < states.size(); k++) {
            DatasetState state = states.get(k);
            int since = k % ReaderOptions.DEFAULT_CHECKPOINT_EVERY;
            assertEquals(ReaderState.STEP, state.kind(), "after batch " + k);
            assertEquals(k, state.field("next"), "after batch " + k);
            DatasetState position = state.requireUpstream();
            assertEquals(since == 0 ? "batch" : "replay", position.kind(), "after batch " + k);
            if (since != 0) {
                assertEquals(since, position.field("batches"), "after batch " + k);
            }
            DatasetState again = DatasetStateCodec.fromText(DatasetStateCodec.toText(state));
            try (DataReader resumed = reader(stack(2, 999), ReaderOptions.builder().restore(again))) {
                List<IntParser.Rows> rest = new ArrayList<>();
                for (Batch b = resumed.read(); b != null; b = resumed.read()) {
                    assertEquals(k + rest.size(), b.index(), "the step of a batch after a resume after batch " + k);
                    rest.add(IntParser.Rows.of(b));
                }
                assertEquals(expected.subList(k, expected.size()), rest, "resumed after batch " + k);
            }
        }
    }

    @Test
    void theDatasetIsAskedForItsStateOnlyAtCheckpoints() {
        AtomicInteger asked = new AtomicInteger();
        final class Asked extends CountingDataset implements BatchingDataset<Integer> {
            Asked() {
                super(stack(2, 5), new CountDownLatch(0));
            }

            @Override
            public DatasetState state() {
                asked.incrementAndGet();
                return super.state();
            }

            @Override
            public int batchSize() {
                return BATCH;
            }
        }
        Dataset<Integer> counting = new Asked();
        int batches = 0;
        try (DataReader reader = reader(counting)) {
            while (reader.read() != null) {
                batches++;
            }
        }
        assertEquals(63, batches);
        // Before the first batch, after batches 16, 32 and 48, and with the end (the 64th next()).
        assertEquals(5, asked.get());
    }

    @Test
    void aReplayStateThatDoesNotFitTheDataIsRefused() {
        Dataset<Integer> nearEnd = stack(1, 5);
        for (int i = 0; i < 30; i++) {
            nearEnd.next();
        }
        DatasetState pastTheEnd = DatasetState.of(ReaderState.REPLAY, nearEnd.state()).with("batches", 5);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> reader(stack(1, 5), ReaderOptions.builder().restore(pastTheEnd)));
        assertTrue(e.getMessage().contains("ended 3 batches before"), e.getMessage());
        DatasetState none = DatasetState.of(ReaderState.REPLAY, nearEnd.state()).with("batches", 0);
        assertThrows(IllegalArgumentException.class, () -> reader(stack(1, 5), ReaderOptions.builder().restore(none)));
    }

    @Test
    void stateBeforeAnyReadIsTheStart() {
        try (DataReader reader = reader(stack(1, 3))) {
            assertEquals(ReaderState.withStep(stack(1, 3).state(), 0), reader.state());
        }
    }

    @Test
    void aStateWithoutStepsRestoresThePositionAndCountsStepsFromZero() {
        // As saved before readers kept steps: the position alone, here a replay of a checkpoint.
        DatasetState old;
        List<IntParser.Rows> expected = reference(() -> stack(1, 5));
        try (DataReader reader = reader(stack(1, 5))) {
            for (int i = 0; i < 3; i++) {
                reader.read();
            }
            old = ReaderState.withoutStep(reader.state());
        }
        assertEquals(ReaderState.REPLAY, old.kind());
        try (DataReader resumed = reader(stack(1, 5), ReaderOptions.builder().restore(old))) {
            Batch first = resumed.read();
            assertEquals(expected.get(3), IntParser.Rows.of(first));
            assertEquals(0, first.index());
            assertEquals(1, ReaderState.nextStep(resumed.state()));
        }
    }

    @Test
    void theBatchSizeIsTheBatchingDatasetsAndAnyOtherYieldsOneSampleAStep() {
        try (DataReader batched = reader(stack(1, 1)); DataReader single = reader(ListDataset.of(SAMPLES))) {
            assertEquals(BATCH, batched.capacity());
            assertEquals(BATCH, batched.read().capacity());
            assertEquals(1, single.capacity());
            assertEquals(1, single.read().size());
        }
    }

    @Test
    void aDatasetYieldingMoreThanItsBatchSizeFailsClearly() {
        Dataset<Integer> threes = new Dataset<>() {
            private final Dataset<Integer> batches = new BatchDataset<>(ListDataset.of(SAMPLES), 3, false);

            @Override
            public List<Integer> next() {
                return batches.next();
            }

            @Override
            public DatasetState state() {
                return batches.state();
            }

            @Override
            public void restore(DatasetState state) {
                batches.restore(state);
            }
        };
        try (DataReader reader = reader(threes)) {
            DataLoaderException e = assertThrows(DataLoaderException.class, reader::read);
            String message = e.getCause().getMessage();
            assertTrue(message.contains("yielded 3 samples") && message.contains("BatchingDataset"), message);
        }
    }

    @Test
    void settingsAreCheckedWhenGiven() {
        ReaderOptions.Builder builder = ReaderOptions.builder();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder.ringSize(6));
        assertEquals("ringSize must be a power of two (1, 2, 4, 8, ...): ringSize=6", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> builder.ringSize(0));
        assertEquals("parseThreads must be > 0: parseThreads=0",
                assertThrows(IllegalArgumentException.class, () -> builder.parseThreads(0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> builder.checkpointEvery(0));
        assertThrows(IllegalArgumentException.class, () -> builder.watchdog(Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> builder.name(" ").build());
        assertEquals(List.of(), LiveThreads.named(name + "-"));
    }

    /** Yields a sample only once a permit for it has been released. */
    private static class PacedDataset extends CountingDataset {
        private final Semaphore permits;

        PacedDataset(Dataset<Integer> upstream, Semaphore permits) {
            super(upstream, new CountDownLatch(0));
            this.permits = permits;
        }

        @Override
        public List<Integer> next() {
            permits.acquireUninterruptibly();
            return super.next();
        }
    }

    /** Counts the samples pulled through it. */
    private static class CountingDataset implements Dataset<Integer> {
        private final Dataset<Integer> upstream;
        private final CountDownLatch pulled;

        CountingDataset(Dataset<Integer> upstream, CountDownLatch pulled) {
            this.upstream = upstream;
            this.pulled = pulled;
        }

        @Override
        public List<Integer> next() {
            pulled.countDown();
            return upstream.next();
        }

        @Override
        public DatasetState state() {
            return upstream.state();
        }

        @Override
        public void restore(DatasetState state) {
            upstream.restore(state);
        }

        @Override
        public Optional<SampleLocator<Integer>> locator() {
            return upstream.locator();
        }
    }
}
