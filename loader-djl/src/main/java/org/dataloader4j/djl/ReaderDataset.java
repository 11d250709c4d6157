package org.dataloader4j.djl;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.training.dataset.Batch;
import ai.djl.training.dataset.Dataset;
import ai.djl.translate.Batchifier;
import ai.djl.util.Progress;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.reader.DataReader;

/**
 * A DJL {@link Dataset} over a {@link DataReader}: each {@link #getData(NDManager)} iterates over
 * one epoch of the reader's batches as DJL {@link Batch}es, for {@code EasyTrain.fit} or a loop
 * of its own. The outputs named as {@code data} and {@code labels} become the batch's two
 * {@link NDList}s, in that order, each an {@link ai.djl.ndarray.NDArray} of the tensor's shape and type.
 *
 * <p><b>No copy where the engine can take the memory.</b> Each NDArray is made by
 * {@link NDArrays#of} from a direct {@link ByteBuffer} over the tensor's off-heap memory. DJL's PyTorch engine wraps such a buffer on the CPU without
 * copying ({@code torch::from_blob}); other engines, and PyTorch on a GPU, copy it. The NDArrays
 * therefore view the reader's slot: the reader keeps the batch until DJL closes it
 * ({@link Batch#close()}, which {@code EasyTrain.fit} calls after each step), and only then
 * recycles its memory. Taking the next batch while the last one is still open throws
 * {@link IllegalStateException}, rather than let its NDArrays see the next batch's values.
 *
 * <p><b>Epochs.</b> An iteration ends before the first batch whose {@code epoch()} is higher
 * than its first batch's; that batch is kept for the next {@code getData}. A batch that holds
 * samples of two epochs (the reader batches across the boundary, and a shuffle buffer mixes
 * epochs near it) counts as the later, so an iteration holds about an epoch, and all of them
 * together every batch exactly once. When the reader is at its end, an iteration is empty.
 * Build the reader with as many epochs as the training loop runs.
 *
 * <p><b>Resume.</b> {@link #state()} is the reader's state as of the last batch handed to DJL;
 * save it with the model's parameters, and restore both: a reader built with
 * {@code ReaderOptions.Builder.restore(state)} continues with the next batch.
 *
 * <p>Not thread-safe: one training loop iterates it, as over any DJL dataset. {@link #close()}
 * closes the reader.
 */
public final class ReaderDataset implements Dataset, AutoCloseable {
    private final DataReader reader;
    private final List<String> data;
    private final List<String> labels;
    /** A batch read but not yet handed out: the first of the next epoch, or the next of this one. */
    private org.dataloader4j.api.Batch held;
    /** The reader's state before {@link #held} was read. */
    private DatasetState heldState;
    /** The last batch handed out, until DJL closes it. */
    private Handed handed;
    private long steps;

    private ReaderDataset(DataReader reader, List<String> data, List<String> labels) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.data = List.copyOf(data);
        this.labels = List.copyOf(labels);
        if (this.data.isEmpty()) {
            throw new IllegalArgumentException("data must name at least one output: data=" + data);
        }
    }

    /**
     * A dataset over {@code reader}, whose batches carry the outputs {@code data} as DJL data and
     * {@code labels} as DJL labels. It owns the reader: {@link #close()} closes it.
     *
     * @throws IllegalArgumentException if {@code data} is empty
     */
    public static ReaderDataset of(DataReader reader, List<String> data, List<String> labels) {
        return new ReaderDataset(reader, data, labels);
    }

    /** The reader's state as of the last batch handed to DJL: restoring it continues with the next. */
    public DatasetState state() {
        return held != null ? heldState : reader.state();
    }

    /** The batches handed to DJL so far by this dataset (a restored run counts from 0 again). */
    public long steps() {
        return steps;
    }

    /** The reader this dataset takes its batches from. */
    public DataReader reader() {
        return reader;
    }

    /**
     * One epoch of batches, each made with a sub-manager of {@code manager} and valid until it is
     * closed; the next batch is taken only after that.
     */
    @Override
    public Iterable<Batch> getData(NDManager manager) {
        Objects.requireNonNull(manager, "manager");
        return () -> new Epoch(manager);
    }

    /** Nothing to prepare: the reader is already running. */
    @Override
    public void prepare(Progress progress) {
    }

    /** Closes the reader, and with it the memory of every batch. Idempotent. */
    @Override
    public void close() {
        reader.close();
    }

    /**
     * Reads the next batch into {@link #held} unless one is held already; false at the end of
     * the data.
     */
    private boolean hold() {
        if (held != null) {
            return true;
        }
        if (handed != null && !handed.released) {
            throw new IllegalStateException("the last batch is still open: close it (EasyTrain.fit does) before taking the "
                    + "next, since its NDArrays view the reader's memory (" + reader + ")");
        }
        DatasetState before = reader.state();
        org.dataloader4j.api.Batch next = reader.read();
        if (next == null) {
            return false;
        }
        held = next;
        heldState = before;
        return true;
    }

    private Batch hand(NDManager parent, long progress) {
        org.dataloader4j.api.Batch batch = held;
        held = null;
        heldState = null;
        NDManager manager = parent.newSubManager();
        try {
            handed = new Handed(batch);
            manager.attachInternal("dataloader4j-batch-" + batch.index(), handed);
            Batch b = new Batch(manager, arrays(manager, batch, data), arrays(manager, batch, labels), batch.size(),
                    Batchifier.STACK, Batchifier.STACK, progress, 0);
            steps++;
            return b;
        } catch (RuntimeException e) {
            manager.close();
            throw e;
        }
    }

    private static NDList arrays(NDManager manager, org.dataloader4j.api.Batch batch, List<String> names) {
        NDList list = new NDList(names.size());
        for (String name : names) {
            list.add(NDArrays.of(manager, batch.tensor(name)));
        }
        return list;
    }

    /** A batch handed to DJL; its manager closes it, which releases the reader's slot. */
    private static final class Handed implements AutoCloseable {
        private final org.dataloader4j.api.Batch batch;
        private volatile boolean released;

        Handed(org.dataloader4j.api.Batch batch) {
            this.batch = batch;
        }

        @Override
        public void close() {
            released = true;
            batch.close();
        }
    }

    /** The batches of one epoch: the epoch of the first, until a batch of another. */
    private final class Epoch implements Iterator<Batch> {
        private final NDManager manager;
        private long epoch = -1;
        private long progress;

        Epoch(NDManager manager) {
            this.manager = manager;
        }

        @Override
        public boolean hasNext() {
            if (!hold()) {
                return false;
            }
            if (epoch < 0) {
                epoch = held.epoch();
            }
            return held.epoch() == epoch;
        }

        @Override
        public Batch next() {
            if (!hasNext()) {
                throw new NoSuchElementException("no more batches in epoch " + epoch + " of " + reader);
            }
            return hand(manager, progress++);
        }
    }
}
