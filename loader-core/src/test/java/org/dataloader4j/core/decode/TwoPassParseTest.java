package org.dataloader4j.core.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.fast.RecordPrefetch;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The row loop every feature parser runs, and its reading ahead in groups. */
class TwoPassParseTest {
    private static final int BUDGET = RecordPrefetch.GROUP_BYTES;

    /**
     * Records of {@code lengths}, each its own segment with nothing around it, so that a read
     * outside a record throws.
     */
    private static List<RecordSlice> records(Arena arena, int... lengths) {
        List<RecordSlice> out = new ArrayList<>();
        for (int i = 0; i < lengths.length; i++) {
            out.add(new RecordSlice(arena.allocate(lengths[i], 1), "f", i, 0));
        }
        return out;
    }

    @Test
    void aGroupEndsOnceItsRecordsReachTheBudget() {
        try (Arena arena = Arena.ofConfined()) {
            List<RecordSlice> r = records(arena, BUDGET / 2, BUDGET / 2, 10, BUDGET, 10, 10);
            assertEquals(2, RecordPrefetch.group(r, 0, 6, 0), "the second record spends the budget");
            assertEquals(4, RecordPrefetch.group(r, 1, 6, 0), "a group ends with the record that passes the budget");
            assertEquals(6, RecordPrefetch.group(r, 4, 6, 0), "small records fill a group up to the range's end");
            assertEquals(3, RecordPrefetch.group(r, 2, 3, 0));
            assertEquals(3, RecordPrefetch.group(r, 3, 3, 0), "an empty range");
            List<RecordSlice> small = records(arena, 1000, 1000, 1000, 1000, 1000, 1000);
            assertEquals(4, RecordPrefetch.group(small, 0, 6, BUDGET / 4 - 1000),
                    "the output rows the records go to count against the budget");
            List<RecordSlice> nearlyFull = records(arena, BUDGET - 1, 1, 1);
            assertEquals(2, RecordPrefetch.group(nearlyFull, 0, 3, 0), "one byte of budget left takes one more record");
        }
    }

    @Test
    void aRecordOverTheBudgetIsAGroupOfItsOwn() {
        try (Arena arena = Arena.ofConfined()) {
            List<RecordSlice> r = records(arena, 3 * BUDGET + 5, 1);
            assertEquals(1, RecordPrefetch.group(r, 0, 2, 0));
        }
    }

    @Test
    void readsStayInsideRecordsAtAnyAlignmentAndOfAnyLength() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment base = arena.allocate(4096, 64);
            List<RecordSlice> r = new ArrayList<>();
            for (int start = 0; start < 130; start++) {
                for (int length : new int[] {0, 1, 63, 64, 65, 129, 255, 256, 257, 1000}) {
                    // Each record is a segment of its own: a read before or after it throws.
                    r.add(new RecordSlice(base.asSlice(start, length), "f", r.size(), start));
                    r.add(new RecordSlice(base.asSlice(0, start + length), start, length, "f", r.size(), start));
                }
            }
            for (int from = 0; from < r.size(); ) {
                int end = RecordPrefetch.group(r, from, r.size(), 0);
                assertTrue(end > from, "a group holds at least one record");
                from = end;
            }
            MemorySegment heap = MemorySegment.ofArray(new byte[7]);
            assertEquals(1, RecordPrefetch.group(List.of(new RecordSlice(heap, "f", 0, 0)), 0, 1, 0),
                    "inflated records live on the heap");
        }
    }

    @Test
    void aRangeIsReadOneByteInEachOfItsLinesAndItsLastByte() {
        try (Arena arena = Arena.ofConfined()) {
            // Every byte is 1, so the sum counts the bytes read.
            MemorySegment ones = arena.allocate(2048, 64).fill((byte) 1);
            for (int start = 0; start < 130; start++) {
                for (int end = start; end <= 2048; end += 1 + end / 7) {
                    long strided = (end - start + 63) / 64;
                    long expected = strided + (end > start ? 1 : 0);
                    assertEquals(expected, RecordPrefetch.lines(ones, start, end), "[" + start + ", " + end + ")");
                }
            }
        }
    }

    @Test
    void aRecordsFirstByteIsReadOnlyWhereThereIsOne() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = arena.allocate(8, 8);
            bytes.set(ValueLayout.JAVA_BYTE, 3, (byte) 42);
            bytes.set(ValueLayout.JAVA_BYTE, 5, (byte) -7);
            List<RecordSlice> r = List.of(
                    new RecordSlice(bytes, 3, 2, "f", 0, 3),
                    // Empty, and at the very end of its segment: a read of its first byte would throw.
                    new RecordSlice(bytes, 8, 0, "f", 1, 8),
                    new RecordSlice(bytes.asSlice(5, 1), "f", 2, 5));
            assertEquals(42, RecordPrefetch.first(r, 0), "a record's first byte, at its start in its segment");
            assertEquals(0, RecordPrefetch.first(r, 1), "an empty record has no byte to read");
            assertEquals(-7, RecordPrefetch.first(r, 2));
            assertEquals(0, RecordPrefetch.first(r, 3), "past the last row there is no record");
        }
    }

    @Test
    void aRowsDenseBytesAreThoseOfEveryDenseOutputWhichAGroupsBudgetCounts() {
        int rows = 9;
        try (BatchBuffer batch = BatchBuffer.of(List.of(TensorSpec.dense("images", DataType.FLOAT32, Shape.of(rows, 37)),
                TensorSpec.dense("labels", DataType.INT64, Shape.of(rows, 1))), rows)) {
            OutputColumn[] columns = {new Column("images", DataType.FLOAT32, 37), new Column("labels", DataType.INT64, 1)};
            assertEquals(37 * Float.BYTES + Long.BYTES, new BatchOutputs(columns, batch, rows).denseRowBytes());
        }
    }

    @Test
    @Timeout(10)
    void everyRowIsDecodedOnceAndInOrderWithinItsRangeWhetherItIsReadAheadOrNot() {
        int rows = 200;
        try (Arena arena = Arena.ofShared(); MultiThreadLoop threads = new MultiThreadLoop("two-pass-test", 3);
             BatchBuffer batch = empty(rows)) {
            int[] lengths = new int[rows];
            for (int i = 0; i < rows; i++) {
                lengths[i] = i % 7 == 0 ? BUDGET / 3 : 40 + i;
            }
            List<RecordSlice> samples = records(arena, lengths);
            for (ParallelLoop loop : List.of(ParallelLoop.sequential(), threads)) {
                // A decoder is made per range: each keeps the rows it was given.
                List<List<Integer>> ranges = Collections.synchronizedList(new ArrayList<>());
                TwoPassParse.run(loop, samples, new BatchOutputs(new OutputColumn[0], batch, rows), () -> {
                    List<Integer> range = new ArrayList<>();
                    ranges.add(range);
                    return new TwoPassParse.RowDecoder() {
                        @Override
                        public void decode(int row) {
                            range.add(row);
                        }

                        @Override
                        public void copyRagged(int row) {
                            throw new AssertionError("no ragged column");
                        }

                        @Override
                        public boolean needsReadAhead(int row) {
                            return row % 3 != 0; // a third of the records are read by their decode
                        }
                    };
                });
                List<Integer> all = new ArrayList<>();
                for (List<Integer> range : ranges) {
                    for (int i = 1; i < range.size(); i++) {
                        assertEquals(range.get(i - 1) + 1, range.get(i), "rows of a range in order on " + loop);
                    }
                    all.addAll(range);
                }
                Collections.sort(all);
                assertEquals(IntStream.range(0, rows).boxed().toList(), all, "every row once on " + loop);
                if (loop == threads) {
                    assertTrue(ranges.size() > 1, "the rows were split: " + ranges.size());
                }
            }
        }
    }

    @Test
    void aSampleCountOtherThanTheRowsIsRefused() {
        try (Arena arena = Arena.ofConfined(); BatchBuffer batch = empty(3)) {
            List<RecordSlice> samples = records(arena, 1, 2);
            BatchOutputs outputs = new BatchOutputs(new OutputColumn[0], batch, 3);
            assertThrows(IllegalArgumentException.class, () -> TwoPassParse.run(ParallelLoop.sequential(), samples,
                    outputs, () -> {
                        throw new AssertionError("no row is decoded");
                    }));
        }
    }

    private record Column(String name, DataType dataType, int rowElements) implements OutputColumn {
        @Override
        public boolean ragged() {
            return false;
        }
    }

    /** A full batch of {@code rows} rows and no outputs. */
    private static BatchBuffer empty(int rows) {
        return BatchBuffer.of(List.of(), rows);
    }
}
