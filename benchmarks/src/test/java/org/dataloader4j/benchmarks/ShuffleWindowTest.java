package org.dataloader4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The order the shuffled copy takes its records in: each record once, none before it was offered, seeded. */
class ShuffleWindowTest {
    private static final MemorySegment SOURCE = MemorySegment.ofArray(new byte[1]);

    /** Offers records 0 … n-1 (the record's number as its start, twice it as its length) and returns the starts drawn, in order. */
    private static List<Long> drawn(int n, int capacity, long seed) {
        ShuffleWindow window = new ShuffleWindow(capacity, seed);
        List<Long> out = new ArrayList<>();
        ShuffleWindow.Sink sink = (source, start, length) -> {
            assertSame(SOURCE, source);
            assertEquals(2 * start, length, "a record's start and length travel together");
            out.add(start);
        };
        for (long i = 0; i < n; i++) {
            window.offer(SOURCE, i, 2 * i, sink);
            assertEquals(Math.max(0, i + 1 - capacity), out.size(), "a full window hands one record on per record offered");
        }
        window.drain(sink);
        return out;
    }

    @Test
    void everyRecordIsHandedOnOnceWithinItsWindow() {
        int n = 5_000;
        int capacity = 64;
        List<Long> order = drawn(n, capacity, 7);
        assertEquals(LongStream.range(0, n).boxed().toList(), order.stream().sorted().toList());
        for (int position = 0; position < n; position++) {
            long record = order.get(position);
            // Drawn at the earliest by the offer after its own: the (record + 1)th offer hands on the (record + 1 - capacity)th.
            assertTrue(position >= record + 1 - capacity, "record " + record + " at " + position);
        }
        assertNotEquals(LongStream.range(0, n).boxed().toList(), order, "not shuffled");
        assertEquals(order, drawn(n, capacity, 7), "the same seed, the same order");
        assertNotEquals(order, drawn(n, capacity, 8));
    }

    @Test
    void aWindowOfOneKeepsFileOrder() {
        assertEquals(LongStream.range(0, 100).boxed().toList(), drawn(100, 1, 3));
    }

    @Test
    void fewerRecordsThanTheWindowAreAllDrawnAtTheEnd() {
        List<Long> order = drawn(10, 64, 5);
        assertEquals(LongStream.range(0, 10).boxed().toList(), order.stream().sorted().toList());
    }
}
