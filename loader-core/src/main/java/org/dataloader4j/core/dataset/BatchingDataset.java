package org.dataloader4j.core.dataset;

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
}
