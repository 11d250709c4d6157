package org.dataloader4j.core.decode.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.core.dataset.RecordRows;
import org.dataloader4j.core.dataset.RecordSlice;
import org.junit.jupiter.api.Test;

/** The fast path's reading ahead: records in groups, bounded in bytes, and a record's first byte. */
class RecordPrefetchTest {
    private static final int BUDGET = RecordPrefetch.GROUP_BYTES;
    private final RecordPrefetch prefetch = new RecordPrefetch();

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
            assertEquals(2, prefetch.group(RecordRows.of(r), 0, 6, 0), "the second record spends the budget");
            assertEquals(4, prefetch.group(RecordRows.of(r), 1, 6, 0), "a group ends with the record that passes the budget");
            assertEquals(6, prefetch.group(RecordRows.of(r), 4, 6, 0), "small records fill a group up to the range's end");
            assertEquals(3, prefetch.group(RecordRows.of(r), 2, 3, 0));
            assertEquals(3, prefetch.group(RecordRows.of(r), 3, 3, 0), "an empty range");
            List<RecordSlice> small = records(arena, 1000, 1000, 1000, 1000, 1000, 1000);
            assertEquals(4, prefetch.group(RecordRows.of(small), 0, 6, BUDGET / 4 - 1000),
                    "the output rows the records go to count against the budget");
            List<RecordSlice> nearlyFull = records(arena, BUDGET - 1, 1, 1);
            assertEquals(2, prefetch.group(RecordRows.of(nearlyFull), 0, 3, 0), "one byte of budget left takes one more record");
        }
    }

    @Test
    void aRecordOverTheBudgetIsAGroupOfItsOwn() {
        try (Arena arena = Arena.ofConfined()) {
            List<RecordSlice> r = records(arena, 3 * BUDGET + 5, 1);
            assertEquals(1, prefetch.group(RecordRows.of(r), 0, 2, 0));
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
                int end = prefetch.group(RecordRows.of(r), from, r.size(), 0);
                assertTrue(end > from, "a group holds at least one record");
                from = end;
            }
            MemorySegment heap = MemorySegment.ofArray(new byte[7]);
            assertEquals(1, prefetch.group(RecordRows.of(List.of(new RecordSlice(heap, "f", 0, 0))), 0, 1, 0),
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
            assertEquals(42, RecordPrefetch.first(RecordRows.of(r), 0), "a record's first byte, at its start in its segment");
            assertEquals(0, RecordPrefetch.first(RecordRows.of(r), 1), "an empty record has no byte to read");
            assertEquals(-7, RecordPrefetch.first(RecordRows.of(r), 2));
            assertEquals(0, RecordPrefetch.first(RecordRows.of(r), 3), "past the last row there is no record");
        }
    }
}
