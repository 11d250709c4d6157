package org.dataloader4j.benchmarks.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dataloader4j.benchmarks.SyntheticRecords;
import org.dataloader4j.core.decode.ValueCopier;
import org.dataloader4j.core.wire.FeatureSchema;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.MapScanner;
import org.dataloader4j.core.wire.WireReader;
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
 * Where {@code DecodeBenchmark}'s OFRecord time goes, per record: the steps of the OFRecord row
 * decoder, cumulatively. {@code SCAN} finds each column's map entry ({@code MapScanner});
 * {@code RESOLVE} also reads each entry's Feature ({@code FeatureView.resolveEntry});
 * {@code DECODE} also counts and writes each column's values ({@code ValueCopier.countAndCopy}).
 * The differences between stages are each step's cost; {@code DECODE} is the row decoder less
 * its checks of counts and kinds. One thread, records off-heap and in cache.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(DecodeStagesBenchmark.BATCH)
public class DecodeStagesBenchmark {
    static final int BATCH = 256;
    /** OFRecord's {@code Feature}: {@code oneof kind} of five lists, fields 1 to 5. */
    private static final FeatureSchema OFRECORD_FEATURE = FeatureSchema.of(
            ListKind.BYTES, ListKind.FLOAT, ListKind.DOUBLE, ListKind.INT32, ListKind.INT64);
    /** OFRecord field 1: {@code map<string, Feature> feature}. */
    private static final int FEATURE_MAP = 1;

    /** How far into decoding a record each operation goes. */
    public enum Stage {
        /** The map entries found. */
        SCAN,
        /** Also their Features read. */
        RESOLVE,
        /** Also their values counted and written. */
        DECODE
    }

    /** The kind of record. */
    @Param({"MNIST", "BERT"})
    public SyntheticRecords.Kind kind;

    /** How far into decoding a record each operation goes. */
    @Param({"SCAN", "RESOLVE", "DECODE"})
    public Stage stage;

    private Arena arena;
    private MemorySegment records;
    private long[] starts;
    private List<SyntheticRecords.Column> columns;
    private MemorySegment[] outputs;
    private MapScanner scanner;
    private final WireReader reader = new WireReader();
    private final FeatureView feature = new FeatureView(OFRECORD_FEATURE);
    private long[] entryStart;
    private long[] entryEnd;

    /** Draws the records and copies them off-heap, one after another. */
    @Setup
    public void setUp() {
        List<byte[]> payloads = SyntheticRecords.payloads(kind, 42, BATCH, false);
        arena = Arena.ofShared();
        records = arena.allocate(payloads.stream().mapToLong(p -> p.length).sum(), 64);
        starts = new long[BATCH + 1];
        for (int i = 0; i < BATCH; i++) {
            byte[] p = payloads.get(i);
            MemorySegment.copy(MemorySegment.ofArray(p), 0, records, starts[i], p.length);
            starts[i + 1] = starts[i] + p.length;
        }
        columns = kind.columns();
        outputs = new MemorySegment[columns.size()];
        for (int c = 0; c < outputs.length; c++) {
            SyntheticRecords.Column col = columns.get(c);
            outputs[c] = arena.allocate((long) BATCH * col.width() * col.type().byteSize(), 64);
        }
        scanner = new MapScanner(columns.stream().map(SyntheticRecords.Column::name).toList());
        entryStart = new long[columns.size()];
        entryEnd = new long[columns.size()];
        // What records() times: every record holds every column at its width (a missing one
        // fails resolveEntry).
        long values = walk(Stage.DECODE);
        long expected = (long) BATCH * columns.stream().mapToLong(SyntheticRecords.Column::width).sum();
        if (values != expected) {
            throw new IllegalStateException("the records hold " + values + " values, expected " + expected);
        }
    }

    /** Frees the records and the outputs. */
    @TearDown
    public void tearDown() {
        arena.close();
    }

    /** The batch's records, each as far as {@link #stage}. */
    @Benchmark
    public long records() {
        return walk(stage);
    }

    /**
     * Takes every record as far as {@code upTo}; returns, so that nothing is dead code, the sum
     * of the entries' offsets ({@code SCAN}), of the Features' pieces ({@code RESOLVE}) or of
     * the values' counts ({@code DECODE}).
     */
    private long walk(Stage upTo) {
        long sum = 0;
        for (int row = 0; row < BATCH; row++) {
            reader.reset(records, starts[row], starts[row + 1]);
            Arrays.fill(entryStart, -1);
            scanner.scan(reader, FEATURE_MAP, entryStart, entryEnd);
            for (int c = 0; c < entryStart.length; c++) {
                if (upTo == Stage.SCAN) {
                    sum += entryStart[c];
                    continue;
                }
                feature.resolveEntry(reader, entryStart[c], entryEnd[c]);
                if (upTo == Stage.RESOLVE) {
                    sum += feature.pieces();
                    continue;
                }
                SyntheticRecords.Column col = columns.get(c);
                sum += ValueCopier.countAndCopy(reader, feature, outputs[c], col.type(),
                        (long) row * col.width(), col.width());
            }
        }
        return sum;
    }
}
