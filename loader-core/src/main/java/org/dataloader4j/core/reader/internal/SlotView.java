package org.dataloader4j.core.reader.internal;

import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.Lease;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.core.batch.OutputSet;

/**
 * A {@link Batch} over one slot at one generation: the parser's view while it fills the slot,
 * and the training loop's view until the slot is released. Every access first checks that the
 * slot has not been released since the view was made.
 */
final class SlotView implements Batch, Lease {
    private final Slot slot;
    /** The slot's tensors when the view was made: they go back to the pool on release. */
    private final OutputSet outputs;
    private final long generation;
    private final int size;
    private final int capacity;
    private final Runnable release;
    /** Each output's view, made on first use. */
    private final Object[] views;

    /** A view of {@code size} rows; {@code release} (may be null) is run by {@link #close()}. */
    SlotView(Slot slot, int size, int capacity, Runnable release) {
        this.slot = slot;
        this.generation = slot.generation;
        this.outputs = slot.outputs;
        this.size = size;
        this.capacity = capacity;
        this.release = release;
        this.views = new Object[outputs.size()];
    }

    @Override
    public void check() {
        if (slot.generation != generation) {
            throw new IllegalStateException("batch " + slot.index
                    + " has been released: a Batch is valid until the next read() or its close()");
        }
    }

    @Override
    public int size() {
        check();
        return size;
    }

    @Override
    public int capacity() {
        check();
        return capacity;
    }

    @Override
    public long epoch() {
        check();
        return slot.epoch;
    }

    @Override
    public long epoch(int row) {
        check();
        return slot.rowEpochs[Objects.checkIndex(row, size)];
    }

    @Override
    public long index() {
        check();
        return slot.index;
    }

    @Override
    public List<String> names() {
        check();
        return outputs.names();
    }

    @Override
    public Tensor tensor(String name) {
        check();
        int i = outputs.indexOf(name, false);
        if (views[i] == null) {
            views[i] = outputs.tensor(i, size, this);
        }
        return (Tensor) views[i];
    }

    @Override
    public RaggedTensor ragged(String name) {
        check();
        int i = outputs.indexOf(name, true);
        if (views[i] == null) {
            views[i] = outputs.ragged(i, size, this);
        }
        return (RaggedTensor) views[i];
    }

    @Override
    public void close() {
        if (release != null) {
            release.run();
        }
    }

    @Override
    public String toString() {
        return "Batch[index=" + slot.index + ", size=" + size + "]";
    }
}
