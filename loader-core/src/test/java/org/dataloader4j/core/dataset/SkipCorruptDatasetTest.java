package org.dataloader4j.core.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.junit.jupiter.api.Test;

/**
 * The skip decorator on its own: samples {@code 0..n-1} where negative ones are rejected by the
 * parser and multiples of 10 (from 10 on) are thrown by the upstream as damaged frames.
 */
class SkipCorruptDatasetTest {

    /** Writes each sample into an INT64 row; rejects negative samples. */
    private static final Parser<Long> PARSER = new Parser<>() {
        @Override
        public List<TensorSpec> outputs(int batchCapacity) {
            return List.of(TensorSpec.dense("v", DataType.INT64, Shape.of(batchCapacity, 1)));
        }

        @Override
        public void parse(List<? extends Long> samples, Batch out, ParallelLoop loop) {
            for (int i = 0; i < samples.size(); i++) {
                if (samples.get(i) < 0) {
                    throw new CorruptDataException("f", -samples.get(i), 0, "negative");
                }
                out.tensor("v").setLong(i, samples.get(i));
            }
        }
    };

    /** Yields {@code samples}; a sample {@code s >= 10} with {@code s % 10 == 0} is a damaged frame, thrown once, then passed. */
    private static final class Frames implements Dataset<Long>, SampleRecycler<Long> {
        private final List<Long> samples;
        private int next;
        private final boolean movesOn;
        /** The samples handed back through {@code recycle}, in order. */
        final List<Long> handedBack = new ArrayList<>();

        Frames(List<Long> samples, boolean movesOn) {
            this.samples = samples;
            this.movesOn = movesOn;
        }

        @Override
        public List<Long> next() {
            if (next == samples.size()) {
                return List.of();
            }
            long s = samples.get(next);
            if (s >= 10 && s % 10 == 0) {
                if (movesOn) {
                    next++;
                }
                throw new CorruptDataException("f", s, 100 * s, "damaged frame");
            }
            next++;
            return List.of(s);
        }

        @Override
        public DatasetState state() {
            return DatasetState.of("frames", null).with("next", next);
        }

        @Override
        public void restore(DatasetState state) {
            next = (int) state.field("next");
        }

        @Override
        public void recycle(List<? extends Long> samples) {
            handedBack.addAll(samples);
        }
    }

    private static List<Long> samples(int n, long... negated) {
        List<Long> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.add(i);
        }
        for (long i : negated) {
            out.set((int) i, -i);
        }
        return out;
    }

    private static List<Long> drain(Dataset<Long> d) {
        List<Long> out = new ArrayList<>();
        for (List<Long> s = d.next(); !s.isEmpty(); s = d.next()) {
            out.addAll(s);
        }
        return out;
    }

    @Test
    void replacesEachCorruptSampleByTheNextGoodOneAndCountsIt() {
        try (SkipCorruptDataset<Long> d = new SkipCorruptDataset<>(new Frames(samples(25, 3, 14), true), PARSER,
                SkipPolicy.maxRecords(4))) {
            assertEquals(List.of(0L, 1L, 2L, 4L, 5L, 6L, 7L, 8L, 9L, 11L, 12L, 13L, 15L, 16L, 17L, 18L, 19L, 21L, 22L, 23L, 24L),
                    drain(d));
            assertEquals(4, d.skipped(), "samples 3 and 14 (parser), 10 and 20 (frames)");
        }
    }

    @Test
    void handsBackWhatItDropsAndLeavesTheReaderTheRest() {
        Frames frames = new Frames(samples(6, 3), true);
        try (SkipCorruptDataset<Long> d = new SkipCorruptDataset<>(frames, PARSER, SkipPolicy.maxRecords(1))) {
            assertEquals(List.of(0L, 1L, 2L, 4L, 5L), drain(d));
            assertEquals(List.of(-3L), frames.handedBack, "the sample the parser rejected, as it is dropped");
            assertSame(frames, ForwardingDataset.recycler(d).orElseThrow(), "the reader hands the samples it yields back there");
        }
    }

    @Test
    void oneMoreThanTheBudgetFailsWithTheRecordThatBrokeIt() {
        try (SkipCorruptDataset<Long> d = new SkipCorruptDataset<>(new Frames(samples(25, 3, 14), true), PARSER,
                SkipPolicy.maxRecords(3))) {
            CorruptDataException e = assertThrows(CorruptDataException.class, () -> drain(d));
            assertEquals(20, e.record());
            assertEquals(2000, e.offset());
            assertTrue(e.getMessage().contains("maxRecords=3") && e.getMessage().contains("damaged frame"), e.getMessage());
        }
    }

    @Test
    void aRatioAllowsOneAtOnceAndThenItsShareOfWhatWasRead() {
        SkipPolicy tenth = SkipPolicy.maxRatio(0.1);
        assertEquals(1, tenth.allowed(1));
        assertEquals(1, tenth.allowed(19));
        assertEquals(2, tenth.allowed(20));
        // 3 and 10 are 2 corrupt samples among the first 11 read: more than 10 % of 11.
        try (SkipCorruptDataset<Long> d = new SkipCorruptDataset<>(new Frames(samples(25, 3), true), PARSER, tenth)) {
            CorruptDataException e = assertThrows(CorruptDataException.class, () -> drain(d));
            assertEquals(10, e.record(), e.getMessage());
            assertEquals(2, d.skipped());
        }
    }

    @Test
    void aStateCarriesTheCountsAndARestoreGoesOnAlike() {
        List<Long> all;
        try (SkipCorruptDataset<Long> d = new SkipCorruptDataset<>(new Frames(samples(30, 3, 14), true), PARSER,
                SkipPolicy.maxRecords(5))) {
            all = drain(d);
        }
        for (int k = 0; k < all.size(); k++) {
            DatasetState state;
            try (SkipCorruptDataset<Long> d = new SkipCorruptDataset<>(new Frames(samples(30, 3, 14), true), PARSER,
                    SkipPolicy.maxRecords(5))) {
                for (int i = 0; i < k; i++) {
                    d.next();
                }
                state = d.state();
            }
            try (SkipCorruptDataset<Long> d = new SkipCorruptDataset<>(new Frames(samples(30, 3, 14), true), PARSER,
                    SkipPolicy.maxRecords(5))) {
                d.restore(state);
                assertEquals(all.subList(k, all.size()), drain(d), "resumed after " + k);
                assertEquals(4, d.skipped(), "3, 10, 14 and 20, counted across the restore");
            }
        }
    }

    @Test
    void anUpstreamThatDoesNotMovePastItsErrorIsRefusedRatherThanLoopedOn() {
        try (SkipCorruptDataset<Long> d = new SkipCorruptDataset<>(new Frames(samples(25), false), PARSER,
                SkipPolicy.maxRecords(1000))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> drain(d));
            assertTrue(e.getMessage().contains("same record twice"), e.getMessage());
        }
    }

    @Test
    void aStrictPolicyIsNoSkipPolicy() {
        assertThrows(IllegalArgumentException.class,
                () -> new SkipCorruptDataset<>(new Frames(samples(3), true), PARSER, SkipPolicy.STRICT));
        assertThrows(IllegalArgumentException.class, () -> SkipPolicy.maxRatio(1));
        assertThrows(IllegalArgumentException.class, () -> SkipPolicy.maxRecords(-1));
        assertThrows(IllegalArgumentException.class, () -> new SkipPolicy(2, 0.5));
    }
}
