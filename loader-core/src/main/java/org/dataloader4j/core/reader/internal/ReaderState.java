package org.dataloader4j.core.reader.internal;

import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.dataset.BatchingDataset;
import org.dataloader4j.core.dataset.ForwardingDataset;
import org.dataloader4j.core.dataset.SampleRecycler;

/**
 * How a {@code DataReader} keeps where its dataset stands after every batch without asking the
 * dataset for its state after every batch.
 *
 * <p>A shuffle's state holds a location per buffered sample, so taking it costs a copy of the
 * whole buffer: after every 256-record batch with a buffer of 1,024, about 100 heap bytes per
 * record. The load thread therefore takes the dataset's state only every
 * {@code ReaderOptions.checkpointEvery()} batches (default 16) and at the
 * end (a <em>checkpoint</em>), and every slot
 * carries the last checkpoint and the number of batches the dataset yielded since. The
 * reader's state after a batch between checkpoints is
 * {@code replay{batches=n}/<the checkpoint>}; restoring it restores the checkpoint and pulls
 * {@code n} batches from the dataset, reading but not parsing them. A dataset yields exactly
 * the same batches after a restore (the {@link Dataset#restore} contract), so the reader goes
 * on exactly where the state was taken. The cost moves to the restore: at most
 * {@code checkpointEvery} − 1 batches read again, once. A dataset that logs what it reads
 * (a skip policy warning of a corrupt record) logs those batches' records again.
 */
public final class ReaderState {
    /** The kind of a state that is a checkpoint and the batches since. */
    public static final String REPLAY = "replay";
    /**
     * The kind of the outermost layer of a reader's state: {@code step{next=n}}, the step the
     * next batch has ({@code Batch.index()}), so that a restored reader goes on counting.
     */
    public static final String STEP = "step";

    private ReaderState() {
    }

    /** The state of a dataset that yielded {@code since} batches after it was at {@code checkpoint}. */
    public static DatasetState of(DatasetState checkpoint, int since) {
        return since == 0 ? checkpoint : DatasetState.of(REPLAY, checkpoint).with("batches", since);
    }

    /** {@code state} with the step of the next batch, {@code next}, around it. */
    public static DatasetState withStep(DatasetState state, long next) {
        return DatasetState.of(STEP, state).with("next", next);
    }

    /**
     * The step of the next batch after {@code state}: its {@link #STEP} field, or 0 for a state
     * without one (a dataset's own state, or one saved before readers kept steps).
     *
     * @throws IllegalArgumentException if the step is negative
     */
    public static long nextStep(DatasetState state) {
        if (!state.kind().equals(STEP)) {
            return 0;
        }
        long next = state.field("next");
        if (next < 0) {
            throw new IllegalArgumentException("a reader's step is >= 0, not " + next + ": " + state);
        }
        return next;
    }

    /** {@code state} without its {@link #STEP} layer, if it has one. */
    public static DatasetState withoutStep(DatasetState state) {
        return state.kind().equals(STEP) ? state.requireUpstream() : state;
    }

    /**
     * Moves {@code dataset} to {@code state}: a dataset's own state, or a {@link #REPLAY} state
     * of {@code DataReader.state()}.
     *
     * @throws IllegalArgumentException if the state does not fit the dataset
     */
    public static void restore(Dataset<?> dataset, DatasetState state) {
        if (!state.kind().equals(REPLAY)) {
            dataset.restore(state);
            return;
        }
        long batches = state.field("batches");
        if (batches < 1) {
            throw new IllegalArgumentException("a reader's state replays at least 1 batch, not " + batches + ": " + state);
        }
        dataset.restore(state.requireUpstream());
        replay(dataset, batches, state);
    }

    /**
     * Reads and drops {@code batches} batches, handing their samples back to the dataset that made
     * them; a batching dataset's into a list of its own ({@link BatchingDataset#newBatch}), as the
     * load thread reads them (record numbers, for a reader of record files, which are not checked
     * until a parse thread decodes them).
     */
    private static <T> void replay(Dataset<T> dataset, long batches, DatasetState state) {
        SampleRecycler<T> recycler = ForwardingDataset.recycler(dataset).orElse(null);
        List<T> batch = dataset instanceof BatchingDataset<T> batching ? batching.newBatch() : new ArrayList<>();
        for (long i = 0; i < batches; i++) {
            batch.clear();
            dataset.nextInto(batch);
            if (batch.isEmpty()) {
                throw new IllegalArgumentException("the dataset ended " + (batches - i)
                        + " batches before the state's position; it was taken from other data: " + state);
            }
            if (recycler != null) {
                recycler.recycle(batch);
            }
        }
    }
}
