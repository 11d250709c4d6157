package org.dataloader4j.core.reader.internal;

import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.ByteSized;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.dataset.BatchingDataset;
import org.dataloader4j.core.dataset.ForwardingDataset;
import org.dataloader4j.core.dataset.SampleRecycler;

/**
 * The load thread's work: pulls batches of samples from the dataset stack and publishes each in
 * the next slot of the ring, with where the dataset stands after it (see {@link ReaderState}).
 *
 * <p>For each batch: {@code dataset.nextInto} (a failure there is stored in the slot, which
 * ends the stream at it), then a wait for a free slot (a full ring is the backpressure), then
 * the claim, which hands the samples of the batch the slot held before (parsed and released by
 * now) back to the dataset that made them, if it takes them back ({@link SampleRecycler}), and
 * reuses their list, and the publish. The end of the data is a slot too. The loop ends there, at a failure, or when the
 * pipeline stops (its wait is alerted).
 *
 * <p>Its counters are written by the load thread alone and read by any ({@code volatile}).
 *
 * @param <T> the sample type
 */
final class LoadLoop<T> implements Runnable {
    private final SlotRing ring;
    private final Dataset<T> dataset;
    /** The dataset that made the samples, if it takes them back; null if not. */
    private final SampleRecycler<T> recycler;
    private final int capacity;
    private final int checkpointEvery;
    /** The dataset's state before the first batch: the first checkpoint. */
    private final DatasetState initialState;
    /** The step of the first batch: 0, or where the restored reader's state stopped. */
    private final long firstStep;
    /** The epoch of each row of the batch being loaded. */
    private final long[] rowEpochs;

    /** Set before the last slot (the end, or a load failure) is published: the dataset is not touched after it. */
    private volatile boolean finished;
    private volatile long samples;
    private volatile long payloadBytes;
    private volatile long busyNanos;
    private volatile long blockedNanos;

    LoadLoop(SlotRing ring, Dataset<T> dataset, DatasetState initialState, long firstStep, int capacity,
             int checkpointEvery) {
        this.ring = ring;
        this.dataset = dataset;
        this.recycler = ForwardingDataset.recycler(dataset).orElse(null);
        this.initialState = initialState;
        this.firstStep = firstStep;
        this.rowEpochs = new long[capacity];
        this.capacity = capacity;
        this.checkpointEvery = checkpointEvery;
    }

    @Override
    public void run() {
        try {
            DatasetState checkpoint = initialState;
            int sinceCheckpoint = 0;
            // The list the next batch's samples go into: a new one until the ring has gone round
            // once, then the list of the batch whose slot is claimed.
            List<T> batch = newBatch();
            for (long index = 0; ; index++) {
                long epoch = 0;
                Throwable failure = null;
                long start = System.nanoTime();
                try {
                    batch.clear();
                    int n = dataset.nextInto(batch);
                    if (n > capacity) {
                        throw new IllegalStateException("the dataset yielded " + n + " samples in one step, more than"
                                + " the reader's batch size, " + capacity + " (a dataset that yields several samples a"
                                + " step is a BatchingDataset, whose batchSize() is the reader's)");
                    }
                    sinceCheckpoint++;
                    if (sinceCheckpoint == checkpointEvery || batch.isEmpty()) {
                        checkpoint = dataset.state();
                        sinceCheckpoint = 0;
                    }
                    epoch = dataset.epoch();
                    rowEpochs(batch.size(), epoch);
                    count(batch);
                } catch (Throwable t) {
                    failure = t;
                }
                long loaded = System.nanoTime();
                busyNanos += loaded - start;
                if (!ring.awaitFree(index)) {
                    return;
                }
                blockedNanos += System.nanoTime() - loaded;
                long sequence = ring.claim();
                assert sequence == index : "sequence " + sequence + " for batch " + index;
                boolean end = failure == null && batch.isEmpty();
                if (end || failure != null) {
                    finished = true;
                }
                Slot slot = ring.slot(sequence);
                @SuppressWarnings("unchecked")
                List<T> done = (List<T>) slot.samples;
                slot.load(firstStep + index, batch, checkpoint, sinceCheckpoint, epoch, rowEpochs, end, failure);
                ring.publish(sequence);
                if (end || failure != null) {
                    return;
                }
                if (done != null) {
                    if (recycler != null) {
                        recycler.recycle(done);
                    }
                    batch = done;
                } else {
                    batch = newBatch();
                }
            }
        } catch (Throwable t) {
            ring.fail(t);
        }
    }

    /** Notes each row's epoch: a batching dataset's for each row, else the one sample's, {@code epoch}. */
    private void rowEpochs(int rows, long epoch) {
        if (dataset instanceof BatchingDataset<T> batching) {
            for (int row = 0; row < rows; row++) {
                rowEpochs[row] = batching.epochOf(row);
            }
        } else if (rows > 0) {
            rowEpochs[0] = dataset.sampleEpoch();
        }
    }

    /** A list for one batch: the dataset's own kind, if it batches. */
    private List<T> newBatch() {
        return dataset instanceof BatchingDataset<T> batching ? batching.newBatch() : new ArrayList<>(capacity);
    }

    private void count(List<T> batch) {
        long bytes = 0;
        if (batch instanceof ByteSized sized) {
            // A batch that knows its bytes (record numbers): its samples are not objects to ask.
            bytes = sized.byteSize();
        } else {
            for (T sample : batch) {
                if (sample instanceof ByteSized sized) {
                    bytes += sized.byteSize();
                }
            }
        }
        samples += batch.size();
        payloadBytes += bytes;
    }

    /** Whether the loop has published its last slot, after which it does not touch the dataset again. */
    boolean finished() {
        return finished;
    }

    long samples() {
        return samples;
    }

    long payloadBytes() {
        return payloadBytes;
    }

    long busyNanos() {
        return busyNanos;
    }

    long blockedNanos() {
        return blockedNanos;
    }
}
