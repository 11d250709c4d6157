package org.dataloader4j.core.reader;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.TensorSpec;

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
    /** Memory of one output: values, and for a ragged output the row offsets. */
    record Output(TensorSpec spec, MemorySegment values, MemorySegment offsets) {
    }

    /** The tensors of the batch in this slot: none until the parse stage takes a set. */
    Output[] outputs;

    long index;
    int rows;
    List<?> samples;
    /** The dataset's last checkpointed state, and the batches it yielded since (see {@link ReaderState}). */
    DatasetState checkpoint;
    int sinceCheckpoint;
    long epoch;
    boolean end;
    Throwable failure;
    String failedStage;

    /** Changed only by the consumer, on release; read by views on any thread. */
    volatile long generation;

    /** A ring slot: its tensors come from the pool when its batch is parsed. */
    Slot() {
    }

    /** A slot with tensors of its own, allocated from {@code arena}. */
    Slot(List<TensorSpec> specs, Arena arena) {
        outputs = allocate(specs, arena);
    }

    /** One set of outputs for {@code specs}, from {@code arena}, 64-byte aligned. */
    static Output[] allocate(List<TensorSpec> specs, Arena arena) {
        Output[] outputs = new Output[specs.size()];
        for (int i = 0; i < outputs.length; i++) {
            TensorSpec spec = specs.get(i);
            if (spec.isRagged()) {
                long valueBytes = spec.valueCapacity() * spec.dataType().byteSize();
                long offsetBytes = (spec.shape().dim(0) + 1) * DataType.INT64.byteSize();
                outputs[i] = new Output(spec, arena.allocate(valueBytes, 64), arena.allocate(offsetBytes, 64));
            } else {
                outputs[i] = new Output(spec, arena.allocate(spec.byteSize(), 64), null);
            }
        }
        return outputs;
    }

    void load(long index, List<?> samples, DatasetState checkpoint, int sinceCheckpoint, long epoch, boolean end,
              Throwable failure) {
        this.index = index;
        this.samples = samples;
        this.rows = samples == null ? 0 : samples.size();
        this.checkpoint = checkpoint;
        this.sinceCheckpoint = sinceCheckpoint;
        this.epoch = epoch;
        this.end = end;
        this.failure = failure;
        this.failedStage = failure == null ? null : "load";
    }

    void fail(String stage, Throwable t) {
        failure = t;
        failedStage = stage;
    }
}
