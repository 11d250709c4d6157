package org.dataloader4j.core.dataset;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;

/**
 * Groups the samples of the dataset it wraps into batches of {@code batchSize}: OneFlow's
 * {@code BatchDataset}. At the end of the data a partial batch is either dropped or delivered
 * with fewer rows ({@code Batch.size() < capacity}).
 *
 * <p>The wrapped dataset must yield one sample per {@code next()}, as readers of formats and
 * {@link RandomShuffleDataset} do. Single-threaded.
 *
 * @param <T> the sample type
 */
public final class BatchDataset<T> extends ForwardingDataset<T> implements BatchingDataset<T> {
    static final String KIND = "batch";

    private final int batchSize;
    private final boolean dropRemainder;
    private boolean ended;
    /** The epoch of each row of the batch yielded last. */
    private final long[] rowEpochs;

    /**
     * Batches of {@code batchSize} samples of {@code upstream}; with {@code dropRemainder} a
     * partial last batch is dropped, otherwise delivered.
     *
     * @throws IllegalArgumentException if {@code batchSize < 1}
     */
    public BatchDataset(Dataset<T> upstream, int batchSize, boolean dropRemainder) {
        super(upstream);
        this.batchSize = Checks.positive("batchSize", batchSize);
        this.dropRemainder = dropRemainder;
        this.rowEpochs = new long[batchSize];
    }

    /** The number of samples in a full batch. */
    @Override
    public int batchSize() {
        return batchSize;
    }

    @Override
    public List<T> next() {
        List<T> batch = new ArrayList<>(batchSize);
        nextInto(batch);
        return batch;
    }

    /** Adds the next batch's samples to {@code out}, without a list of the batch's own. */
    @Override
    public int nextInto(List<? super T> out) {
        if (ended) {
            return 0;
        }
        int first = out.size();
        for (int taken = 0; taken < batchSize; taken++) {
            int n = upstream().nextInto(out);
            if (n == 0) {
                ended = true;
                if (dropRemainder) {
                    out.subList(first, out.size()).clear();
                    return 0;
                }
                return taken;
            }
            if (n != 1) {
                throw new IllegalStateException("BatchDataset needs a dataset that yields one sample per next(), got "
                        + n + " from " + upstream().getClass().getName());
            }
            rowEpochs[taken] = upstream().sampleEpoch();
        }
        return batchSize;
    }

    /** {@code samplesPerEpoch()} in batches: rounded up, or down if a partial last batch is dropped. */
    @Override
    public OptionalLong stepsPerEpoch() {
        return BatchingDataset.stepsOf(samplesPerEpoch(), batchSize, dropRemainder);
    }

    /** The epoch the upstream gave for row {@code row}'s sample as it was taken. */
    @Override
    public long epochOf(int row) {
        return rowEpochs[Objects.checkIndex(row, batchSize)];
    }

    /** The wrapped dataset's state: a batch is taken whole, so nothing is pending between calls. */
    @Override
    public DatasetState state() {
        return DatasetState.of(KIND, upstream().state()).with("ended", ended ? 1 : 0);
    }

    @Override
    public void restore(DatasetState state) {
        state.expect(KIND);
        upstream().restore(state.requireUpstream());
        ended = state.field("ended") != 0;
    }
}
