package org.dataloader4j.core.decode;

import static org.dataloader4j.core.decode.RecordErrors.corrupt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.core.testing.ByteMutations;
import org.dataloader4j.core.testing.ParserChecks;
import org.dataloader4j.core.testing.TestRecords;
import org.dataloader4j.core.testing.WireWriter;
import org.dataloader4j.core.wire.FeatureSchema;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.MapScanner;
import org.dataloader4j.core.wire.WireReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The row routine every feature parser runs, with a format of its own: records of one feature map
 * (field 1, as in an OFRecord) holding {@code images} (300 floats: a row copied first on the fast
 * path), {@code labels} (one varint) and {@code tokens} (up to 8 varints, ragged). Each row is
 * decoded once and in order within its range, on both paths, whether its record is read ahead
 * or copied first; both paths write the same bytes and fail alike.
 */
class BatchDecoderTest {
    private static final int PIXELS = 300;
    private static final int MAX_TOKENS = 8;
    private static final FeatureSchema SCHEMA = FeatureSchema.of(ListKind.BYTES, ListKind.FLOAT, ListKind.INT64);
    private static final List<String> KEYS = List.of("images", "labels", "tokens");
    private static final OutputColumn[] COLUMNS = {
            new Column("images", DataType.FLOAT32, PIXELS, false),
            new Column("labels", DataType.INT64, 1, false),
            new Column("tokens", DataType.INT64, MAX_TOKENS, true)};

    private record Column(String name, DataType dataType, int rowElements, boolean ragged) implements OutputColumn {
    }

    private static final class Wire extends WireWriter<Wire> {
    }

    /** What each thread decodes in the range it is running: the rows whose labels it decoded. */
    private static final ThreadLocal<List<Integer>> RANGE = new ThreadLocal<>();

    /** The test's format: every entry required, each dense one exactly a row, the ragged one at most {@value #MAX_TOKENS}. */
    private static final class Format implements EntryDecoder {
        private final MapScanner scanner = new MapScanner(KEYS);
        private final WireReader reader;
        private final FeatureView feature;
        private final ValueCopier copier;
        private final AtomicLong imagesDecoded;

        Format(WireReader reader, FeatureView feature, ValueCopier copier, AtomicLong imagesDecoded) {
            this.reader = reader;
            this.feature = feature;
            this.copier = copier;
            this.imagesDecoded = imagesDecoded;
        }

        @Override
        public void locate(WireReader r, long[] entryStart, long[] entryEnd) {
            scanner.scan(r, 1, entryStart, entryEnd);
        }

        @Override
        public void decode(RecordView record, int row, int e, long entryStart, long entryEnd, BatchOutputs out) {
            OutputColumn col = COLUMNS[e];
            if (e == 0) {
                imagesDecoded.incrementAndGet();
            }
            if (e == 1 && RANGE.get() != null) {
                RANGE.get().add(row);
            }
            if (entryStart < 0 || feature.kind() == null || feature.kind() == ListKind.BYTES) {
                throw corrupt(record, "feature " + col.name() + " is missing or not a number list");
            }
            if (col.ragged()) {
                long count = feature.count(reader);
                if (count > col.rowElements()) {
                    throw corrupt(record, "feature " + col.name() + " has " + count + " values");
                }
                out.note(e, row, count, entryStart, entryEnd);
                return;
            }
            long count = copier.countAndCopy(reader, feature, out.values(e), col.dataType(),
                    (long) row * col.rowElements(), col.rowElements());
            if (count != col.rowElements()) {
                throw corrupt(record, "feature " + col.name() + " has " + count + " values");
            }
        }

        @Override
        public void copyRagged(RecordView record, int row, BatchOutputs out) {
            long length = out.length(2, row);
            if (length > 0) {
                reader.reset(record.source(), record.start(), record.end());
                feature.resolveEntry(reader, out.noteStart(2, row), out.noteEnd(2, row));
                assertEquals(length, copier.copy(reader, feature, out.values(2), DataType.INT64, out.offset(2, row), length));
            }
        }
    }

    /** The test's format as a parser, on {@code mode}'s path. */
    private static Parser<RecordSlice> parser(DecodeMode mode) {
        return parser(mode, new AtomicLong());
    }

    /** The test's format as a parser, on {@code mode}'s path, counting the images it decodes. */
    private static Parser<RecordSlice> parser(DecodeMode mode, AtomicLong imagesDecoded) {
        BatchDecoder decoder = new BatchDecoder(COLUMNS, new int[] {0, 1, 2}, SCHEMA, true, mode,
                (reader, feature, copier) -> new Format(reader, feature, copier, imagesDecoded));
        assertEquals(mode, decoder.mode());
        return new Parser<>() {
            @Override
            public List<TensorSpec> outputs(int rows) {
                return List.of(TensorSpec.dense("images", DataType.FLOAT32, Shape.of(rows, PIXELS)),
                        TensorSpec.dense("labels", DataType.INT64, Shape.of(rows, 1)),
                        TensorSpec.ragged("tokens", DataType.INT64, rows, (long) rows * MAX_TOKENS));
            }

            @Override
            public void parse(List<? extends RecordSlice> samples, Batch out, ParallelLoop loop) {
                decoder.run(samples, out, loop);
            }
        };
    }

    private static Wire entry(String key, Wire feature) {
        return new Wire().string(1, key).bytes(2, feature);
    }

    private static Wire floats(Random random, int n) {
        Wire p = new Wire();
        for (int i = 0; i < n; i++) {
            p.rawFixed32(Float.floatToRawIntBits(random.nextInt(4) == 0 ? random.nextFloat() : 0));
        }
        return new Wire().bytes(2, new Wire().bytes(1, p));
    }

    private static Wire int64s(long... values) {
        Wire p = new Wire();
        for (long v : values) {
            p.rawVarint(v);
        }
        return new Wire().bytes(3, new Wire().bytes(1, p));
    }

    /**
     * A record of the test's format: mostly of one length, whose images are copied first once its
     * layout is learned; one in six with a label of two bytes, one in six with more tokens, so
     * that they miss the layout and are read ahead; one in ten with an unknown field.
     */
    private static byte[] record(Random random) {
        long label = random.nextInt(6) == 0 ? 128 + random.nextInt(1000) : random.nextInt(10);
        long[] tokens = new long[random.nextInt(6) == 0 ? 1 + random.nextInt(MAX_TOKENS) : 3];
        for (int i = 0; i < tokens.length; i++) {
            // Two bytes each, so that records of three tokens are of one length.
            tokens[i] = 128 + random.nextInt(16_000);
        }
        Wire r = new Wire().bytes(1, entry("images", floats(random, PIXELS))).bytes(1, entry("labels", int64s(label)))
                .bytes(1, entry("tokens", int64s(tokens)));
        if (random.nextInt(10) == 0) {
            r.varint(7, random.nextInt(100));
        }
        return r.toByteArray();
    }

    private static List<byte[]> records(long seed, int n) {
        Random random = new Random(seed);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            records.add(record(random));
        }
        return records;
    }

    /** {@code loop}, noting each range it runs and the rows decoded in it. */
    private record RangeLoop(ParallelLoop loop, List<List<Integer>> ranges) implements ParallelLoop {
        @Override
        public int parallelism() {
            return loop.parallelism();
        }

        @Override
        public void forRanges(int n, int minRangeSize, RangeBody body) {
            loop.forRanges(n, minRangeSize, (start, end) -> {
                List<Integer> rows = new ArrayList<>();
                RANGE.set(rows);
                try {
                    body.run(start, end);
                } finally {
                    RANGE.remove();
                }
                ranges.add(List.of(start, end));
                ranges.add(rows);
            });
        }
    }

    @Test
    @Timeout(30)
    void everyRowIsDecodedOnceAndInOrderWithinItsRangeWhetherItIsReadAheadCopiedFirstOrNeither() {
        int rows = 400;
        List<byte[]> records = records(1, rows);
        try (MultiThreadLoop threads = new MultiThreadLoop("batch-decoder-test", 3)) {
            for (DecodeMode mode : DecodeMode.values()) {
                AtomicLong imagesDecoded = new AtomicLong();
                Parser<RecordSlice> parser = parser(mode, imagesDecoded);
                for (ParallelLoop loop : List.of(ParallelLoop.sequential(), threads)) {
                    imagesDecoded.set(0);
                    List<List<Integer>> ranges = Collections.synchronizedList(new ArrayList<>());
                    try (BatchBuffer batch = BatchBuffer.of(parser, rows)) {
                        TestRecords.parse(batch, parser, new RangeLoop(loop, ranges), records);
                    }
                    List<Integer> all = new ArrayList<>();
                    int firstPassRanges = 0;
                    // Each range's bounds, then the rows it decoded: none in the second pass's.
                    for (int i = 0; i < ranges.size(); i += 2) {
                        List<Integer> bounds = ranges.get(i);
                        List<Integer> decoded = ranges.get(i + 1);
                        if (!decoded.isEmpty()) {
                            firstPassRanges++;
                            assertEquals(IntStream.range(bounds.get(0), bounds.get(1)).boxed().toList(), decoded,
                                    "rows of a range, once each and in order, on " + loop + ", " + mode);
                            all.addAll(decoded);
                        }
                    }
                    Collections.sort(all);
                    assertEquals(IntStream.range(0, rows).boxed().toList(), all, "every row once on " + loop + ", " + mode);
                    if (loop == threads) {
                        assertTrue(firstPassRanges > 1, "the rows were split: " + firstPassRanges);
                    }
                    // Only the fast path copies images first, and then decodes them no more.
                    assertTrue(mode == DecodeMode.FAST ? imagesDecoded.get() < rows : imagesDecoded.get() == rows,
                            imagesDecoded + " images decoded on " + loop + ", " + mode);
                }
            }
        }
    }

    @Test
    @Timeout(60)
    void bothPathsWriteTheSameBytesAndFailWithTheSameTextOnEveryThreadCount() {
        Parser<RecordSlice> plain = parser(DecodeMode.PLAIN);
        Parser<RecordSlice> fast = parser(DecodeMode.FAST);
        long seed = 0xB47C4L;
        List<List<byte[]>> batches = ByteMutations.batchesWithDamage(new Random(seed), 60, 100, BatchDecoderTest::record);
        int failed;
        try (MultiThreadLoop threads = new MultiThreadLoop("batch-decoder-test", 3)) {
            failed = ParserChecks.samePathBytesOrErrors(plain, fast, batches, List.of(ParallelLoop.sequential(), threads),
                    "seed " + seed);
        }
        // Only a damaged batch can fail: one in three, on two loops.
        assertTrue(failed > 10 && failed <= 20 * 2, "batches that failed: " + failed + "; seed " + seed);
    }

    @Test
    void aWireErrorInAnEntryNamesItsFeatureAndOneInTheScanNamesNone() {
        Random random = new Random(3);
        byte[] good = record(random);
        // The images' packed floats one byte short of a whole float: a malformed entry.
        byte[] badList = new Wire().bytes(1, entry("images", new Wire().bytes(2, new Wire().bytes(1, new byte[7]))))
                .toByteArray();
        // A map entry that runs past the record: the scan cannot step over it.
        byte[] cut = Arrays.copyOf(good, good.length - 5);
        for (DecodeMode mode : DecodeMode.values()) {
            Parser<RecordSlice> parser = parser(mode);
            CorruptDataException list = assertThrows(CorruptDataException.class, () -> TestRecords.parse(parser, badList));
            assertTrue(list.reason().matches("packed float_list of 7 bytes, not a multiple of 4 at byte \\d+ of the record"
                    + " \\(feature images\\)"), list.reason());
            CorruptDataException scan = assertThrows(CorruptDataException.class, () -> TestRecords.parse(parser, cut));
            assertTrue(scan.reason().matches("truncated field at byte \\d+ of the record"), scan.reason());
        }
    }

    @Test
    void aSampleCountOtherThanTheRowsIsRefused() {
        Parser<RecordSlice> parser = parser(DecodeMode.FAST);
        try (BatchBuffer batch = BatchBuffer.of(parser, 3)) {
            List<RecordSlice> samples = TestRecords.slices(records(2, 2));
            assertThrows(IllegalArgumentException.class, () -> parser.parse(samples, batch, ParallelLoop.sequential()));
        }
    }

    @Test
    void anEntryMustBeOneOfTheColumns() {
        assertThrows(IllegalArgumentException.class,
                () -> new BatchDecoder(COLUMNS, new int[] {0, 3}, SCHEMA, true, DecodeMode.PLAIN,
                        (reader, feature, copier) -> new Format(reader, feature, copier, new AtomicLong())));
    }

    @Test
    void aRowsDenseBytesAreThoseOfEveryDenseOutputWhichAGroupsBudgetCounts() {
        int rows = 9;
        try (BatchBuffer batch = BatchBuffer.of(List.of(TensorSpec.dense("images", DataType.FLOAT32, Shape.of(rows, 37)),
                TensorSpec.dense("labels", DataType.INT64, Shape.of(rows, 1))), rows)) {
            OutputColumn[] columns = {new Column("images", DataType.FLOAT32, 37, false),
                    new Column("labels", DataType.INT64, 1, false)};
            assertEquals(37 * Float.BYTES + Long.BYTES, new BatchOutputs(columns, batch, rows).denseRowBytes());
        }
    }
}
