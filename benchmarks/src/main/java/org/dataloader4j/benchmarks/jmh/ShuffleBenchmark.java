package org.dataloader4j.benchmarks.jmh;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.dataset.ListDataset;
import org.dataloader4j.core.dataset.RandomShuffleDataset;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@code RandomShuffleDataset} over an endless {@code ListDataset}, per sample: drawing alone,
 * and drawing with the {@code state()} the reader's load thread takes after every batch of 256,
 * whose cost per sample grows with the buffer.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ShuffleBenchmark {
    private static final int BATCH = 256;

    /** Samples in the shuffle buffer. */
    @Param({"1024"})
    public int bufferSize;

    private RandomShuffleDataset<Integer> shuffle;

    /** A seeded shuffle over 65,536 integers, forever. */
    @Setup
    public void setUp() {
        List<Integer> samples = IntStream.range(0, 1 << 16).boxed().toList();
        shuffle = new RandomShuffleDataset<>(new ListDataset<>(samples, Dataset.FOREVER), bufferSize, 1);
    }

    /** One sample. */
    @Benchmark
    public List<Integer> next() {
        return shuffle.next();
    }

    /** A batch of samples and then the state, per sample. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public DatasetState nextWithStatePerBatch(Blackhole bh) {
        for (int i = 0; i < BATCH; i++) {
            bh.consume(shuffle.next());
        }
        return shuffle.state();
    }
}
