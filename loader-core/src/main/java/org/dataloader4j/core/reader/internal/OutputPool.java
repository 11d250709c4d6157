package org.dataloader4j.core.reader.internal;

import java.lang.foreign.Arena;
import java.util.List;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.OutputSet;

/**
 * The ring's tensor memory: up to one set of outputs per slot, each allocated the first time the
 * ring needs it, and handed out most recently given back first.
 *
 * <p>A set is not tied to a slot. Tied, a parse worker would cycle through every slot's tensors
 * in turn, {@code ringSize} batches of memory, even when the consumer keeps pace and releases
 * each batch as soon as the next is parsed: eight MNIST-like batches of 256 are 6.4 MB, more
 * than a core's L2, and every row written would first wait for its line. Last in, first out, a
 * worker writes into the set the consumer released last, so a consumer that keeps pace gets its
 * batches in two sets, while a slow one can still leave {@code ringSize} batches parsed ahead.
 *
 * <p>A slot holds a set from the start of its parse until the consumer releases it. When a
 * worker takes a set for a slot, that slot holds none and at most {@code ringSize - 1} other
 * slots are unreleased, so a set is free: {@link #take()} never waits. Parse workers take and
 * the consumer gives back, both under this pool's lock, once per batch.
 *
 * <p>A consumer that keeps pace so needs few of the sets, and a set is only allocated (and its
 * memory zeroed and paged in) when no set is free: by the parse thread that needs it, outside
 * the lock, rather than all of them by the thread that builds the reader. An image reader's sets
 * are tens of MB each.
 */
final class OutputPool {
    private final List<TensorSpec> specs;
    private final Arena arena;
    private final OutputSet[] free;
    private int count;
    private int unallocated;

    /** Room for {@code sets} sets of outputs for {@code specs}, from {@code arena}; none allocated yet. */
    OutputPool(List<TensorSpec> specs, Arena arena, int sets) {
        this.specs = List.copyOf(specs);
        this.arena = arena;
        this.free = new OutputSet[sets];
        this.unallocated = sets;
    }

    /**
     * The set given back last, or a new one if none is free.
     *
     * @throws IllegalStateException if every set is out, which the ring's capacity rules out
     */
    OutputSet take() {
        synchronized (this) {
            if (count > 0) {
                OutputSet set = free[--count];
                free[count] = null;
                return set;
            }
            if (unallocated == 0) {
                throw new IllegalStateException("every output set of the ring is in use");
            }
            unallocated--;
        }
        return OutputSet.allocate(specs, arena);
    }

    /** Gives {@code set} back; the next {@link #take()} returns it. */
    synchronized void give(OutputSet set) {
        free[count++] = set;
    }
}
