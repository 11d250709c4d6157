package org.dataloader4j.core.reader.internal;

import java.util.List;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.dataset.SkipPolicy;
import org.dataloader4j.core.files.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The skip budget of a reader whose parse threads replace corrupt records
 * ({@link RecordBatch#replace}): as each batch is handed out, in order, its replaced rows are
 * counted against the {@link SkipPolicy} and logged, once each, at WARN. Counting at the hand-off
 * makes the counts, the log and the batch that breaks the budget the same for any number of parse
 * threads and ring slots. The counts as of the last batch handed out wrap the reader's state
 * ({@link #wrap}), so a restored reader goes on counting where it stopped.
 *
 * <p>For the consuming thread; {@link #skipped()} may be read from any.
 */
public final class SkipBudget {
    private static final Logger LOG = LoggerFactory.getLogger(SkipBudget.class);
    /** The kind of a reader state that carries the counts. */
    static final String KIND = "skips";

    private final SkipPolicy policy;
    private long read;
    private volatile long skipped;

    /** A budget of {@code policy}, nothing counted yet. */
    public SkipBudget(SkipPolicy policy) {
        if (policy.strict()) {
            throw new IllegalArgumentException("a strict policy skips nothing: read without a skip budget");
        }
        this.policy = policy;
    }

    /**
     * Counts the rows of a batch about to be handed out, {@code rows} of {@code samples}, and its
     * replaced records, in row order, each checked against the policy at its place.
     *
     * @throws CorruptDataException for the first replaced record past the budget
     */
    void count(List<?> samples, int rows) {
        if (!(samples instanceof RecordBatch batch)) {
            read += rows;
            return;
        }
        for (int row = 0; row < rows; row++) {
            read++;
            CorruptDataException e = batch.skipped(row);
            if (e == null) {
                continue;
            }
            long count = skipped + 1;
            skipped = count;
            if (count > policy.allowed(read)) {
                throw new CorruptDataException(e.file(), e.record(), e.offset(), "more corrupt records than skipCorrupt("
                        + policy + ") allows (" + count + " of " + read + " records read), the last: " + e.reason(), e);
            }
            LOG.warn("skipped corrupt record ({} of {} read, skipCorrupt({})), replaced by the next good record: {}",
                    count, read, policy, e.getMessage());
        }
    }

    /** The corrupt records skipped in the batches handed out, restored ones included. */
    public long skipped() {
        return skipped;
    }

    /** {@code state}, the dataset's as of the last batch handed out, with the counts as of then. */
    DatasetState wrap(DatasetState state) {
        return DatasetState.of(KIND, state).with("read", read).with("skipped", skipped);
    }

    /**
     * Takes the counts of a state made by {@link #wrap} and returns the dataset's state inside it.
     *
     * @throws IllegalArgumentException if {@code state} was not taken from a reader that skips
     */
    public DatasetState restore(DatasetState state) {
        if (!state.kind().equals(KIND)) {
            throw new IllegalArgumentException("the state was taken from a reader that does not skip corrupt records,"
                    + " and this one does (skipCorrupt): " + state);
        }
        long r = state.field("read");
        long s = state.field("skipped");
        if (s < 0 || r < s) {
            throw new IllegalArgumentException("state does not fit a skip policy: " + state);
        }
        read = r;
        skipped = s;
        return state.requireUpstream();
    }

    @Override
    public String toString() {
        return "SkipBudget[" + policy + ", " + skipped + " of " + read + "]";
    }
}
