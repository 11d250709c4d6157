package org.dataloader4j.format.store;

import java.io.Closeable;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * Reads many byte ranges of one file in one call, for random access by record position: the
 * ranges go to the store together (sorted, so that a store may merge neighbours and read them
 * in one request), not one request per record.
 *
 * <p>Thread-safe: any thread may read, and reads may overlap.
 */
public interface RangeReader extends Closeable {

    /**
     * Starts reading {@code into.length} ranges: range {@code i} starts at byte
     * {@code offsets[i]} of the file and fills {@code into[i]} from its position to its limit.
     * The offsets are ascending and the ranges do not overlap. The future completes when every
     * buffer is full, or exceptionally, with an {@link java.io.IOException} naming the file and
     * the offset (an {@link java.io.EOFException} where the file is shorter than a range); the
     * buffers are not touched after it completes.
     *
     * @throws IllegalArgumentException if the arrays differ in length, or the ranges are not
     *                                  ascending and disjoint
     */
    CompletableFuture<Void> read(long[] offsets, ByteBuffer[] into);

    /**
     * Checks {@link #read}'s arguments.
     *
     * @throws IllegalArgumentException as {@link #read} says
     */
    static void checkRanges(long[] offsets, ByteBuffer[] into) {
        if (offsets.length != into.length) {
            throw new IllegalArgumentException("one buffer per range: ranges=" + offsets.length + " buffers=" + into.length);
        }
        long end = 0;
        for (int i = 0; i < offsets.length; i++) {
            if (offsets[i] < end) {
                throw new IllegalArgumentException("ranges must be ascending and disjoint: range " + i + " starts at "
                        + offsets[i] + ", before " + end);
            }
            end = offsets[i] + into[i].remaining();
        }
    }
}
