package org.dataloader4j.benchmarks.jmh;

import com.google.protobuf.InvalidProtocolBufferException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.Shape;
import org.dataloader4j.benchmarks.ProtobufBatch;
import org.dataloader4j.benchmarks.SyntheticRecords;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.ofrecord.OFRecordParser;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.tfrecord.ExampleParser;
import org.dataloader4j.tfrecord.FixedLenFeature;
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
 * Decoding one batch of records into its columns, per record: dataloader4j's parsers
 * ({@code OFRecordParser}, {@code ExampleParser}) from off-heap slices into off-heap tensors,
 * beside protobuf-java's {@code parseFrom} and a copy into Java arrays. One thread, no pipeline.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(DecodeBenchmark.BATCH)
public class DecodeBenchmark {
    static final int BATCH = 256;

    /** The records' format: OFRecord or tf.Example. */
    @Param({"ofrecord", "example"})
    public String format;

    /** The kind of record. */
    @Param({"MNIST", "BERT"})
    public SyntheticRecords.Kind kind;

    private List<byte[]> payloads;
    private Arena arena;
    private List<RecordSlice> slices;
    private Parser<RecordSlice> parser;
    private BatchBuffer batch;
    private ProtobufBatch arrays;

    /** Draws the records, copies them off-heap and parses them once. */
    @Setup
    public void setUp() {
        boolean example = format.equals("example");
        payloads = SyntheticRecords.payloads(kind, 42, BATCH, example);
        arena = Arena.ofShared();
        long total = payloads.stream().mapToLong(p -> p.length).sum();
        MemorySegment all = arena.allocate(total, 64);
        slices = new ArrayList<>(BATCH);
        long at = 0;
        for (int i = 0; i < BATCH; i++) {
            byte[] p = payloads.get(i);
            MemorySegment.copy(MemorySegment.ofArray(p), 0, all, at, p.length);
            slices.add(new RecordSlice(all.asSlice(at, p.length), "bench", i, at));
            at += p.length;
        }
        parser = example
                ? ExampleParser.forExample(kind.columns().stream()
                        .map(c -> FixedLenFeature.of(c.name(), Shape.of(c.width()), c.type())).toList())
                : new OFRecordParser(kind.columns().stream()
                        .map(c -> OFRecordRawDecoder.of(c.name(), Shape.of(c.width()), c.type())).toList());
        // Parsed once from the same off-heap slices the benchmark reads: a first parse of heap
        // copies would leave a second segment class in the JIT's profile of every read.
        batch = BatchBuffer.of(parser.outputs(BATCH), BATCH);
        parser.parse(slices, batch, ParallelLoop.sequential());
        arrays = new ProtobufBatch(kind.columns(), BATCH);
    }

    /** Frees the records and the batch. */
    @TearDown
    public void tearDown() {
        batch.close();
        arena.close();
    }

    /** dataloader4j's parser, sequential. */
    @Benchmark
    public BatchBuffer dataloader4j() {
        parser.parse(slices, batch, ParallelLoop.sequential());
        return batch;
    }

    /** protobuf-java: parse each payload, copy its lists into arrays. */
    @Benchmark
    public double protobufJava() throws InvalidProtocolBufferException {
        boolean example = format.equals("example");
        for (int row = 0; row < BATCH; row++) {
            if (example) {
                arrays.put(Example.parseFrom(payloads.get(row)), row);
            } else {
                arrays.put(OFRecord.parseFrom(payloads.get(row)), row);
            }
        }
        return arrays.touch(BATCH);
    }
}
