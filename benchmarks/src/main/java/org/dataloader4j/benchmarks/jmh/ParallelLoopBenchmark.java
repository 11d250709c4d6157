package org.dataloader4j.benchmarks.jmh;

import java.util.concurrent.TimeUnit;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.core.parallel.MultiThreadLoop;
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
 * The overhead of one parallel loop over a batch of 256 rows with an empty body: what splitting
 * a batch over the parse threads costs before any row is parsed.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ParallelLoopBenchmark {
    private static final ParallelLoop.RangeBody EMPTY = (start, end) -> {
    };

    /** Threads of the loop (the calling thread is one). */
    @Param({"1", "2"})
    public int threads;

    private MultiThreadLoop loop;

    /** Starts the workers. */
    @Setup
    public void setUp() {
        loop = new MultiThreadLoop("jmh-loop", threads);
    }

    /** Stops them. */
    @TearDown
    public void tearDown() {
        loop.close();
    }

    /** One loop over 256 rows. */
    @Benchmark
    public void forRanges() {
        loop.forRanges(256, 1, EMPTY);
    }
}
