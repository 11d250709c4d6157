package org.dataloader4j.core.reader.internal;

import com.lmax.disruptor.AlertException;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataLoaderException;
import org.dataloader4j.api.StorageException;
import org.dataloader4j.api.DatasetState;

/**
 * The consumer's side of a pipeline: hands out the parsed slots in order, one at a time, as
 * {@link Batch} views, releases each when the next is asked for (or the view is closed), and
 * keeps where the dataset stood after the last batch handed out.
 *
 * <p>For one consuming thread; its counters may be read from any ({@code volatile}).
 */
public final class Delivery {
    private final Pipeline<?> pipeline;
    private final SlotRing ring;
    private final String name;
    private final int capacity;
    /** Null for a reader whose parse does not replace corrupt records. */
    private final SkipBudget skips;

    private long nextSequence;
    private long heldSequence = -1;
    private boolean ended;
    private DataLoaderException failure;
    /** Where the dataset stands as of the last batch handed out: a checkpoint and the batches since. */
    private DatasetState delivered;
    private int deliveredSince;
    /** The step of the next batch to hand out. */
    private long nextStep;

    private volatile long stallNanos;
    private volatile long batchesRead;

    /**
     * The consumer's side of {@code pipeline}, whose dataset stands at {@code initialState} before
     * the first batch; the corrupt records its parse replaced are counted against {@code skips}
     * (null for a strict reader) as each batch is handed out.
     */
    public Delivery(Pipeline<?> pipeline, DatasetState initialState, SkipBudget skips) {
        this.nextStep = pipeline.settings().firstStep();
        this.pipeline = pipeline;
        this.ring = pipeline.ring();
        this.name = pipeline.settings().name();
        this.capacity = pipeline.settings().capacity();
        this.delivered = initialState;
        this.skips = skips;
    }

    /**
     * The next batch, waiting until it is parsed; {@code null} at the end of the data. Releases
     * the batch handed out before.
     *
     * @throws CorruptDataException  if the input of this batch is malformed; every later call
     *                               throws it again
     * @throws DataLoaderException   if loading or parsing failed at this batch for another reason
     *                               (the failure is the cause), every later call throwing it
     *                               again; or if the calling thread is interrupted while it waits
     *                               (its interrupt status stays set)
     * @throws IllegalStateException if the pipeline stops or fails outside any batch meanwhile
     */
    public Batch next() {
        if (failure != null) {
            throw failure;
        }
        if (ended) {
            return null;
        }
        releaseHeld();
        long sequence = nextSequence;
        await(sequence);
        Slot slot = ring.slot(sequence);
        if (slot.failure != null) {
            failure = failure(slot);
            throw failure;
        }
        if (skips != null && !slot.end) {
            try {
                skips.count(slot.samples, slot.rows);
            } catch (CorruptDataException e) {
                e.addSuppressed(new DataLoaderException("reader " + name + " went past its skip budget at batch "
                        + slot.index + "; rethrown by read()"));
                failure = e;
                throw e;
            }
        }
        nextSequence++;
        delivered = slot.checkpoint;
        deliveredSince = slot.sinceCheckpoint;
        if (slot.end) {
            ended = true;
            pipeline.release(sequence);
            return null;
        }
        batchesRead++;
        nextStep = slot.index + 1;
        heldSequence = sequence;
        return new SlotView(slot, slot.rows, capacity, () -> release(sequence));
    }

    private void await(long sequence) {
        if (ring.isParsed(sequence)) {
            return;
        }
        long start = System.nanoTime();
        try {
            ring.awaitParsed(sequence);
        } catch (AlertException e) {
            Throwable fatal = ring.fatal();
            if (fatal != null) {
                throw new IllegalStateException("reader " + name + " failed", fatal);
            }
            throw new IllegalStateException("reader " + name + " is closed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DataLoaderException("interrupted while reader " + name + " waited for batch " + sequence, e);
        } finally {
            stallNanos += System.nanoTime() - start;
        }
    }

    /**
     * What {@code next()} throws for the failure in {@code slot}: bad input as the
     * {@link CorruptDataException} itself, which names the file, record and offset, and a failed
     * read of a remote file as the {@link StorageException} itself, which names them too; anything else
     * wrapped, naming the stage and the batch. Either way the stage and batch are recorded.
     */
    private DataLoaderException failure(Slot slot) {
        String where = slot.failedStage + " stage of reader " + name + " failed at batch " + slot.index;
        if (slot.failure instanceof CorruptDataException corrupt) {
            corrupt.addSuppressed(new DataLoaderException(where + "; rethrown by read()"));
            return corrupt;
        }
        if (slot.failure instanceof StorageException unreadable) {
            unreadable.addSuppressed(new DataLoaderException(where + "; rethrown by read()"));
            return unreadable;
        }
        return new DataLoaderException(where + ": " + slot.failure, slot.failure);
    }

    private void release(long sequence) {
        if (heldSequence == sequence) {
            heldSequence = -1;
            pipeline.release(sequence);
        }
    }

    private void releaseHeld() {
        if (heldSequence >= 0) {
            release(heldSequence);
        }
    }

    /**
     * The dataset's state as of the last batch handed out (see {@link ReaderState}), with the skip
     * counts as of then, if the reader skips ({@link SkipBudget#wrap}), and the next batch's step
     * around both ({@link ReaderState#withStep}).
     */
    public DatasetState state() {
        DatasetState state = ReaderState.of(delivered, deliveredSince);
        return ReaderState.withStep(skips == null ? state : skips.wrap(state), nextStep);
    }

    /** The batches handed out. */
    public long batchesRead() {
        return batchesRead;
    }

    /** The time the consumer waited for batches, in nanoseconds. */
    public long stallNanos() {
        return stallNanos;
    }
}
