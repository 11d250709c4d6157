package org.dataloader4j.benchmarks;

import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;

/**
 * The records a shuffling copy holds, as {@code RandomShuffleDataset} holds its samples: until
 * the window is full each record offered is kept; after that each one offered takes the place of
 * a kept record drawn at random, which is handed on; at the end the kept records are handed on in
 * random order. Records are where they lie (a segment, a start and a length), never copied here.
 */
final class ShuffleWindow {
    /** Where a record drawn from the window goes. */
    @FunctionalInterface
    interface Sink {
        void accept(MemorySegment source, long start, long length);
    }

    private final MemorySegment[] sources;
    private final long[] starts;
    private final long[] lengths;
    private final SplittableRandom random;
    private int kept;

    /** A window of {@code capacity} records, drawn from with a generator seeded with {@code seed}. */
    ShuffleWindow(int capacity, long seed) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        sources = new MemorySegment[capacity];
        starts = new long[capacity];
        lengths = new long[capacity];
        random = new SplittableRandom(seed);
    }

    /** Keeps a record; once the window is full, hands a kept one drawn at random to {@code sink} first. */
    void offer(MemorySegment source, long start, long length, Sink sink) {
        int i = kept;
        if (kept == sources.length) {
            i = random.nextInt(kept);
            sink.accept(sources[i], starts[i], lengths[i]);
        } else {
            kept++;
        }
        sources[i] = source;
        starts[i] = start;
        lengths[i] = length;
    }

    /** Hands every kept record to {@code sink}, in random order, and empties the window. */
    void drain(Sink sink) {
        while (kept > 0) {
            int i = random.nextInt(kept);
            sink.accept(sources[i], starts[i], lengths[i]);
            kept--;
            sources[i] = sources[kept];
            starts[i] = starts[kept];
            lengths[i] = lengths[kept];
            sources[kept] = null;
        }
    }
}
