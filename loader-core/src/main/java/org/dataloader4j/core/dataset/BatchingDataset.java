package org.dataloader4j.core.dataset;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.dataloader4j.api.Dataset;

/**
 * A dataset that yields whole batches: up to {@link #batchSize()} samples per {@code next()}. A
 * reader over it allocates that many rows in each slot; a reader over any other dataset, one.
 * {@link BatchDataset} and {@link GroupBatchDataset} are batching datasets; a dataset of one's
 * own that yields several samples per step implements this too.
 *
 * @param <T> the sample type
 */
public interface BatchingDataset<T> extends Dataset<T> {

    /** The most samples one {@code next()} yields. */
    int batchSize();

    /**
     * The epoch row {@code row} of the batch yielded last was read in. A reader asks it for every
     * row after each batch, so that a batch across an epoch boundary can be split by epoch
     * ({@code Batch.epoch(int)}). The default, {@link #epoch()} for every row, is right for a
     * dataset whose batches never cross an epoch boundary; every built-in batching dataset keeps
     * each row's own.
     */
    default long epochOf(int row) {
        return epoch();
    }

    /**
     * The batches one epoch's samples fill, where {@link #samplesPerEpoch()} is known and the
     * batches are cut by count alone: {@code ceil(n / batchSize)}, or {@code floor(n / batchSize)}
     * where a partial last batch is dropped. Batches run on across epoch boundaries (a batch may
     * end one epoch and start the next, see {@code Batch.epoch(int)}), so over {@code E} epochs
     * the reader yields this count for {@code E × n / batchSize} rounded the same way: exactly
     * {@code E} times this where {@code n} is a multiple of the batch size. Empty by default,
     * and for batches whose sizes depend on the data (a {@link GroupBatchDataset}).
     */
    default OptionalLong stepsPerEpoch() {
        return OptionalLong.empty();
    }

    /**
     * The steps of {@code samples} samples cut into batches of {@code batchSize}: rounded up, or
     * down if a partial last batch is dropped; empty if {@code samples} is. For the datasets that
     * cut batches by count.
     */
    static OptionalLong stepsOf(OptionalLong samples, int batchSize, boolean dropRemainder) {
        if (samples.isEmpty()) {
            return samples;
        }
        long n = samples.getAsLong();
        return OptionalLong.of(dropRemainder ? n / batchSize : (n + batchSize - 1) / batchSize);
    }

    /**
     * A list to collect one batch in: a reader fills one per slot of its ring with
     * {@link #nextInto} and reuses it when the slot comes round. The default is an
     * {@code ArrayList}; a dataset may hand out a list of its own that holds its samples more
     * cheaply (as record numbers, say), which its {@code nextInto} then fills.
     */
    default List<T> newBatch() {
        return new ArrayList<>(batchSize());
    }
}
