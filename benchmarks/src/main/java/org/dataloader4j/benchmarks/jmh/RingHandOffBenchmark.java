package org.dataloader4j.benchmarks.jmh;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.ListDataset;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.ReaderOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the pipeline itself costs per batch: a {@code DataReader} over an endless list of
 * integers, batched, with a parser that writes nothing, so that {@code read()} measures the load
 * thread's batching and state, the ring hand-off to the parse thread and back to the consumer.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RingHandOffBenchmark {
    /** Samples per batch. */
    @Param({"1", "64", "256"})
    public int batchSize;

    /** Parse threads. */
    @Param({"1", "2"})
    public int parseThreads;

    private DataReader reader;

    /** A parser of one int32 column that writes nothing. */
    private static final class NothingParser implements Parser<Integer> {
        @Override
        public List<TensorSpec> outputs(int batchCapacity) {
            return List.of(TensorSpec.dense("x", DataType.INT32, Shape.of(batchCapacity, 1)));
        }

        @Override
        public void parse(List<? extends Integer> samples, Batch out, ParallelLoop loop) {
            loop.forRanges(samples.size(), (start, end) -> {
            });
        }
    }

    /** Starts the reader. */
    @Setup
    public void setUp() {
        List<Integer> samples = IntStream.range(0, 4096).boxed().toList();
        Dataset<Integer> batches = new BatchDataset<>(new ListDataset<>(samples, Dataset.FOREVER), batchSize, false);
        reader = DataReader.of(batches, new NothingParser(), ReaderOptions.builder()
                .name("jmh-ring").parseThreads(parseThreads).build());
    }

    /** Stops it. */
    @TearDown
    public void tearDown() {
        reader.close();
    }

    /** One batch through the ring. */
    @Benchmark
    public int read() {
        return reader.read().size();
    }
}
