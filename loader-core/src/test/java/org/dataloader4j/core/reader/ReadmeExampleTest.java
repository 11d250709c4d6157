package org.dataloader4j.core.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.RandomShuffleDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The custom-format example of the README, kept compiling and correct. */
class ReadmeExampleTest {

    // --- README example: start ---
    /** One sample per next(), an empty list at the end, a state to resume from, and a way to find a sample again. */
    static final class Numbers implements Dataset<Integer> {
        private int next;
        public List<Integer> next() { return next < 1000 ? List.of(next++) : List.of(); }
        public DatasetState state() { return DatasetState.of("numbers", null).with("next", next); }
        public void restore(DatasetState s) { next = (int) s.expect("numbers").field("next"); }
        public Optional<SampleLocator<Integer>> locator() { return Optional.of(SampleLocator.byIndex(n -> n, i -> (int) i)); }
    }

    /** Declares its outputs once; then fills rows [0, n) of preallocated off-heap tensors. */
    static final class SquareParser implements Parser<Integer> {
        public List<TensorSpec> outputs(int rows) {
            return List.of(TensorSpec.dense("square", DataType.INT64, Shape.of(rows)));
        }
        public void parse(List<? extends Integer> samples, Batch out, ParallelLoop loop) {
            Tensor square = out.tensor("square");
            loop.forEach(samples.size(), i -> square.setLong(i, (long) samples.get(i) * samples.get(i)));
        }
    }
    // --- README example: end ---

    @Test
    @Timeout(10)
    void theExampleReadsEverySquareOnce() {
        List<Long> squares = new ArrayList<>();
        // --- README usage: start ---
        Dataset<Integer> pipeline = new BatchDataset<>(new RandomShuffleDataset<>(new Numbers(), 256, 42), 64, false);
        try (DataReader reader = DataReader.of(pipeline, new SquareParser())) {   // 64 rows a batch: the BatchDataset's
            for (Batch batch : reader) {
                for (long s : batch.tensor("square").toLongArray()) {
                    squares.add(s);
                }
            }
        }
        // --- README usage: end ---
        assertEquals(LongStream.range(0, 1000).map(i -> i * i).boxed().toList(), squares.stream().sorted().toList());
    }
}
