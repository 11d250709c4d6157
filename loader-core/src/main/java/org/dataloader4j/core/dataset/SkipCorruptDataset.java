package org.dataloader4j.core.dataset;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.Parser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Skips corrupt records of a reader's dataset, replacing each by the next good one, so batches
 * stay full and step counts stay what they would be with the bad records removed from the files.
 *
 * <p>A record is corrupt if the upstream's {@link #next()} throws {@link CorruptDataException}
 * for it (a damaged frame: bad CRC, bad length, truncation) or if the parser rejects it parsed
 * alone ({@link SampleCheck}: malformed protobuf, a missing feature, a line that is not two
 * numbers). The upstream must move past what it threw for: the readers of this project do (past
 * the frame when its length can be trusted, to the next intact frame a TFRecord scan finds, or
 * else to the end of the file). Each corrupt record is counted and logged once, at WARN, with
 * file, record, offset and reason. Past the {@link SkipPolicy}'s budget, {@code next()} throws a
 * {@link CorruptDataException} for the record that broke it, which the reader rethrows.
 *
 * <p>Sits right above the format's dataset, below any shuffle buffer, so what is skipped depends
 * only on the files: the same for every seed, and the counts are part of the {@link #state()}.
 * Single-threaded.
 *
 * @param <T> the sample type
 */
public final class SkipCorruptDataset<T> extends ForwardingDataset<T> {
    private static final Logger LOG = LoggerFactory.getLogger(SkipCorruptDataset.class);
    static final String KIND = "skip-corrupt";

    private final SkipPolicy policy;
    private final SampleCheck<T> check;
    /** Where the corrupt samples it drops go back to, if their dataset takes them back. */
    private final SampleRecycler<T> recycler;
    private long read;
    /** Written by the load thread only; volatile for metrics. */
    private volatile long skipped;
    /** The last corrupt record and its epoch, until a good one comes: the same again means no progress. */
    private CorruptDataException last;
    private long lastEpoch;

    /**
     * Skips, within {@code policy}, the corrupt records of {@code upstream}, judging each sample
     * by {@code parser} alone.
     *
     * @throws IllegalArgumentException if {@code policy} is strict: then leave the decorator out
     */
    public SkipCorruptDataset(Dataset<T> upstream, Parser<? super T> parser, SkipPolicy policy) {
        super(upstream);
        this.policy = Objects.requireNonNull(policy, "policy");
        this.recycler = ForwardingDataset.recycler(upstream).orElse(null);
        if (policy.strict()) {
            throw new IllegalArgumentException("a strict policy skips nothing: read the dataset without SkipCorruptDataset");
        }
        this.check = new SampleCheck<>(parser);
    }

    @Override
    public List<T> next() {
        while (true) {
            List<T> samples;
            try {
                samples = upstream().next();
            } catch (CorruptDataException e) {
                skip(e);
                continue;
            }
            List<T> good = checked(samples);
            if (!good.isEmpty() || samples.isEmpty()) {
                return good;
            }
        }
    }

    /** {@code samples} without the corrupt ones; {@code samples} itself when all are good. */
    private List<T> checked(List<T> samples) {
        List<T> good = null;
        for (int i = 0; i < samples.size(); i++) {
            T sample = samples.get(i);
            try {
                check.check(sample);
                read++;
                last = null;
                if (good != null) {
                    good.add(sample);
                }
            } catch (CorruptDataException e) {
                skip(e);
                // Dropped: nothing reads it again.
                if (recycler != null) {
                    recycler.recycle(List.of(sample));
                }
                if (good == null) {
                    good = new ArrayList<>(samples.subList(0, i));
                }
            }
        }
        return good == null ? samples : good;
    }

    private void skip(CorruptDataException e) {
        long epoch = upstream().epoch();
        if (last != null && lastEpoch == epoch && e.file().equals(last.file()) && e.offset() == last.offset()
                && e.record() == last.record()
                && (e.offset() != CorruptDataException.UNKNOWN || e.record() != CorruptDataException.UNKNOWN)) {
            throw new IllegalStateException("the dataset threw for the same record twice in a row instead of moving past"
                    + " it, so its corrupt records cannot be skipped: " + upstream(), e);
        }
        read++;
        long count = skipped + 1;
        skipped = count;
        last = e;
        lastEpoch = epoch;
        if (count > policy.allowed(read)) {
            throw new CorruptDataException(e.file(), e.record(), e.offset(), "more corrupt records than skipCorrupt("
                    + policy + ") allows (" + count + " of " + read + " records read), the last: " + e.reason(), e);
        }
        LOG.warn("skipped corrupt record ({} of {} read, skipCorrupt({})): {}", count, read, policy, e.getMessage());
    }

    /** Corrupt records skipped so far, restored ones included; readable from any thread. */
    public long skipped() {
        return skipped;
    }

    /** The upstream's state, with the counts the budget is checked against. */
    @Override
    public DatasetState state() {
        return DatasetState.of(KIND, upstream().state()).with("read", read).with("skipped", skipped);
    }

    @Override
    public void restore(DatasetState state) {
        state.expect(KIND);
        long r = state.field("read");
        long s = state.field("skipped");
        if (s < 0 || r < s) {
            throw new IllegalArgumentException("state does not fit a skip policy: " + state);
        }
        upstream().restore(state.requireUpstream());
        read = r;
        skipped = s;
        last = null;
    }

    /** Closes the upstream and frees the check's memory. */
    @Override
    public void close() {
        try {
            super.close();
        } finally {
            check.close();
        }
    }

    @Override
    public String toString() {
        return "SkipCorruptDataset[" + policy + ", " + upstream() + "]";
    }

    /** Unknown: each corrupt record skipped shortens its epoch by one. */
    @Override
    public OptionalLong samplesPerEpoch() {
        return OptionalLong.empty();
    }
}
