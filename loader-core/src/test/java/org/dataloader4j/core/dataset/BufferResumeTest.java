package org.dataloader4j.core.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.api.SampleLocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Resuming the buffering decorators (shuffle, group) by the locations of what they buffer: the
 * same batches and epochs as an uninterrupted run, from every position, without reading anything
 * but the buffered samples again. Without a locator under them they refuse to be built.
 */
class BufferResumeTest {

    /** A sample that knows the epoch it was read in: what a batch's epoch is checked against. */
    record Tagged(long epoch, int index) {
    }

    /** {@code size} samples per epoch for {@code epochs} epochs, located by (epoch, index). */
    static final class Epochs implements Dataset<Tagged> {
        private final int size;
        private final long epochs;
        private final boolean locatable;
        private long epoch;
        private int index;
        int nextCalls;
        int fetched;

        Epochs(int size, long epochs, boolean locatable) {
            this.size = size;
            this.epochs = epochs;
            this.locatable = locatable;
        }

        @Override
        public List<Tagged> next() {
            nextCalls++;
            if (index == size) {
                if (epoch + 1 == epochs) {
                    return List.of();
                }
                epoch++;
                index = 0;
            }
            return List.of(new Tagged(epoch, index++));
        }

        @Override
        public long epoch() {
            return epoch;
        }

        @Override
        public DatasetState state() {
            return DatasetState.of("epochs", null).with("epoch", epoch).with("index", index);
        }

        @Override
        public void restore(DatasetState state) {
            epoch = state.expect("epochs").field("epoch");
            index = (int) state.field("index");
        }

        @Override
        public Optional<SampleLocator<Tagged>> locator() {
            if (!locatable) {
                return Optional.empty();
            }
            return Optional.of(new SampleLocator<>() {
                @Override
                public int width() {
                    return 2;
                }

                @Override
                public void locate(Tagged sample, long[] to, int at) {
                    to[at] = sample.epoch();
                    to[at + 1] = sample.index();
                }

                @Override
                public List<Tagged> fetch(long[] locations) {
                    List<Tagged> out = new ArrayList<>();
                    for (int i = 0; i < locations.length; i += 2) {
                        out.add(new Tagged(locations[i], (int) locations[i + 1]));
                    }
                    fetched += out.size();
                    return out;
                }
            });
        }
    }

    /** The stacks under test, over a source that is or is not locatable. */
    enum Stack {
        SHUFFLE(source -> new BatchDataset<>(new RandomShuffleDataset<>(source, 16, 3), 5, false)),
        GROUP(source -> GroupBatchDataset.of(source, 4, t -> t.index() % 3)),
        SHUFFLE_GROUP(source -> new GroupBatchDataset<>(new RandomShuffleDataset<>(source, 9, 8), t -> t.index() % 4,
                GroupBatchOptions.builder(3).maxBufferedSamples(7).build()));

        final Function<Dataset<Tagged>, Dataset<Tagged>> build;

        Stack(Function<Dataset<Tagged>, Dataset<Tagged>> build) {
            this.build = build;
        }
    }

    private record Run(List<List<Tagged>> batches, List<Long> epochs) {
    }

    private static Run drain(Dataset<Tagged> ds) {
        List<List<Tagged>> batches = new ArrayList<>();
        List<Long> epochs = new ArrayList<>();
        for (List<Tagged> b = ds.next(); !b.isEmpty(); b = ds.next()) {
            batches.add(b);
            epochs.add(ds.epoch());
        }
        return new Run(batches, epochs);
    }

    private static DatasetState roundTrip(DatasetState state, int k) {
        return k % 2 == 0 ? DatasetStateCodec.fromText(DatasetStateCodec.toText(state))
                : DatasetStateCodec.fromBytes(DatasetStateCodec.toBytes(state));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SHUFFLE", "GROUP", "SHUFFLE_GROUP"})
    void resumingAtEveryBatchGivesTheUninterruptedBatchesAndEpochs(Stack stack) {
        Run whole = drain(stack.build.apply(new Epochs(23, 3, true)));

        for (int k = 0; k <= whole.batches.size(); k++) {
            Dataset<Tagged> first = stack.build.apply(new Epochs(23, 3, true));
            for (int i = 0; i < k; i++) {
                first.next();
            }
            DatasetState state = roundTrip(first.state(), k);
            Epochs source = new Epochs(23, 3, true);
            Dataset<Tagged> resumed = stack.build.apply(source);
            resumed.restore(state);

            assertEquals(0, source.nextCalls, "a restore by location reads nothing but the buffer: k=" + k + " " + state);
            assertEquals(first.epoch(), resumed.epoch(), "k=" + k);
            Run rest = drain(resumed);
            assertEquals(whole.batches.subList(k, whole.batches.size()), rest.batches, "k=" + k + " state=" + state);
            assertEquals(whole.epochs.subList(k, whole.epochs.size()), rest.epochs, "k=" + k);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SHUFFLE", "GROUP", "SHUFFLE_GROUP"})
    void aBatchsEpochIsTheNewestEpochAmongTheSamplesReturnedSoFar(Stack stack) {
        Run run = drain(stack.build.apply(new Epochs(23, 3, true)));

        long newest = 0;
        for (int b = 0; b < run.batches.size(); b++) {
            for (Tagged t : run.batches.get(b)) {
                newest = Math.max(newest, t.epoch());
            }
            assertEquals(newest, run.epochs.get(b), "batch " + b + " " + run.batches.get(b));
        }
        assertEquals(2, newest);
    }

    @Test
    void theShuffleStateHoldsOneLocationAndEpochPerBufferedSampleAndFetchesOnlyThose() {
        Epochs source = new Epochs(100, 1, true);
        RandomShuffleDataset<Tagged> shuffle = new RandomShuffleDataset<>(source, 16, 1);
        for (int i = 0; i < 30; i++) {
            shuffle.next();
        }
        DatasetState state = shuffle.state();

        assertEquals(16, state.list("epochs").length);
        assertEquals(16 * 2, state.list("locations").length);
        assertEquals(46, state.requireUpstream().field("index"), "the upstream's state is its state now, not a start to replay from");

        Epochs again = new Epochs(100, 1, true);
        RandomShuffleDataset<Tagged> resumed = new RandomShuffleDataset<>(again, 16, 1);
        resumed.restore(state);
        assertEquals(0, again.nextCalls);
        assertEquals(16, again.fetched);
        assertEquals(drain(shuffle).batches, drain(resumed).batches);
    }

    @Test
    void theGroupStateHoldsThePendingSamplesAndFetchesOnlyThose() {
        GroupBatchDataset<Tagged> group = GroupBatchDataset.of(new Epochs(100, 1, true), 4, t -> t.index() % 2);
        List<Tagged> first = group.next();
        DatasetState state = group.state();

        assertEquals(List.of(0, 2, 4, 6), first.stream().map(Tagged::index).toList());
        assertEquals(List.of(3L), boxed(state.list("sizes")), "one pending batch, of group 1, holding 1, 3 and 5");
        assertEquals(List.of(0L, 1L, 0L, 3L, 0L, 5L), boxed(state.list("locations")));
        Epochs again = new Epochs(100, 1, true);
        GroupBatchDataset<Tagged> resumed = GroupBatchDataset.of(again, 4, t -> t.index() % 2);
        resumed.restore(state);
        assertEquals(0, again.nextCalls);
        assertEquals(3, again.fetched);
        assertEquals(drain(group).batches, drain(resumed).batches);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SHUFFLE", "GROUP", "SHUFFLE_GROUP"})
    void aBufferOverADatasetWithoutALocatorIsRefusedWhenBuilt(Stack stack) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> stack.build.apply(new Epochs(50, 1, false)));
        assertTrue(e.getMessage().contains("SampleLocator"), e.getMessage());
    }

    @Test
    void aStateDoesNotRestoreAShuffleOfAnotherBufferSize() {
        RandomShuffleDataset<Tagged> located = new RandomShuffleDataset<>(new Epochs(50, 1, true), 8, 1);
        located.next();
        DatasetState state = located.state();

        RandomShuffleDataset<Tagged> smaller = new RandomShuffleDataset<>(new Epochs(50, 1, true), 4, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> smaller.restore(state));
        assertTrue(e.getMessage().contains("bufferSize=4"), e.getMessage());
    }

    private static List<Long> boxed(long[] values) {
        return java.util.Arrays.stream(values).boxed().toList();
    }
}
