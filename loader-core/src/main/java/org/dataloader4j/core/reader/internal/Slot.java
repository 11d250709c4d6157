package org.dataloader4j.core.reader.internal;

import java.util.List;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.batch.OutputSet;

/**
 * One entry of the ring: a batch's samples and where they came from (written by the load
 * thread), the tensors its batch is parsed into (a set from the {@link OutputPool}, taken by the
 * parse stage and given back on release), and a generation that the consumer bumps when it
 * releases the slot, which invalidates every view of the previous batch.
 *
 * <p>The ring's sequences order the hand-offs: load thread → publish → parse stage → parsed
 * sequence → consumer → consumer sequence → load thread.
 */
final class Slot {
    /** The tensors of the batch in this slot: none until the parse stage takes a set. */
    OutputSet outputs;

    long index;
    int rows;
    List<?> samples;
    /** The dataset's last checkpointed state, and the batches it yielded since (see {@link ReaderState}). */
    DatasetState checkpoint;
    int sinceCheckpoint;
    long epoch;
    /** The epoch of each row; made at the slot's first batch, as long as the reader's batch size. */
    long[] rowEpochs;
    boolean end;
    Throwable failure;
    String failedStage;

    /** Changed only by the consumer, on release; read by views on any thread. */
    volatile long generation;

    /** A ring slot: its tensors come from the pool when its batch is parsed. */
    Slot() {
    }

    void load(long index, List<?> samples, DatasetState checkpoint, int sinceCheckpoint, long epoch, long[] epochs,
              boolean end, Throwable failure) {
        this.index = index;
        this.samples = samples;
        this.rows = samples == null ? 0 : samples.size();
        this.checkpoint = checkpoint;
        this.sinceCheckpoint = sinceCheckpoint;
        this.epoch = epoch;
        if (rowEpochs == null) {
            rowEpochs = new long[epochs.length];
        }
        if (failure == null) {
            System.arraycopy(epochs, 0, rowEpochs, 0, rows);
        }
        this.end = end;
        this.failure = failure;
        this.failedStage = failure == null ? null : "load";
    }

    void fail(String stage, Throwable t) {
        failure = t;
        failedStage = stage;
    }
}
