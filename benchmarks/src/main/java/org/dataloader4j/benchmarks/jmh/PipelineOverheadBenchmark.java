package org.dataloader4j.benchmarks.jmh;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Shape;
import org.dataloader4j.benchmarks.CompareDataset;
import org.dataloader4j.benchmarks.DataFiles;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.RandomShuffleDataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.ofrecord.OFRecordDataset;
import org.dataloader4j.ofrecord.OFRecordDecoder;
import org.dataloader4j.ofrecord.OFRecordParser;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the reader's threads add to the work they carry, per record: the MNIST-like OFRecord
 * files of {@code Compare} (100,000 records in 4 parts, seed 1; written first unless found under
 * the directory of the system property {@code d4j.bench.data}, default
 * {@code <java.io.tmpdir>/d4j-compare}) read through a shuffle buffer of 1,024 into batches of
 * 256, endlessly. {@code INLINE}: one thread runs the dataset stack and {@code OFRecordParser}
 * into one batch, no pipeline. {@code READER_1} and {@code READER_2}: an {@code OFRecordReader}
 * with that many parse threads and a ring of 8 slots; the benchmark thread is its consumer.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(PipelineOverheadBenchmark.BATCH)
public class PipelineOverheadBenchmark {
    static final int BATCH = 256;
    private static final int SHUFFLE_BUFFER = 1024;
    private static final long SEED = 1;

    /** Who does the work. */
    public enum Way {
        /** The benchmark thread: dataset stack, then parser, one batch after another. */
        INLINE,
        /** A reader with one parse thread. */
        READER_1,
        /** A reader with two parse threads. */
        READER_2
    }

    /** Who does the work. */
    @Param({"INLINE", "READER_1", "READER_2"})
    public Way way;

    private Dataset<RecordSlice> stack;
    private OFRecordParser parser;
    private BatchBuffer batch;
    private final List<RecordSlice> samples = new ArrayList<>(BATCH);
    private DataReader reader;

    /** Finds or writes the files, and builds the stack and parser or starts the reader. */
    @Setup
    public void setUp() throws IOException {
        Path root = Path.of(System.getProperty("d4j.bench.data", Path.of(System.getProperty("java.io.tmpdir"), "d4j-compare").toString()));
        DataFiles data = DataFiles.ensure(root, CompareDataset.MNIST_OFRECORD, 100_000, 4, SEED);
        List<OFRecordDecoder> decoders = CompareDataset.MNIST_OFRECORD.kind().columns().stream()
                .<OFRecordDecoder>map(c -> OFRecordRawDecoder.of(c.name(), Shape.of(c.width()), c.type())).toList();
        if (way == Way.INLINE) {
            stack = new BatchDataset<>(new RandomShuffleDataset<>(
                    new OFRecordDataset(data.files(), Dataset.FOREVER, false, SEED), SHUFFLE_BUFFER, SEED), BATCH, false);
            parser = new OFRecordParser(decoders);
            batch = BatchBuffer.of(parser.outputs(BATCH), BATCH);
            return;
        }
        OFRecordReader.Builder b = OFRecordReader.builder();
        decoders.forEach(b::decoder);
        reader = b.files(data.files()).epochs(Dataset.FOREVER).batchSize(BATCH).randomShuffle(true)
                .shuffleBufferSize(SHUFFLE_BUFFER).seed(SEED).parseThreads(way == Way.READER_1 ? 1 : 2).ringSize(8)
                .name("jmh-overhead").build();
    }

    /** Stops the reader, or frees the batch and unmaps the files. */
    @TearDown
    public void tearDown() {
        if (reader != null) {
            reader.close();
        } else {
            batch.close();
            stack.close();
        }
    }

    /** The next batch of 256 records. */
    @Benchmark
    public Object batch() {
        if (reader != null) {
            return reader.read().tensor("labels").getLong(0);
        }
        samples.clear();
        stack.nextInto(samples);
        parser.parse(samples, batch, ParallelLoop.sequential());
        return batch;
    }
}
