package org.dataloader4j.core.reader;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Lease;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;

/**
 * A {@link Batch} over one slot at one generation: the parser's view while it fills the slot,
 * and the training loop's view until the slot is released. Every access first checks that the
 * slot has not been released since the view was made.
 */
final class SlotView implements Batch, Lease {
    private final Slot slot;
    /** The slot's tensors when the view was made: they go back to the pool on release. */
    private final Slot.Output[] outputs;
    private final long generation;
    private final int size;
    private final int capacity;
    private final Runnable release;
    private final Object[] views;

    /** A view of {@code size} rows; {@code release} (may be null) is run by {@link #close()}. */
    SlotView(Slot slot, int size, int capacity, Runnable release) {
        this.slot = slot;
        this.generation = slot.generation;
        this.outputs = slot.outputs;
        this.size = size;
        this.capacity = capacity;
        this.release = release;
        this.views = new Object[outputs.length];
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
    public long index() {
        check();
        return slot.index;
    }

    @Override
    public List<String> names() {
        check();
        List<String> names = new ArrayList<>(outputs.length);
        for (Slot.Output o : outputs) {
            names.add(o.spec().name());
        }
        return Collections.unmodifiableList(names);
    }

    @Override
    public Tensor tensor(String name) {
        int i = find(name, false);
        if (views[i] == null) {
            Slot.Output o = outputs[i];
            views[i] = Tensor.of(name, o.values(), o.spec().shape().withRows(size), o.spec().dataType(), this);
        }
        return (Tensor) views[i];
    }

    @Override
    public RaggedTensor ragged(String name) {
        int i = find(name, true);
        if (views[i] == null) {
            Slot.Output o = outputs[i];
            Tensor values = Tensor.of(name, o.values(), Shape.of(o.spec().valueCapacity()), o.spec().dataType(), this);
            Tensor offsets = Tensor.of(name + ".offsets", o.offsets(), Shape.of(size + 1L), DataType.INT64, this);
            views[i] = new RaggedTensor(name, values, offsets);
        }
        return (RaggedTensor) views[i];
    }

    private int find(String name, boolean ragged) {
        check();
        for (int i = 0; i < outputs.length; i++) {
            if (outputs[i].spec().name().equals(name)) {
                if (outputs[i].spec().isRagged() != ragged) {
                    throw new IllegalArgumentException(name + " is " + (ragged ? "dense: use tensor()" : "ragged: use ragged()"));
                }
                return i;
            }
        }
        throw new IllegalArgumentException("no output named " + name + "; outputs: " + names());
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
