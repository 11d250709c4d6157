package org.dataloader4j.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.internal.ReaderState;

/**
 * Resume checks on whole readers, for every module's tests (this module's test jar): a run read
 * once with its state after every batch, and the claim that a reader restored from any of those
 * states continues with exactly the batches the uninterrupted run read next.
 */
public final class ResumeRuns {
    private ResumeRuns() {
    }

    /**
     * What a training loop sees of one batch: its step, its size, its epoch and each row's, and
     * the bytes of every output (a ragged output's offsets and the values they span).
     */
    public static final class Seen {
        private final long step;
        private final int size;
        private final long epoch;
        private final long[] rowEpochs;
        private final Map<String, byte[]> outputs;

        private Seen(long step, int size, long epoch, long[] rowEpochs, Map<String, byte[]> outputs) {
            this.step = step;
            this.size = size;
            this.epoch = epoch;
            this.rowEpochs = rowEpochs;
            this.outputs = outputs;
        }

        /** A copy of what {@code batch} holds, taken before the reader reuses its memory. */
        public static Seen of(Batch batch) {
            Map<String, byte[]> outputs = new LinkedHashMap<>();
            for (String name : batch.names()) {
                outputs.put(name, bytes(batch, name));
            }
            long[] rowEpochs = new long[batch.size()];
            for (int row = 0; row < rowEpochs.length; row++) {
                rowEpochs[row] = batch.epoch(row);
            }
            return new Seen(batch.index(), batch.size(), batch.epoch(), rowEpochs, outputs);
        }

        private static byte[] bytes(Batch batch, String name) {
            RaggedTensor ragged;
            try {
                return batch.tensor(name).segment().toArray(ValueLayout.JAVA_BYTE);
            } catch (IllegalArgumentException notDense) {
                ragged = batch.ragged(name);
            }
            byte[] offsets = ragged.offsets().segment().toArray(ValueLayout.JAVA_BYTE);
            byte[] values = ragged.values().rows(0, ragged.offset(batch.size())).segment().toArray(ValueLayout.JAVA_BYTE);
            byte[] both = Arrays.copyOf(offsets, offsets.length + values.length);
            System.arraycopy(values, 0, both, offsets.length, values.length);
            return both;
        }

        /** This batch as a reader whose count started elsewhere would number it: at {@code newStep}. */
        public Seen atStep(long newStep) {
            return new Seen(newStep, size, epoch, rowEpochs, outputs);
        }

        /** The rows of batch. */
        public int size() {
            return size;
        }

        /** The batch's epoch. */
        public long epoch() {
            return epoch;
        }

        /** The batch's step ({@code Batch.index()}). */
        public long step() {
            return step;
        }

        /** The epoch of each row. */
        public long[] rowEpochs() {
            return rowEpochs.clone();
        }

        /** The bytes of output {@code name}. */
        public byte[] output(String name) {
            byte[] b = outputs.get(name);
            if (b == null) {
                throw new IllegalArgumentException("no output " + name + " among " + outputs.keySet());
            }
            return b.clone();
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Seen other) || step != other.step || size != other.size || epoch != other.epoch
                    || !Arrays.equals(rowEpochs, other.rowEpochs) || !outputs.keySet().equals(other.outputs.keySet())) {
                return false;
            }
            return outputs.entrySet().stream().allMatch(e -> Arrays.equals(e.getValue(), other.outputs.get(e.getKey())));
        }

        @Override
        public int hashCode() {
            int h = 31 * (31 * size + Long.hashCode(epoch)) + Long.hashCode(step);
            for (byte[] b : outputs.values()) {
                h = 31 * h + Arrays.hashCode(b);
            }
            return h;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("batch(step=" + step + ", size=" + size + ", epoch=" + epoch
                    + ", row epochs=" + Arrays.toString(rowEpochs));
            outputs.forEach((name, b) -> sb.append(", ").append(name).append(": ").append(b.length)
                    .append(" bytes #").append(Integer.toHexString(Arrays.hashCode(b))));
            return sb.append(')').toString();
        }
    }

    /**
     * A run read to its end: its batches, and {@code states.get(k)}, the reader's state after
     * {@code k} batches ({@code k = 0 .. batches.size()}).
     */
    public record Run(List<Seen> batches, List<DatasetState> states) {
    }

    /** Every batch of {@code reader}, to its end. */
    public static List<Seen> readAll(DataReader reader) {
        List<Seen> batches = new ArrayList<>();
        for (Batch b : reader) {
            batches.add(Seen.of(b));
        }
        return batches;
    }

    /** Reads the reader {@code open.apply(null)} to its end, taking its state before the first batch and after each. */
    public static Run run(Function<DatasetState, DataReader> open) {
        List<Seen> batches = new ArrayList<>();
        List<DatasetState> states = new ArrayList<>();
        try (DataReader reader = open.apply(null)) {
            states.add(reader.state());
            for (Batch b : reader) {
                batches.add(Seen.of(b));
                states.add(reader.state());
            }
        }
        return new Run(batches, states);
    }

    /**
     * Checks that {@code state} reads back equal from its bytes and its text, and returns one of
     * the two read-back states, chosen by {@code k}, so that a series of restores uses each. (The
     * JSON form belongs to the {@code loader state} command, whose tests round-trip it.)
     */
    public static DatasetState storedAndReadBack(DatasetState state, int k) {
        DatasetState fromBytes = DatasetStateCodec.fromBytes(DatasetStateCodec.toBytes(state));
        DatasetState decoded = DatasetStateCodec.fromText(DatasetStateCodec.toText(state));
        assertEquals(state, fromBytes, "bytes of " + state);
        assertEquals(state, decoded, "text of " + state);
        return List.of(fromBytes, decoded).get(k % 2);
    }

    /**
     * Reads the run {@code open} makes once, then for every {@code k} from 0 to its end restores a
     * new reader ({@code open.apply(state)}) from its state after {@code k} batches, stored and
     * read back, and checks that the new reader reads exactly the rest of the run.
     *
     * @param open a new reader of the stack under test: fresh for {@code null}, restored from the
     *             state given otherwise
     * @return the uninterrupted run, for further checks
     */
    public static Run assertResumesAtEveryBatch(Function<DatasetState, DataReader> open) {
        Run run = run(open);
        List<Seen> again = run(open).batches();
        assertEquals(run.batches(), again, "two uninterrupted runs of the same stack");
        for (int k = 0; k <= run.batches().size(); k++) {
            DatasetState state = storedAndReadBack(run.states().get(k), k);
            List<Seen> rest;
            try (DataReader reader = open.apply(state)) {
                rest = readAll(reader);
            }
            assertEquals(run.batches().subList(k, run.batches().size()), rest,
                    "resumed after " + k + " of " + run.batches().size() + " batches from " + state);
        }
        return run;
    }

    /**
     * {@code batches} numbered from {@code first}: what a reader over a dataset restored by hand
     * (its own {@code restore}, not the reader's) reads, since its count of steps starts at 0.
     */
    public static List<Seen> renumbered(List<Seen> batches, long first) {
        List<Seen> out = new ArrayList<>(batches.size());
        for (Seen b : batches) {
            out.add(b.atStep(first + out.size()));
        }
        return out;
    }

    /** A reader's state without its step layer: the position of its dataset, which the dataset's own {@code restore} takes. */
    public static DatasetState position(DatasetState readerState) {
        return readerState.kind().equals(ReaderState.STEP) ? readerState.requireUpstream() : readerState;
    }

    /**
     * The state of kind {@code kind} in the chain from {@code state} down through its upstream states.
     *
     * @throws IllegalArgumentException if there is none
     */
    public static DatasetState find(DatasetState state, String kind) {
        for (DatasetState s = state; s != null; s = s.upstream()) {
            if (s.kind().equals(kind)) {
                return s;
            }
        }
        throw new IllegalArgumentException("no " + kind + " state in " + state);
    }
}
