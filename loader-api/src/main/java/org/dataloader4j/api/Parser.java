package org.dataloader4j.api;

import java.util.List;

/**
 * Turns a batch of samples into tensors: OneFlow's {@code Parser}.
 *
 * <p>A parser first declares its outputs, so the runtime can preallocate every slot once; then,
 * for each batch, {@link #parse} fills rows {@code [0, samples.size())} of those outputs. It never
 * allocates tensor memory itself. Rows may be split over the {@link ParallelLoop}: per-sample code
 * then runs on several threads at once, each on its own rows, and must not share mutable state.
 * A reader with several parse threads also calls {@code parse} for several batches at once, from
 * different threads, each call with its own samples, batch and loop: a parser keeps no mutable
 * state between calls (per-thread scratch, as in a {@code ThreadLocal}, is fine). A parser that
 * holds resources of its own (native decoders, say) implements {@link AutoCloseable}: a reader
 * closes it when it closes, once no thread parses.
 *
 * @param <T> the sample type
 */
public interface Parser<T> {

    /** The outputs for batches of up to {@code batchCapacity} rows. */
    List<TensorSpec> outputs(int batchCapacity);

    /**
     * Writes {@code samples} into rows {@code [0, samples.size())} of {@code out}'s outputs.
     *
     * @throws CorruptDataException if a sample is malformed
     */
    void parse(List<? extends T> samples, Batch out, ParallelLoop loop);
}
