package org.dataloader4j.core.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.core.dataset.GroupBatchOptions.Overflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link GroupBatchDataset} against a reference written after OneFlow's algorithm. */
class GroupBatchDatasetTest {

    /** A sample: its position in the stream and its group. */
    record Sample(int id, long group) {
    }

    private static final ToLongFunction<Sample> GROUP = Sample::group;

    /** {@code n} samples whose groups are drawn, skewed, from {@code groups} groups. */
    private static List<Sample> stream(int n, int groups, long seed) {
        Random random = new Random(seed);
        List<Sample> samples = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            // The square skews the draw, so some groups fill far more slowly than others.
            double u = random.nextDouble();
            samples.add(new Sample(i, (long) (u * u * groups)));
        }
        return samples;
    }

    private static <T> List<List<T>> drain(Dataset<T> ds) {
        List<List<T>> batches = new ArrayList<>();
        for (List<T> b = ds.next(); !b.isEmpty(); b = ds.next()) {
            batches.add(b);
        }
        assertTrue(ds.next().isEmpty(), "the end stays the end");
        return batches;
    }

    private static GroupBatchOptions options(int batch, int max, boolean drop) {
        return GroupBatchOptions.builder(batch).maxBufferedSamples(max).dropRemainder(drop).build();
    }

    /**
     * OneFlow's {@code GroupBatchDataset::Next} transcribed loop for loop (a map of group to a
     * list of batches, each with the order of its first sample; the earliest found by a scan),
     * plus this project's bound and end flush.
     */
    static <T> List<List<T>> reference(List<T> stream, int batchSize, ToLongFunction<T> groupFn, int max, boolean drop) {
        record Chunk<T>(long order, List<T> data) {
        }
        Map<Long, Deque<Chunk<T>>> groups = new TreeMap<>();
        List<List<T>> out = new ArrayList<>();
        int pos = 0;
        long order = 0;
        int buffered = 0;
        while (true) {
            Long groupId = null;
            Chunk<T> ret = null;
            for (Map.Entry<Long, Deque<Chunk<T>>> e : groups.entrySet()) {
                Chunk<T> front = e.getValue().peekFirst();
                if (front != null && (ret == null || front.order < ret.order)) {
                    ret = front;
                    groupId = e.getKey();
                }
            }
            if (ret != null) {
                groups.get(groupId).removeFirst();
            } else {
                ret = new Chunk<>(-1, new ArrayList<>());
            }
            boolean ended = false;
            while (ret.data.size() < batchSize) {
                if (!ret.data.isEmpty() && buffered >= max) {
                    break;
                }
                if (pos == stream.size()) {
                    ended = true;
                    break;
                }
                T sample = stream.get(pos++);
                buffered++;
                long g = groupFn.applyAsLong(sample);
                if (groupId == null) {
                    groupId = g;
                }
                if (g == groupId) {
                    ret.data.add(sample);
                } else {
                    Deque<Chunk<T>> list = groups.computeIfAbsent(g, k -> new ArrayDeque<>());
                    if (list.isEmpty() || list.peekLast().data.size() == batchSize) {
                        List<T> data = new ArrayList<>();
                        data.add(sample);
                        list.addLast(new Chunk<>(order++, data));
                    } else {
                        list.peekLast().data.add(sample);
                    }
                }
            }
            if (ret.data.isEmpty()) {
                return out;
            }
            buffered -= ret.data.size();
            if (!(ended && drop && ret.data.size() < batchSize)) {
                out.add(ret.data);
            }
        }
    }

    @ParameterizedTest(name = "batch={0} groups={1} max={2} drop={3} seed={4}")
    @CsvSource({
        "1,3,1,false,1", "4,1,4,false,2", "4,5,1000000,false,3", "4,5,1000000,true,3",
        "7,6,7,false,4", "7,6,20,false,5", "7,6,20,true,5", "16,8,64,false,6", "13,40,100,true,7", "2,2,3,false,8"})
    void matchesTheReferenceAndEverySampleComesOutOnce(int batch, int groups, int max, boolean drop, long seed) {
        List<Sample> samples = stream(997, groups, seed);
        List<List<Sample>> out = drain(new GroupBatchDataset<>(ListDataset.of(samples), GROUP, options(batch, max, drop)));

        assertEquals(reference(samples, batch, GROUP, max, drop), out, "seed=" + seed);
        for (List<Sample> b : out) {
            assertTrue(b.size() >= 1 && b.size() <= batch, "seed=" + seed);
            assertEquals(1, b.stream().mapToLong(Sample::group).distinct().count(), "one group per batch, seed=" + seed);
        }
        List<Integer> ids = out.stream().flatMap(List::stream).map(Sample::id).sorted().toList();
        assertEquals(ids.stream().distinct().count(), ids.size(), "no sample twice, seed=" + seed);
        if (!drop) {
            assertEquals(IntStream.range(0, samples.size()).boxed().toList(), ids, "every sample, seed=" + seed);
        }
        if (max >= samples.size()) {
            // Unbounded: only the end can leave a batch partial, at most one per group.
            long partial = out.stream().filter(b -> b.size() < batch).count();
            assertTrue(partial <= groups, "seed=" + seed);
        }
    }

    @Test
    void batchesComeOutInTheOrderTheyStartedNotTheOrderTheyFilled() {
        // A starts first; B fills first; A is still emitted first (OneFlow's earliest order).
        List<Sample> samples = List.of(new Sample(0, 'A'), new Sample(1, 'B'), new Sample(2, 'B'),
                new Sample(3, 'B'), new Sample(4, 'B'), new Sample(5, 'A'), new Sample(6, 'C'), new Sample(7, 'C'));
        List<List<Sample>> out = drain(GroupBatchDataset.of(ListDataset.of(samples), 2, GROUP));

        assertEquals(List.of(List.of(samples.get(0), samples.get(5)), List.of(samples.get(1), samples.get(2)),
                List.of(samples.get(3), samples.get(4)), List.of(samples.get(6), samples.get(7))), out);
    }

    private static final List<Sample> CROWDED = List.of(new Sample(0, 'A'), new Sample(1, 'B'), new Sample(2, 'B'),
            new Sample(3, 'C'), new Sample(4, 'B'), new Sample(5, 'A'), new Sample(6, 'A'), new Sample(7, 'C'));

    @Test
    void theBoundCutsTheOldestBatchShort() {
        GroupBatchDataset<Sample> ds = new GroupBatchDataset<>(ListDataset.of(CROWDED), GROUP, options(3, 4, false));

        assertEquals(List.of(CROWDED.get(0)), ds.next(), "A cut short when 4 samples are buffered");
        assertEquals(3, ds.bufferedSamples());
        assertEquals(List.of(CROWDED.get(1), CROWDED.get(2), CROWDED.get(4)), ds.next());
        assertEquals(List.of(List.of(CROWDED.get(3), CROWDED.get(7)), List.of(CROWDED.get(5), CROWDED.get(6))), drain(ds));
    }

    @Test
    void theBoundFailsWhenAskedTo() {
        GroupBatchOptions fail = GroupBatchOptions.builder(3).maxBufferedSamples(4).overflow(Overflow.FAIL).build();
        GroupBatchDataset<Sample> ds = new GroupBatchDataset<>(ListDataset.of(CROWDED), GROUP, fail);

        IllegalStateException e = assertThrows(IllegalStateException.class, ds::next);
        assertTrue(e.getMessage().contains("maxBufferedSamples=4"), e.getMessage());
        assertTrue(e.getMessage().contains("group=" + (long) 'A'), e.getMessage());
        assertTrue(e.getMessage().contains("holds 1 of batchSize=3"), e.getMessage());
    }

    @Test
    void theEndFlushesEveryGroupOldestFirstOrDropsThePartialOnes() {
        List<Sample> samples = List.of(new Sample(0, 'A'), new Sample(1, 'B'), new Sample(2, 'C'), new Sample(3, 'C'),
                new Sample(4, 'B'), new Sample(5, 'C'));
        List<List<Sample>> kept = drain(new GroupBatchDataset<>(ListDataset.of(samples), GROUP, options(3, 100, false)));
        List<List<Sample>> dropped = drain(new GroupBatchDataset<>(ListDataset.of(samples), GROUP, options(3, 100, true)));

        assertEquals(List.of(List.of(samples.get(0)), List.of(samples.get(1), samples.get(4)),
                List.of(samples.get(2), samples.get(3), samples.get(5))), kept);
        assertEquals(List.of(List.of(samples.get(2), samples.get(3), samples.get(5))), dropped);
        assertTrue(drain(GroupBatchDataset.of(ListDataset.of(List.<Sample>of()), 3, GROUP)).isEmpty());
    }

    @Test
    void bucketingByLengthMakesHomogeneousBatchesAndWastesLessPadding() {
        long seed = 20240611;
        Random random = new Random(seed);
        List<Integer> lengths = IntStream.range(0, 4000).mapToObj(i -> 1 + random.nextInt(64)).toList();
        int batch = 32;
        ToLongFunction<Integer> bucket = len -> len / 8;

        List<List<Integer>> grouped = drain(new GroupBatchDataset<>(ListDataset.of(lengths), bucket,
                GroupBatchOptions.builder(batch).maxBufferedSamples(16 * batch).build()));
        List<List<Integer>> plain = drain(new BatchDataset<>(ListDataset.of(lengths), batch, false));

        for (List<Integer> b : grouped) {
            assertEquals(1, b.stream().mapToLong(bucket::applyAsLong).distinct().count(), "seed=" + seed);
        }
        assertEquals(lengths.stream().sorted().toList(), grouped.stream().flatMap(List::stream).sorted().toList());
        long groupedWaste = padding(grouped);
        long plainWaste = padding(plain);
        assertTrue(groupedWaste * 5 < plainWaste, "padding " + groupedWaste + " vs " + plainWaste + ", seed=" + seed);
    }

    /** The padding a batch of sequences needs to be rectangular: Σ (longest − length). */
    private static long padding(List<List<Integer>> batches) {
        long waste = 0;
        for (List<Integer> b : batches) {
            int longest = b.stream().mapToInt(Integer::intValue).max().orElse(0);
            waste += b.stream().mapToLong(len -> longest - len).sum();
        }
        return waste;
    }

    private static Dataset<Sample> grouped(List<Sample> samples, long epochs, int batch, int max, boolean drop, int shuffle) {
        Dataset<Sample> source = new ListDataset<>(samples, epochs);
        if (shuffle > 0) {
            source = new RandomShuffleDataset<>(source, shuffle, 77);
        }
        return new GroupBatchDataset<>(source, GROUP, options(batch, max, drop));
    }

    @ParameterizedTest(name = "batch={0} groups={1} max={2} drop={3} epochs={4} shuffle={5}")
    @CsvSource({"3,4,1000,false,1,0", "3,4,1000,true,1,0", "5,6,8,false,2,0", "4,3,5,true,2,0", "1,2,1,false,1,0",
        "4,5,12,false,2,16", "3,4,1000,true,1,7"})
    void resumingAtEveryStepGivesTheUninterruptedRun(int batch, int groups, int max, boolean drop, long epochs, int shuffle) {
        long seed = 31L * batch + groups;
        List<Sample> samples = stream(61, groups, seed);
        List<List<Sample>> whole = drain(grouped(samples, epochs, batch, max, drop, shuffle));

        for (int k = 0; k <= whole.size(); k++) {
            Dataset<Sample> first = grouped(samples, epochs, batch, max, drop, shuffle);
            for (int i = 0; i < k; i++) {
                first.next();
            }
            DatasetState state = DatasetStateCodec.fromText(DatasetStateCodec.toText(first.state()));
            Dataset<Sample> resumed = grouped(samples, epochs, batch, max, drop, shuffle);
            resumed.restore(state);

            assertEquals(first.epoch(), resumed.epoch(), "k=" + k);
            assertEquals(whole.subList(k, whole.size()), drain(resumed), "k=" + k + " state=" + state + " seed=" + seed);
        }
    }

    @Test
    void composedWithShuffleEverySampleStillComesOutOnce() {
        long seed = 5;
        List<Sample> samples = stream(1000, 7, seed);
        List<List<Sample>> out = drain(new GroupBatchDataset<>(new RandomShuffleDataset<>(ListDataset.of(samples), 64, seed),
                GROUP, options(8, 64, false)));

        assertEquals(samples, out.stream().flatMap(List::stream).sorted((a, b) -> Integer.compare(a.id, b.id)).toList());
        for (List<Sample> b : out) {
            assertEquals(1, b.stream().mapToLong(Sample::group).distinct().count(), "seed=" + seed);
        }
        assertTrue(out.stream().filter(b -> b.size() == 8).count() > out.size() / 2, "seed=" + seed);
    }

    @Test
    void restoreRejectsAnotherStackAndTheUpstreamMustYieldOneSample() {
        Dataset<Sample> ds = GroupBatchDataset.of(ListDataset.of(CROWDED), 2, GROUP);
        assertThrows(IllegalArgumentException.class, () -> ds.restore(ListDataset.of(CROWDED).state()));

        Dataset<Integer> ofBatches = GroupBatchDataset.of(new BatchDataset<>(ListDataset.of(List.of(1, 2, 3, 4)), 2, false),
                2, x -> 0);
        assertThrows(IllegalStateException.class, ofBatches::next);
    }

    @Test
    void optionsAreCheckedEagerly() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GroupBatchOptions.builder(0));
        assertEquals("batchSize must be > 0: batchSize=0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GroupBatchOptions.builder(8).maxBufferedSamples(7));
        assertEquals("maxBufferedSamples must be >= batchSize: maxBufferedSamples=7, batchSize=8", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new GroupBatchOptions(4, 3, Overflow.EMIT_PARTIAL, false));
        assertThrows(NullPointerException.class, () -> GroupBatchOptions.builder(4).overflow(null));

        GroupBatchOptions defaults = GroupBatchOptions.of(8);
        assertEquals(new GroupBatchOptions(8, 8 * GroupBatchOptions.DEFAULT_BUFFERED_BATCHES, Overflow.EMIT_PARTIAL, false),
                defaults);
        assertEquals(Integer.MAX_VALUE, GroupBatchOptions.of(Integer.MAX_VALUE / 2).maxBufferedSamples());
    }
}
