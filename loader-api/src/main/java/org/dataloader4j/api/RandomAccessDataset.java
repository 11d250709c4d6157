package org.dataloader4j.api;

/**
 * A dataset whose samples can also be fetched by index, such as a record file with an index of
 * record offsets. Single-threaded, like every {@link Dataset}.
 *
 * @param <T> the sample type
 */
public interface RandomAccessDataset<T> extends Dataset<T> {

    /**
     * Sample {@code index}, counted from 0 in the order {@link #next()} yields them in epoch 0.
     *
     * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, size())}
     */
    T at(long index);

    /** The number of samples in one epoch. */
    long size();

    /**
     * Says that the next calls of {@link #at} will ask for {@code indices[0 .. count)}, in that
     * order, so that a dataset over remote storage can fetch those samples together: one round
     * trip for many samples, not one each. A hint only: {@link #at} must still answer any index,
     * hinted or not. The array may be reused once this returns. The default does nothing.
     *
     * @throws IndexOutOfBoundsException if an index is not in {@code [0, size())}
     */
    default void prefetch(long[] indices, int count) {
    }
}
