package org.dataloader4j.core.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.DistributedTrainingDataset;
import org.dataloader4j.core.dataset.DistributedTrainingOptions;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Remainder;
import org.dataloader4j.core.dataset.GroupBatchDataset;
import org.dataloader4j.core.dataset.ListDataset;
import org.dataloader4j.core.dataset.RandomShuffleDataset;
import org.dataloader4j.core.dataset.SkipCorruptDataset;
import org.dataloader4j.core.dataset.SkipPolicy;
import org.dataloader4j.core.dataset.ValidMaskParser;
import org.dataloader4j.core.testing.ResumeRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where a batch stands in the run, as a training loop reads it: its step ({@link Batch#index()}),
 * which goes on across a resume; the epoch of every row, across an epoch's end with and without a
 * shuffle; and the steps one epoch takes ({@link DataReader#stepsPerEpoch()}), the same on every
 * rank.
 */
@Timeout(30)
class BatchPositionTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final int PER_EPOCH = 10;

    /** Sample {@code 1000 e + i} is the {@code i}-th of epoch {@code e}: its value names its epoch. */
    private static final class EpochTagged implements Dataset<Integer> {
        private final int epochs;
        private int next;

        EpochTagged(int epochs) {
            this.epochs = epochs;
        }

        @Override
        public List<Integer> next() {
            if (next == epochs * PER_EPOCH) {
                return List.of();
            }
            int n = next++;
            return List.of(n / PER_EPOCH * 1000 + n % PER_EPOCH);
        }

        @Override
        public long epoch() {
            return next == 0 ? 0 : (next - 1) / PER_EPOCH;
        }

        @Override
        public DatasetState state() {
            return DatasetState.of("tagged", null).with("next", next);
        }

        @Override
        public void restore(DatasetState state) {
            next = (int) state.expect("tagged").field("next");
        }

        @Override
        public Optional<SampleLocator<Integer>> locator() {
            return Optional.of(SampleLocator.byIndex(v -> v, i -> (int) i));
        }
    }

    private static DataReader reader(Dataset<Integer> dataset, DatasetState state) {
        ReaderOptions.Builder options = ReaderOptions.builder().name("position-" + NAMES.incrementAndGet())
                .ringSize(2).parseThreads(2);
        return DataReader.of(dataset, new IntParser(), (state == null ? options : options.restore(state)).build());
    }

    /** Batches of 7 over 3 epochs of 10, shuffled through a buffer of {@code buffer} (0: none). */
    private static Dataset<Integer> stack(int buffer) {
        Dataset<Integer> samples = new EpochTagged(3);
        if (buffer > 0) {
            samples = new RandomShuffleDataset<>(samples, buffer, 17);
        }
        return new BatchDataset<>(samples, 7, false);
    }

    @ParameterizedTest(name = "shuffle buffer {0}")
    @ValueSource(ints = {0, 4, 16})
    void everyRowKnowsItsEpochAcrossAnEpochsEnd(int buffer) {
        boolean mixed = false;
        long newest = 0;
        try (DataReader reader = reader(stack(buffer), null)) {
            for (Batch b : reader) {
                long[] ids = b.tensor("id").toLongArray();
                Set<Long> epochs = new HashSet<>();
                for (int row = 0; row < b.size(); row++) {
                    assertEquals(ids[row] / 1000, b.epoch(row), "row " + row + " of batch " + b.index());
                    epochs.add(b.epoch(row));
                    newest = Math.max(newest, b.epoch(row));
                }
                assertEquals(newest, b.epoch(), "the newest epoch so far, batch " + b.index());
                mixed |= epochs.size() > 1;
            }
        }
        assertTrue(mixed, "a batch of 7 over epochs of 10 crosses an epoch's end");
    }

    @ParameterizedTest(name = "shuffle buffer {0}")
    @ValueSource(ints = {0, 4, 16})
    void stepsAndRowEpochsGoOnAcrossAResumeAtEveryBatch(int buffer) {
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(state -> reader(stack(buffer), state));
        for (int k = 0; k < run.batches().size(); k++) {
            assertEquals(k, run.batches().get(k).step());
        }
    }

    @ParameterizedTest(name = "batch {0}, dropRemainder {1}")
    @CsvSource({"3, false, 4", "3, true, 3", "5, false, 2", "5, true, 2", "11, false, 1", "11, true, 0"})
    void stepsPerEpochCountsTheBatchesOfOneEpoch(int batch, boolean drop, long steps) {
        List<Integer> ten = List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        try (DataReader reader = reader(new BatchDataset<>(new ListDataset<>(ten, 1), batch, drop), null)) {
            assertEquals(OptionalLong.of(10), reader.samplesPerEpoch());
            assertEquals(OptionalLong.of(steps), reader.stepsPerEpoch());
            assertEquals(steps, count(reader), "batches read in the one epoch");
        }
    }

    @Test
    void stepsPerEpochIsUnknownWhereTheDataDecides() {
        List<Integer> ten = List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        try (DataReader grouped = reader(GroupBatchDataset.of(new ListDataset<>(ten, 1), 3, v -> v % 2), null)) {
            assertEquals(OptionalLong.of(10), grouped.samplesPerEpoch());
            assertEquals(OptionalLong.empty(), grouped.stepsPerEpoch());
        }
        Dataset<Integer> skipping = new SkipCorruptDataset<>(new ListDataset<>(ten, 1), new IntParser(), SkipPolicy.maxRecords(1));
        try (DataReader reader = reader(new BatchDataset<>(skipping, 3, false), null)) {
            assertEquals(OptionalLong.empty(), reader.samplesPerEpoch());
            assertEquals(OptionalLong.empty(), reader.stepsPerEpoch());
        }
        try (DataReader stream = reader(new BatchDataset<>(new EpochTagged(1), 3, false), null)) {
            assertEquals(OptionalLong.empty(), stream.stepsPerEpoch());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Remainder.class)
    void everyRankTakesTheStepsItWasToldOf(Remainder remainder) {
        List<Integer> samples = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            samples.add(i);
        }
        for (int world = 1; world <= 5; world++) {
            for (boolean drop : new boolean[] {false, true}) {
                Set<Long> told = new HashSet<>();
                for (int rank = 0; rank < world; rank++) {
                    DistributedTrainingOptions options = DistributedTrainingOptions.builder().rank(rank).worldSize(world)
                            .remainder(remainder).shuffle(true).seed(3).epochs(1).build();
                    var share = new DistributedTrainingDataset<>(new ListDataset<>(samples, 1), options);
                    try (DataReader reader = remainder == Remainder.PAD_WITH_MASK
                            ? DataReader.of(new BatchDataset<>(share, 2, drop), new ValidMaskParser<>(new IntParser()),
                                    ReaderOptions.builder().name("position-" + NAMES.incrementAndGet()).build())
                            : reader(new BatchDataset<>(share.unwrapped(), 2, drop), null)) {
                        long steps = reader.stepsPerEpoch().orElseThrow();
                        long perRank = remainder == Remainder.DROP ? 23 / world : (23 + world - 1) / world;
                        assertEquals(OptionalLong.of(perRank), reader.samplesPerEpoch());
                        assertEquals(steps, count(reader), "rank " + rank + " of " + world + ", dropRemainder " + drop);
                        told.add(steps);
                    }
                }
                assertEquals(1, told.size(), "every one of " + world + " ranks takes the same steps: " + told);
            }
        }
    }

    private static long count(DataReader reader) {
        long n = 0;
        for (Batch ignored : reader) {
            n++;
        }
        return n;
    }
}
