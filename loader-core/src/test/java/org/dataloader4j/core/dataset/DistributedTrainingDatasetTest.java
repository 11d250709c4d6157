package org.dataloader4j.core.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Mode;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Remainder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Rank shares of a {@link DistributedTrainingDataset} over many sizes, world sizes, modes and remainders. */
class DistributedTrainingDatasetTest {
    private static final Map<String, String> NO_ENV = Map.of();
    private static final long SEED = 20261121L;

    private static DistributedTrainingOptions.Builder options(int rank, int worldSize) {
        return DistributedTrainingOptions.builder().rank(rank).worldSize(worldSize).environment(NO_ENV);
    }

    private static DistributedTrainingDataset<Integer> dataset(int n, DistributedTrainingOptions options) {
        return new DistributedTrainingDataset<>(ListDataset.of(IntStream.range(0, n).boxed().toList()), options);
    }

    private static DistributedTrainingDataset<Integer> dataset(int n, int rank, int s, Mode mode, boolean shuffle,
                                                               Remainder remainder, long epochs) {
        return dataset(n, options(rank, s).mode(mode).shuffle(shuffle).seed(SEED).remainder(remainder).epochs(epochs).build());
    }

    private static <E> List<E> drain(Dataset<E> ds) {
        List<E> out = new ArrayList<>();
        for (List<E> next = ds.next(); !next.isEmpty(); next = ds.next()) {
            assertEquals(1, next.size());
            out.add(next.get(0));
        }
        assertTrue(ds.next().isEmpty(), "the end stays the end");
        return out;
    }

    static Stream<Arguments> combinations() {
        List<Arguments> out = new ArrayList<>();
        for (int n : new int[] {1, 2, 3, 5, 7, 10, 13, 31, 64, 97}) {
            for (int s : new int[] {1, 2, 3, 4, 7, 8, 11}) {
                for (Mode mode : Mode.values()) {
                    for (boolean shuffle : new boolean[] {false, true}) {
                        for (Remainder remainder : Remainder.values()) {
                            out.add(Arguments.of(n, s, mode, shuffle, remainder));
                        }
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "N={0} S={1} {2} shuffle={3} {4}")
    @MethodSource("combinations")
    void everyEpochSplitsTheGlobalOrderWithEqualCounts(int n, int s, Mode mode, boolean shuffle, Remainder remainder) {
        if (remainder == Remainder.DROP && n < s) {
            var e = assertThrows(IllegalArgumentException.class, () -> dataset(n, 0, s, mode, shuffle, remainder, 1));
            assertTrue(e.getMessage().contains("size=" + n + " worldSize=" + s), e.getMessage());
            return;
        }
        int epochs = 3;
        long m = remainder == Remainder.DROP ? n / s : (n + s - 1) / s;
        List<List<Sharded<Integer>>> shares = new ArrayList<>();
        for (int r = 0; r < s; r++) {
            DistributedTrainingDataset<Integer> ds = dataset(n, r, s, mode, shuffle, remainder, epochs);
            assertEquals(m, ds.size());
            List<Sharded<Integer>> share = drain(ds);
            assertEquals(m * epochs, share.size(), "equal steps on rank " + r + ", seed=" + SEED);
            shares.add(share);
        }
        for (int e = 0; e < epochs; e++) {
            int[] counts = new int[n];
            int padding = 0;
            for (List<Sharded<Integer>> share : shares) {
                for (Sharded<Integer> x : share.subList((int) (e * m), (int) ((e + 1) * m))) {
                    if (x.padding()) {
                        padding++;
                    } else {
                        counts[x.sample()]++;
                    }
                }
            }
            String where = "epoch " + e + ", seed=" + SEED;
            switch (remainder) {
                case DROP -> {
                    assertEquals(m * s, IntStream.of(counts).sum(), where);
                    assertTrue(IntStream.of(counts).allMatch(c -> c <= 1), "no duplicates, " + where);
                    assertEquals(0, padding, where);
                }
                case PAD_WITH_MASK -> {
                    assertTrue(IntStream.of(counts).allMatch(c -> c == 1), "every sample once, " + where);
                    assertEquals(m * s - n, padding, where);
                }
                case WRAP -> {
                    assertTrue(IntStream.of(counts).allMatch(c -> c >= 1), "every sample at least once, " + where);
                    assertEquals(m * s, IntStream.of(counts).sum(), where);
                    assertEquals(0, padding, where);
                }
            }
        }
    }

    @Test
    void withoutShuffleTheSharesFollowOneFlowsPictures() {
        // 10 samples, 4 ranks: the first epoch of OneFlow's comment, padded by wrapping.
        List<List<Integer>> stride = new ArrayList<>();
        List<List<Integer>> contiguous = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            stride.add(drain(dataset(10, r, 4, Mode.STRIDE, false, Remainder.WRAP, 1).unwrapped()));
            contiguous.add(drain(dataset(10, r, 4, Mode.CONTIGUOUS, false, Remainder.WRAP, 1).unwrapped()));
        }
        assertEquals(List.of(List.of(0, 4, 8), List.of(1, 5, 9), List.of(2, 6, 0), List.of(3, 7, 1)), stride);
        assertEquals(List.of(List.of(0, 1, 2), List.of(3, 4, 5), List.of(6, 7, 8), List.of(9, 0, 1)), contiguous);
    }

    @Test
    void contiguousWorksWhereOneFlowRunsOffTheEnd() {
        // N=5, S=4: OneFlow's shard size 2 puts rank 3 at position 6 > 5; here rank 3 wraps.
        assertEquals(List.of(1, 2), drain(dataset(5, 3, 4, Mode.CONTIGUOUS, false, Remainder.WRAP, 1).unwrapped()));
        List<Sharded<Integer>> padded = drain(dataset(5, 3, 4, Mode.CONTIGUOUS, false, Remainder.PAD_WITH_MASK, 1));
        assertEquals(List.of(new Sharded<>(1, 1, true), new Sharded<>(2, 2, true)), padded);
        assertEquals(List.of(0), drain(dataset(1, 6, 7, Mode.CONTIGUOUS, false, Remainder.WRAP, 1).unwrapped()));
    }

    private static List<Integer> globalOrder(int n, int s, long seed, long epoch) {
        List<List<Integer>> shares = new ArrayList<>();
        for (int r = 0; r < s; r++) {
            DistributedTrainingDataset<Integer> ds = dataset(n, options(r, s).shuffle(true).seed(seed)
                    .remainder(Remainder.DROP).epochs(epoch + 1).build());
            List<Integer> all = drain(ds.unwrapped());
            shares.add(all.subList((int) (epoch * ds.size()), all.size()));
        }
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < shares.get(0).size(); k++) {
            for (List<Integer> share : shares) {
                order.add(share.get(k));
            }
        }
        return order;
    }

    @Test
    void theSameSeedGivesTheSameOrderAndEachEpochAnother() {
        List<Integer> e0 = globalOrder(120, 4, 7, 0);
        assertEquals(e0, globalOrder(120, 4, 7, 0));
        assertEquals(IntStream.range(0, 120).boxed().toList(), e0.stream().sorted().toList());
        assertNotEquals(IntStream.range(0, 120).boxed().toList(), e0);
        List<Integer> e1 = globalOrder(120, 4, 7, 1);
        assertNotEquals(e0, e1);
        assertEquals(IntStream.range(0, 120).boxed().toList(), e1.stream().sorted().toList());
        assertNotEquals(e0, globalOrder(120, 4, 8, 0));
        // the global order is the permutation of seed + epoch, whatever the world size
        assertEquals(e1, globalOrder(120, 3, 7, 1));
        assertEquals(e1, globalOrder(120, 1, 8, 0));
    }

    static Stream<Arguments> resumeCases() {
        List<Arguments> out = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            for (Remainder remainder : Remainder.values()) {
                out.add(Arguments.of(7, 3, mode, remainder));
                out.add(Arguments.of(2, 3, mode, remainder == Remainder.DROP ? Remainder.PAD_WITH_MASK : remainder));
                out.add(Arguments.of(12, 4, mode, remainder));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "N={0} S={1} {2} {3}")
    @MethodSource("resumeCases")
    void resumingAtEveryStepGivesTheUninterruptedRun(int n, int s, Mode mode, Remainder remainder) {
        for (int r = 0; r < s; r++) {
            List<Sharded<Integer>> full = drain(dataset(n, r, s, mode, true, remainder, 3));
            for (int k = 0; k <= full.size(); k++) {
                DistributedTrainingDataset<Integer> first = dataset(n, r, s, mode, true, remainder, 3);
                for (int i = 0; i < k; i++) {
                    first.next();
                }
                String saved = DatasetStateCodec.toText(first.state());
                DistributedTrainingDataset<Integer> resumed = dataset(n, r, s, mode, true, remainder, 3);
                resumed.restore(DatasetStateCodec.fromText(saved));
                assertEquals(full.subList(k, full.size()), drain(resumed), "rank " + r + " k=" + k + " " + saved);
                // a rank's state is its own: a buffer above it holds that rank's samples
                if (s > 1) {
                    DistributedTrainingDataset<Integer> other = dataset(n, (r + 1) % s, s, mode, true, remainder, 3);
                    assertThrows(IllegalArgumentException.class, () -> other.restore(DatasetStateCodec.fromText(saved)));
                }
            }
        }
    }

    @Test
    void aDrawnSeedIsCarriedInTheState() {
        DistributedTrainingOptions random = options(0, 1).shuffle(true).epochs(2).build();
        DistributedTrainingDataset<Integer> a = dataset(50, random);
        DistributedTrainingDataset<Integer> b = dataset(50, random);
        for (int i = 0; i < 60; i++) {
            a.next();
        }
        assertEquals(a.seed(), a.state().field("seed"));
        List<Sharded<Integer>> rest = drain(a);
        b.restore(DatasetStateCodec.fromText(DatasetStateCodec.toText(dataset(50, random).state().with("seed", a.seed())
                .with("epoch", 1).with("position", 10))));
        assertEquals(a.seed(), b.seed());
        assertEquals(rest, drain(b));
    }

    @Test
    void aRandomSeedOverSeveralRanksIsRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> options(0, 2).shuffle(true).build());
        assertTrue(e.getMessage().contains("seed=-1"), e.getMessage());
        options(0, 2).build(); // without shuffle the seed is unused
    }

    @Test
    void anotherWorldSizeOrSizeOrSeedIsRefusedOnResume() {
        DatasetState state = dataset(10, 0, 2, Mode.STRIDE, true, Remainder.WRAP, 1).state();
        var e = assertThrows(IllegalArgumentException.class,
                () -> dataset(10, 0, 3, Mode.STRIDE, true, Remainder.WRAP, 1).restore(state));
        assertTrue(e.getMessage().contains("worldSize=2") && e.getMessage().contains("worldSize=3"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> dataset(10, 1, 2, Mode.STRIDE, true, Remainder.WRAP, 1).restore(state));
        assertTrue(e.getMessage().contains("rank=0") && e.getMessage().contains("rank=1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> dataset(11, 0, 2, Mode.STRIDE, true, Remainder.WRAP, 1).restore(state));
        assertTrue(e.getMessage().contains("size=10") && e.getMessage().contains("size=11"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> dataset(10, options(0, 2).shuffle(true).seed(1).build()).restore(state));
        assertTrue(e.getMessage().contains("seed=" + SEED), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> dataset(10, 0, 2, Mode.STRIDE, true, Remainder.WRAP, 1).restore(state.with("epoch", 1)));
        assertThrows(IllegalArgumentException.class,
                () -> dataset(10, 0, 2, Mode.STRIDE, true, Remainder.WRAP, 1).restore(state.with("position", 6)));
        assertThrows(IllegalArgumentException.class,
                () -> dataset(10, 0, 2, Mode.STRIDE, true, Remainder.WRAP, 1).restore(DatasetState.of("list", null)));
    }

    @Test
    void rankAndWorldSizeDefaultFromTheEnvironment() {
        DistributedTrainingOptions o = DistributedTrainingOptions.builder()
                .environment(Map.of("RANK", "3", "WORLD_SIZE", " 8 ")).build();
        assertEquals(3, o.rank());
        assertEquals(8, o.worldSize());
        o = DistributedTrainingOptions.builder().rank(1).environment(Map.of("RANK", "3", "WORLD_SIZE", "8")).build();
        assertEquals(1, o.rank());
        assertEquals(8, o.worldSize());
        o = DistributedTrainingOptions.builder().rank(0).worldSize(2).environment(Map.of("RANK", "x")).build();
        assertEquals(2, o.worldSize());
    }

    @Test
    void aMissingOrMalformedEnvironmentIsAClearError() {
        Map<String, String> env = new HashMap<>();
        var e = assertThrows(IllegalArgumentException.class, () -> DistributedTrainingOptions.builder().environment(env).build());
        assertTrue(e.getMessage().contains("WORLD_SIZE is not set"), e.getMessage());
        env.put("WORLD_SIZE", "4");
        e = assertThrows(IllegalArgumentException.class, () -> DistributedTrainingOptions.builder().environment(env).build());
        assertTrue(e.getMessage().contains("RANK is not set"), e.getMessage());
        env.put("RANK", "two");
        e = assertThrows(IllegalArgumentException.class, () -> DistributedTrainingOptions.builder().environment(env).build());
        assertTrue(e.getMessage().contains("RANK=two"), e.getMessage());
        env.put("RANK", "4");
        e = assertThrows(IllegalArgumentException.class, () -> DistributedTrainingOptions.builder().environment(env).build());
        assertTrue(e.getMessage().contains("rank=4 worldSize=4"), e.getMessage());
        env.put("WORLD_SIZE", "0");
        e = assertThrows(IllegalArgumentException.class, () -> DistributedTrainingOptions.builder().environment(env).build());
        assertTrue(e.getMessage().contains("WORLD_SIZE=0"), e.getMessage());
    }

    @Test
    void argumentsAreCheckedEagerly() {
        var b = DistributedTrainingOptions.builder();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.rank(-1)).getMessage().contains("rank=-1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.worldSize(0)).getMessage().contains("worldSize=0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.seed(-2)).getMessage().contains("seed=-2"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.epochs(0)).getMessage().contains("epochs=0"));
        assertThrows(NullPointerException.class, () -> b.mode(null));
        assertThrows(NullPointerException.class, () -> b.remainder(null));
        var e = assertThrows(IllegalArgumentException.class, () -> dataset(0, options(0, 1).build()));
        assertTrue(e.getMessage().contains("size=0"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Remainder.class)
    void batchesComeOutInEqualNumbersOnEveryRank(Remainder remainder) {
        int s = 4;
        List<Integer> counts = new ArrayList<>();
        for (int r = 0; r < s; r++) {
            var ds = new BatchDataset<>(dataset(103, r, s, Mode.STRIDE, true, remainder, 2), 8, false);
            counts.add(drain(new Batches<>(ds)).size());
        }
        long m = remainder == Remainder.DROP ? 103 / s : (103 + s - 1) / s;
        long perEpoch = (2 * m + 7) / 8;
        assertEquals(List.of(perEpoch, perEpoch, perEpoch, perEpoch), counts.stream().map(Integer::longValue).toList());
    }

    @Test
    void foreverKeepsGoingAndUnwrappedRefusesPadding() {
        var ds = dataset(3, options(1, 2).epochs(Dataset.FOREVER).shuffle(true).seed(1).build());
        for (int i = 0; i < 20; i++) {
            assertFalse(ds.next().isEmpty());
        }
        assertEquals(9, ds.epoch());
        var padded = dataset(3, options(1, 2).remainder(Remainder.PAD_WITH_MASK).build());
        assertThrows(IllegalStateException.class, padded::unwrapped);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void theWrappedDatasetIsToldWhichSamplesComeBeforeTheyAreAsked(Mode mode) {
        for (int resumeAt : new int[] {0, 300}) {
            Hinted hinted = new Hinted(1000);
            var ds = new DistributedTrainingDataset<>(hinted, options(1, 3).mode(mode).shuffle(true).seed(SEED)
                    .remainder(Remainder.WRAP).epochs(2).build());
            if (resumeAt > 0) {
                var first = dataset(1000, options(1, 3).mode(mode).shuffle(true).seed(SEED).remainder(Remainder.WRAP)
                        .epochs(2).build());
                for (int i = 0; i < resumeAt; i++) {
                    first.next();
                }
                ds.restore(first.state());
            }
            List<Sharded<Integer>> read = drain(ds);
            assertEquals(2 * 334 - resumeAt, read.size());
            // Every sample was named before it was asked for, in the order asked, and never more
            // than two chunks ahead.
            assertEquals(hinted.asked, hinted.named.subList(0, hinted.asked.size()));
            assertEquals(hinted.named.size(), hinted.asked.size(), "nothing named that was not asked for");
            assertTrue(hinted.mostAhead <= 2 * DistributedTrainingDataset.PREFETCH, "ahead by " + hinted.mostAhead);
            assertTrue(hinted.mostAhead > DistributedTrainingDataset.PREFETCH, "a chunk is named before the last is read");
        }
    }

    /** Integers 0 to n - 1 that record which indices they were told would come and which were asked for. */
    private static final class Hinted extends SampleAtATimeDataset<Integer> implements org.dataloader4j.api.RandomAccessDataset<Integer> {
        final int n;
        final List<Long> named = new ArrayList<>();
        final List<Long> asked = new ArrayList<>();
        int mostAhead;

        Hinted(int n) {
            this.n = n;
        }

        @Override
        public Integer at(long index) {
            asked.add(index);
            return (int) index;
        }

        @Override
        public long size() {
            return n;
        }

        @Override
        public void prefetch(long[] indices, int count) {
            for (int i = 0; i < count; i++) {
                named.add(indices[i]);
            }
            mostAhead = Math.max(mostAhead, named.size() - asked.size());
        }

        @Override
        protected Integer nextSample() {
            throw new UnsupportedOperationException("read by index only");
        }

        @Override
        public DatasetState state() {
            return DatasetState.of("hinted", null);
        }

        @Override
        public void restore(DatasetState state) {
        }
    }

    /** Each batch as one element, so {@link #drain} counts batches. */
    private record Batches<E>(Dataset<E> batches) implements Dataset<List<E>> {
        @Override
        public List<List<E>> next() {
            List<E> b = batches.next();
            return b.isEmpty() ? List.of() : List.of(b);
        }

        @Override
        public DatasetState state() {
            return batches.state();
        }

        @Override
        public void restore(DatasetState state) {
            batches.restore(state);
        }
    }
}
