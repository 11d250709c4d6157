package org.dataloader4j.core.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.api.SampleLocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Shuffle and batch decorators composed over an in-memory dataset, without any reader. */
class DecoratorCompositionTest {
    private static final List<Integer> SAMPLES = IntStream.range(0, 1000).boxed().toList();

    private static Dataset<Integer> shuffledBatches(long epochs, int buffer, long seed, int batch, boolean drop) {
        return new BatchDataset<>(new RandomShuffleDataset<>(new ListDataset<>(SAMPLES, epochs), buffer, seed), batch, drop);
    }

    private static List<List<Integer>> drain(Dataset<Integer> ds) {
        List<List<Integer>> batches = new ArrayList<>();
        for (List<Integer> b = ds.next(); !b.isEmpty(); b = ds.next()) {
            batches.add(b);
        }
        assertTrue(ds.next().isEmpty(), "the end stays the end");
        return batches;
    }

    private static List<Integer> flat(List<List<Integer>> batches) {
        return batches.stream().flatMap(List::stream).toList();
    }

    @ParameterizedTest(name = "buffer={0} seed={1}")
    @CsvSource({"1,1", "64,7", "1000,3", "5000,11"})
    void everySampleExactlyOnceAndTheOrderChanges(int buffer, long seed) {
        List<Integer> out = flat(drain(shuffledBatches(1, buffer, seed, 32, false)));

        assertEquals(SAMPLES, out.stream().sorted().toList(), "seed=" + seed);
        if (buffer > 1) {
            assertNotEquals(SAMPLES, out, "seed=" + seed);
        }
    }

    @Test
    void theSameSeedGivesTheSameOrderAndAnotherSeedAnother() {
        List<Integer> a = flat(drain(shuffledBatches(1, 100, 42, 10, false)));
        List<Integer> b = flat(drain(shuffledBatches(1, 100, 42, 10, false)));
        List<Integer> c = flat(drain(shuffledBatches(1, 100, 43, 10, false)));

        assertEquals(a, b);
        assertNotEquals(a, c);
    }

    @Test
    void samplesOfEveryEpochComeOutOverSeveralEpochs() {
        List<Integer> out = flat(drain(shuffledBatches(3, 50, 5, 7, false)));

        assertEquals(3 * SAMPLES.size(), out.size());
        for (int v : new int[] {0, 499, 999}) {
            assertEquals(3, out.stream().filter(x -> x == v).count(), "sample " + v);
        }
    }

    @ParameterizedTest(name = "batch={0} drop={1}")
    @CsvSource({"7,false", "7,true", "1,false", "1000,true", "1000,false", "999,false", "999,true", "1001,true", "1001,false"})
    void thePartialLastBatchIsDroppedOrDelivered(int batch, boolean drop) {
        List<List<Integer>> batches = drain(new BatchDataset<>(ListDataset.of(SAMPLES), batch, drop));

        int full = SAMPLES.size() / batch;
        int rest = SAMPLES.size() % batch;
        assertEquals(full + (rest > 0 && !drop ? 1 : 0), batches.size());
        for (int i = 0; i < full; i++) {
            assertEquals(batch, batches.get(i).size());
        }
        if (rest > 0 && !drop) {
            assertEquals(rest, batches.get(batches.size() - 1).size());
        }
        assertEquals(SAMPLES.subList(0, drop ? full * batch : SAMPLES.size()), flat(batches));
    }

    @ParameterizedTest(name = "after {0} batches")
    @CsvSource({"0", "1", "5", "31", "62", "63", "70"})
    void stateAndRestoreContinueExactly(int taken) {
        Dataset<Integer> first = shuffledBatches(2, 100, 9, 32, false);
        for (int i = 0; i < taken; i++) {
            first.next();
        }
        DatasetState state = DatasetStateCodec.fromText(DatasetStateCodec.toText(first.state()));
        List<List<Integer>> rest = drain(first);

        Dataset<Integer> resumed = shuffledBatches(2, 100, 1234, 32, false);
        resumed.restore(state);

        assertEquals(rest, drain(resumed), "state " + state);
    }

    @Test
    void nextIntoYieldsWhatNextYields() {
        // A shuffle over a reader-like dataset (one sample a step) and over one that only
        // implements next() and yields three samples a step, over two epochs.
        for (int perStep : new int[] {1, 3}) {
            Supplier<Dataset<Integer>> stack = () -> new RandomShuffleDataset<>(
                    perStep == 1 ? new ListDataset<>(SAMPLES, 2) : new BatchDataset<>(new ListDataset<>(SAMPLES, 2), 3, false), 50, 9);
            List<List<Integer>> viaNext = new ArrayList<>();
            Dataset<Integer> a = stack.get();
            for (List<Integer> step = a.next(); !step.isEmpty(); step = a.next()) {
                viaNext.add(step);
            }
            List<List<Integer>> viaInto = new ArrayList<>();
            Dataset<Integer> b = stack.get();
            while (true) {
                List<Integer> step = new ArrayList<>(List.of(-1));
                int n = b.nextInto(step);
                assertEquals(n + 1, step.size(), "nextInto appends, and returns how many");
                if (n == 0) {
                    break;
                }
                viaInto.add(step.subList(1, step.size()));
            }
            assertEquals(viaNext, viaInto, perStep + " per step");
            assertEquals(2 * SAMPLES.size(), flat(viaInto).size());
            assertEquals(a.state(), b.state(), "the same state at the end");
        }
    }

    @Test
    void aBatchAddedIntoAListLeavesWhatTheListHeld() {
        // 1,000 samples in batches of 300: three full batches, then 100 dropped or delivered.
        for (boolean drop : new boolean[] {true, false}) {
            Dataset<Integer> batches = new BatchDataset<>(ListDataset.of(SAMPLES), 300, drop);
            List<Integer> out = new ArrayList<>(List.of(-1));
            List<Integer> counts = new ArrayList<>();
            for (int n = batches.nextInto(out); n > 0; n = batches.nextInto(out)) {
                counts.add(n);
            }
            assertEquals(drop ? List.of(300, 300, 300) : List.of(300, 300, 300, 100), counts, "drop=" + drop);
            assertEquals(-1, out.get(0), "drop=" + drop);
            assertEquals(SAMPLES.subList(0, drop ? 900 : 1000), out.subList(1, out.size()), "drop=" + drop);
            assertEquals(0, batches.nextInto(out), "the end stays the end");
        }
    }

    @Test
    void batchingNeedsOneSamplePerUpstreamStep() {
        Dataset<Integer> batchOfBatches = new BatchDataset<>(new BatchDataset<>(ListDataset.of(SAMPLES), 4, false), 2, false);
        assertThrows(IllegalStateException.class, batchOfBatches::next);
    }

    /** A list that takes its samples back, as a compressed file's dataset does. */
    private static final class Recycling implements Dataset<Integer>, SampleRecycler<Integer> {
        private final Dataset<Integer> list = ListDataset.of(SAMPLES);
        final List<List<? extends Integer>> handedBack = new ArrayList<>();

        @Override
        public List<Integer> next() {
            return list.next();
        }

        @Override
        public DatasetState state() {
            return list.state();
        }

        @Override
        public void restore(DatasetState state) {
            list.restore(state);
        }

        @Override
        public Optional<SampleLocator<Integer>> locator() {
            return list.locator();
        }

        @Override
        public void recycle(List<? extends Integer> samples) {
            handedBack.add(samples);
        }
    }

    @Test
    void theDatasetThatMadeTheSamplesIsFoundUnderTheForwardingDecorators() {
        Recycling source = new Recycling();
        Dataset<Integer> stack = new GroupBatchDataset<>(new BatchDataset<>(new RandomShuffleDataset<>(source, 16, 1), 1, false),
                s -> s % 3, GroupBatchOptions.of(8));
        List<Integer> batch = stack.next();

        assertSame(source, ForwardingDataset.source(stack));
        ForwardingDataset.recycler(stack).orElseThrow().recycle(batch);
        assertEquals(List.of(batch), source.handedBack);
        assertTrue(ForwardingDataset.find(stack, RandomShuffleDataset.class).isPresent());
        assertTrue(ForwardingDataset.find(stack, SkipCorruptDataset.class).isEmpty());
        assertTrue(ForwardingDataset.recycler(new BatchDataset<>(ListDataset.of(SAMPLES), 2, false)).isEmpty(),
                "a list does not take its samples back");
    }

    @Test
    void aBufferingDecoratorNeedsALocatorUnderIt() {
        Dataset<Integer> unlocatable = new Dataset<>() {
            @Override
            public List<Integer> next() {
                return List.of();
            }

            @Override
            public DatasetState state() {
                return DatasetState.of("none", null);
            }

            @Override
            public void restore(DatasetState state) {
            }
        };
        IllegalArgumentException shuffle = assertThrows(IllegalArgumentException.class,
                () -> new RandomShuffleDataset<>(unlocatable, 4, 1));
        assertTrue(shuffle.getMessage().contains("RandomShuffleDataset") && shuffle.getMessage().contains("SampleLocator"),
                shuffle.getMessage());
        IllegalArgumentException group = assertThrows(IllegalArgumentException.class,
                () -> GroupBatchDataset.of(unlocatable, 4, s -> 0));
        assertTrue(group.getMessage().contains("GroupBatchDataset"), group.getMessage());
    }

    @Test
    void restoreRejectsAnotherStack() {
        Dataset<Integer> ds = shuffledBatches(1, 10, 1, 4, false);
        DatasetState listState = ListDataset.of(SAMPLES).state();
        assertThrows(IllegalArgumentException.class, () -> ds.restore(listState));
    }

    @Test
    void argumentsAreCheckedEagerly() {
        Dataset<Integer> list = ListDataset.of(SAMPLES);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new BatchDataset<>(list, 0, false));
        assertEquals("batchSize must be > 0: batchSize=0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RandomShuffleDataset<>(list, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ListDataset<>(SAMPLES, 0));
    }
}
