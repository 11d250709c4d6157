package org.dataloader4j.core.dataset;

import java.util.ArrayList;
import java.util.List;
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
     * A list to collect one batch in: a reader fills one per slot of its ring with
     * {@link #nextInto} and reuses it when the slot comes round. The default is an
     * {@code ArrayList}; a dataset may hand out a list of its own that holds its samples more
     * cheaply (as record numbers, say), which its {@code nextInto} then fills.
     */
    default List<T> newBatch() {
        return new ArrayList<>(batchSize());
    }
}
