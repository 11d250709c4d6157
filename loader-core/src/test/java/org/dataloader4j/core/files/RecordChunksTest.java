package org.dataloader4j.core.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dataloader4j.core.dataset.RecordSlice;
import org.junit.jupiter.api.Test;

/** Payloads packed into chunks, and chunks used again only once all their records are back. */
class RecordChunksTest {
    /** Records of 3,000 bytes: 87 to a chunk. */
    private static final int LENGTH = 3000;

    /** Record {@code i}'s payload: every byte derived from {@code i}. */
    private static byte[] payload(long i, int length) {
        byte[] b = new byte[length];
        for (int k = 0; k < length; k++) {
            b[k] = (byte) (i * 31 + k);
        }
        return b;
    }

    /** Places record {@code i} as a reader does: room, the read, take. */
    private static RecordSlice place(RecordChunks chunks, long i, int length) {
        byte[] into = chunks.room(length);
        System.arraycopy(payload(i, length), 0, into, chunks.at(), length);
        return chunks.take(length, "f", i, i * (length + 16L));
    }

    private static byte[] bytes(RecordSlice s) {
        return s.payload().toArray(ValueLayout.JAVA_BYTE);
    }

    private static void assertIntact(RecordSlice s) {
        assertArrayEquals(payload(s.index(), s.length()), bytes(s), "record " + s.index());
    }

    @Test
    void payloadsLieBackToBackInOneChunkUntilItIsFull() {
        RecordChunks chunks = new RecordChunks();
        int perChunk = RecordChunks.CHUNK_BYTES / LENGTH;
        List<RecordSlice> slices = new ArrayList<>();
        for (int i = 0; i <= perChunk; i++) {
            slices.add(place(chunks, i, LENGTH));
        }

        for (int i = 0; i < perChunk; i++) {
            assertSame(slices.get(0).source(), slices.get(i).source());
            assertEquals((long) i * LENGTH, slices.get(i).start());
        }
        assertNotSame(slices.get(0).source(), slices.get(perChunk).source(), "the record that did not fit starts a chunk");
        assertEquals(0, slices.get(perChunk).start());
        slices.forEach(RecordChunksTest::assertIntact);
        assertEquals(2, chunks.chunksAllocated());
    }

    @Test
    void aStreamWhoseRecordsComeBackStopsAllocating() {
        RecordChunks chunks = new RecordChunks();
        // Records come back 2,000 records after they were placed, a batch of 100 at a time, as a
        // reader's ring and shuffle buffer hand them back.
        ArrayDeque<RecordSlice> out = new ArrayDeque<>();
        long afterWarmUp = 0;
        for (long i = 0; i < 60_000; i++) {
            out.add(place(chunks, i, LENGTH));
            if (out.size() == 2_100) {
                List<RecordSlice> batch = new ArrayList<>();
                for (int k = 0; k < 100; k++) {
                    RecordSlice s = out.poll();
                    assertIntact(s);
                    batch.add(s);
                }
                chunks.recycle(batch);
            }
            if (i == 20_000) {
                afterWarmUp = chunks.chunksAllocated();
            }
        }

        assertEquals(afterWarmUp, chunks.chunksAllocated(), "no chunk allocated once records come back");
        assertTrue(afterWarmUp < 60, afterWarmUp + " chunks for 2,100 records out of 87 a chunk");
        out.forEach(RecordChunksTest::assertIntact);
    }

    @Test
    void aChunkWithOneRecordOutIsNotUsedAgain() {
        RecordChunks chunks = new RecordChunks();
        chunks.recycle(List.of());
        List<RecordSlice> first = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            first.add(place(chunks, i, LENGTH));
        }
        RecordSlice kept = first.remove(5);
        chunks.recycle(first);
        // Rounds of several chunks out at once, so that every chunk free to be used is used.
        for (int round = 0; round < 10; round++) {
            List<RecordSlice> batch = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                batch.add(place(chunks, 200 + round * 400L + i, LENGTH));
            }
            batch.forEach(RecordChunksTest::assertIntact);
            chunks.recycle(batch);
        }

        assertIntact(kept);
    }

    @Test
    void aRecordThatNeverComesBackStaysIntactAfterItsChunkIsForgotten() {
        RecordChunks chunks = new RecordChunks();
        chunks.recycle(List.of());
        RecordSlice dropped = place(chunks, 0, LENGTH);
        int perChunk = RecordChunks.CHUNK_BYTES / LENGTH;
        long records = (long) (RecordChunks.TRACKED + 10) * perChunk;
        for (long i = 1; i < records; i++) {
            RecordSlice s = place(chunks, i, LENGTH);
            chunks.recycle(List.of(s));
        }
        long allocated = chunks.chunksAllocated();
        // Its chunk is forgotten, not reused: handing it back late changes nothing.
        chunks.recycle(List.of(dropped));
        for (long i = records; i < records + 10L * perChunk; i++) {
            chunks.recycle(List.of(place(chunks, i, LENGTH)));
        }

        assertIntact(dropped);
        assertEquals(allocated, chunks.chunksAllocated(), "the other chunks are still reused");
    }

    @Test
    void chunksAreNotTrackedUntilRecordsComeBack() {
        RecordChunks chunks = new RecordChunks();
        int perChunk = RecordChunks.CHUNK_BYTES / LENGTH;
        List<RecordSlice> early = new ArrayList<>();
        for (int i = 0; i < 3 * perChunk; i++) {
            early.add(place(chunks, i, LENGTH));
        }
        // Records placed before the first hand-back come back too late to free their chunks.
        chunks.recycle(early);
        for (int i = 3 * perChunk; i < 10 * perChunk; i++) {
            chunks.recycle(List.of(place(chunks, i, LENGTH)));
        }

        early.forEach(RecordChunksTest::assertIntact);
        assertEquals(4, chunks.chunksAllocated(), "three untracked, then one used over and over");
    }

    @Test
    void aRecordHandedBackTwiceIsCaughtWhenItsChunkHasNoneOut() {
        RecordChunks chunks = new RecordChunks();
        chunks.recycle(List.of());
        RecordSlice s = place(chunks, 0, LENGTH);
        chunks.recycle(List.of(s));

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> chunks.recycle(List.of(s)));
        assertTrue(e.getMessage().contains("came back twice"), e.getMessage());
    }

    @Test
    void samplesPlacedElsewhereArePassedOver() {
        RecordChunks chunks = new RecordChunks();
        chunks.recycle(List.of());
        RecordSlice mine = place(chunks, 0, LENGTH);
        RecordSlice other = new RecordSlice(MemorySegment.ofArray(payload(1, LENGTH)), "g", 1, 0);

        chunks.recycle(Arrays.asList(other, "not a record", mine));

        assertIntact(other);
        assertIntact(mine);
    }

    @Test
    void lengthsOutsideAChunkAreRefused() {
        RecordChunks chunks = new RecordChunks();
        assertThrows(IllegalArgumentException.class, () -> chunks.room(RecordChunks.LARGEST + 1));
        assertThrows(IllegalArgumentException.class, () -> chunks.room(-1));
        assertThrows(IllegalStateException.class, () -> chunks.take(1, "f", 0, 0), "take before room");
        assertEquals(0, place(chunks, 0, 0).length(), "an empty payload is a record too");
        assertIntact(place(chunks, 1, RecordChunks.LARGEST));
    }
}
