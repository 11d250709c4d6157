package org.dataloader4j.api;

import java.util.List;

/**
 * One batch of parsed samples: {@link #size()} rows of every output its parser declared.
 *
 * <p>A batch handed out by a reader is a view of preallocated memory, valid until the next
 * {@code read()} or its own {@link #close()}. After that every method but {@code close()} throws
 * {@link IllegalStateException}, and so do the tensors taken from it. A parser receives the
 * batch it fills; there {@code size()} is the number of samples it was given.
 */
public interface Batch extends AutoCloseable {

    /** The number of rows: the batch size, or fewer for a partial last batch. */
    int size();

    /** The number of rows the memory holds (the batch size the reader was built for). */
    int capacity();

    /**
     * The epoch of the newest sample read so far, counted from 0: the epoch of the batch's last
     * row, or, behind a shuffle buffer that mixes epochs near a boundary, the highest epoch of any
     * row handed out so far. It never goes back. A batch across an epoch boundary holds rows of
     * two epochs: {@link #epoch(int)} tells each row's.
     */
    long epoch();

    /**
     * The epoch row {@code row} was read in, counted from 0: with a shuffle buffer, the epoch the
     * sample was read in, not the one it was handed out in. At most {@link #epoch()}.
     *
     * @throws IndexOutOfBoundsException if {@code row} is not in {@code [0, size())}
     */
    long epoch(int row);

    /**
     * The step of this batch: its position in the reader's output, counted from 0 over the whole
     * run. A reader started from a saved state ({@code ReaderOptions.restore}) goes on counting
     * where the reader the state was taken from stopped, so the first batch after a restore has
     * the step the uninterrupted run would have given it (a state saved before steps were kept
     * starts again at 0).
     */
    long index();

    /** The names of the outputs, in the order the parser declared them. */
    List<String> names();

    /**
     * The dense output {@code name}, its dimension 0 cut to {@link #size()}.
     *
     * @throws IllegalArgumentException if there is no dense output of that name
     */
    Tensor tensor(String name);

    /**
     * The ragged output {@code name}, with {@link #size()} rows.
     *
     * @throws IllegalArgumentException if there is no ragged output of that name
     */
    RaggedTensor ragged(String name);

    /** Releases the batch to the runtime before the next {@code read()}. Idempotent. */
    @Override
    void close();
}
