package org.dataloader4j.benchmarks.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Shape;
import org.dataloader4j.benchmarks.SyntheticRecords;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.dataset.ListDataset;
import org.dataloader4j.core.dataset.RandomShuffleDataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.ofrecord.OFRecordParser;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
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
 * What the shuffle's order costs a reader, per record: OFRecords laid out one after another in
 * {@value #REGION_MIB} MiB of off-heap memory (far more than the caches hold, as a dataset's
 * files are), read batch by batch in file order or in the order a 1,024-sample
 * {@code RandomShuffleDataset} yields them. {@code COPY} copies each payload into its batch row,
 * as {@code Compare}'s mmap-copy does; {@code PARSE} runs {@code OFRecordParser} over the batch,
 * as a parse worker does. One thread, no pipeline.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(ReadOrderBenchmark.BATCH)
public class ReadOrderBenchmark {
    static final int BATCH = 256;
    static final int REGION_MIB = 256;
    private static final int SHUFFLE_BUFFER = 1024;
    /** Distinct records drawn; the region holds copies of them, one after another. */
    private static final int DISTINCT = 4096;

    /** The order the records are read in. */
    public enum Order {
        /** As they lie in memory. */
        FILE,
        /** As a shuffle buffer of 1,024 yields them. */
        SHUFFLED
    }

    /** What is done with each record. */
    public enum Work {
        /** Its payload copied into a batch row. */
        COPY,
        /** The batch parsed by {@code OFRecordParser}. */
        PARSE
    }

    /** The kind of record. */
    @Param({"MNIST", "BERT"})
    public SyntheticRecords.Kind kind;

    /** The order the records are read in. */
    @Param({"FILE", "SHUFFLED"})
    public Order order;

    /** What is done with each record. */
    @Param({"COPY", "PARSE"})
    public Work work;

    private Arena arena;
    /** Every record, in the order read: batch {@code b} is {@code [b * BATCH, (b + 1) * BATCH)}. */
    private List<RecordSlice> ordered;
    private int batches;
    private int next;
    private MemorySegment rows;
    private long rowBytes;
    private OFRecordParser parser;
    private BatchBuffer batch;

    /** Lays the records out, orders them and parses one batch. */
    @Setup
    public void setUp() {
        List<byte[]> payloads = SyntheticRecords.payloads(kind, 42, DISTINCT, false);
        arena = Arena.ofShared();
        MemorySegment region = arena.allocate((long) REGION_MIB << 20, 64);
        List<RecordSlice> inFile = new ArrayList<>();
        long at = 0;
        for (int i = 0; at + payloads.get(i % DISTINCT).length <= region.byteSize(); i++) {
            byte[] p = payloads.get(i % DISTINCT);
            MemorySegment.copy(MemorySegment.ofArray(p), 0, region, at, p.length);
            inFile.add(new RecordSlice(region, at, p.length, "region", i, at));
            at += p.length;
        }
        batches = inFile.size() / BATCH;
        int records = batches * BATCH;
        ordered = new ArrayList<>(records);
        if (order == Order.FILE) {
            ordered.addAll(inFile.subList(0, records));
        } else {
            RandomShuffleDataset<Integer> shuffle = new RandomShuffleDataset<>(
                    new ListDataset<>(IntStream.range(0, inFile.size()).boxed().toList(), 1), SHUFFLE_BUFFER, 1);
            for (int i = 0; i < records; i++) {
                ordered.add(inFile.get(shuffle.next().getFirst()));
            }
        }
        rowBytes = payloads.stream().mapToLong(p -> p.length).max().orElseThrow();
        rows = arena.allocate(BATCH * rowBytes, 64);
        parser = new OFRecordParser(kind.columns().stream()
                .map(c -> OFRecordRawDecoder.of(c.name(), Shape.of(c.width()), c.type())).toList());
        batch = BatchBuffer.of(parser.outputs(BATCH), BATCH);
        parser.parse(ordered.subList(0, BATCH), batch, ParallelLoop.sequential());
    }

    /** Frees the records, the rows and the batch. */
    @TearDown
    public void tearDown() {
        batch.close();
        arena.close();
    }

    /** The next batch of records, in {@link #order}, through {@link #work}. */
    @Benchmark
    public Object batch() {
        int from = next * BATCH;
        next = next + 1 == batches ? 0 : next + 1;
        List<RecordSlice> records = ordered.subList(from, from + BATCH);
        if (work == Work.PARSE) {
            parser.parse(records, batch, ParallelLoop.sequential());
            return batch;
        }
        for (int row = 0; row < BATCH; row++) {
            RecordSlice r = records.get(row);
            MemorySegment.copy(r.source(), r.start(), rows, row * rowBytes, r.length());
        }
        return rows;
    }
}
