package org.dataloader4j.core.dataset;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.SampleLocator;

/**
 * Batches the samples of the dataset it wraps so that every batch holds samples of one group:
 * OneFlow's {@code GroupBatchDataset}, with a bound on the samples it buffers.
 *
 * <p><b>Order: first started, first out.</b> Each sample joins the open batch of its group
 * ({@code groupFn(sample)}), or starts a new one when its group has none; a batch closes when it
 * holds {@code batchSize} samples. Batches are emitted in the order they <em>started</em>, that
 * is, in the order their first sample was read, whichever fills first: {@code next()} reads
 * until the oldest pending batch is full, buffering other groups' samples meanwhile. This is
 * OneFlow's rule (every buffered batch carries the order of its first sample and
 * {@code FindEarliestBatchGroupId} picks the smallest); here the pending batches simply sit in a
 * queue in the order they started. A group may have several full batches pending behind an
 * older one.
 *
 * <p><b>Bound.</b> When the samples read but not emitted reach
 * {@link GroupBatchOptions#maxBufferedSamples()} while the oldest batch is not yet full, that
 * batch is emitted as it is, with fewer than {@code batchSize} samples
 * ({@link GroupBatchOptions.Overflow#EMIT_PARTIAL}), or {@code next()} throws an
 * {@link IllegalStateException} naming the bound and the group
 * ({@link GroupBatchOptions.Overflow#FAIL}). The order stays first started, first out.
 *
 * <p><b>End.</b> OneFlow's streams never end; here, at the end of the data every pending batch
 * is emitted, oldest first, the partial ones included unless
 * {@link GroupBatchOptions#dropRemainder()}, which drops them (and only them).
 *
 * <p><b>State.</b> The wrapped dataset must have a {@link SampleLocator} (every built-in reader
 * and in-memory dataset does). {@link #state()} is the wrapped dataset's state now, and for each
 * pending batch, oldest first, its size and the location and epoch of each of its samples, never
 * the samples themselves; {@link #restore} fetches exactly those samples again and regroups them,
 * reading nothing else.
 *
 * <p>The wrapped dataset must yield one sample per {@code next()}. Each sample keeps the epoch
 * it was read in, and {@link #epoch()} is the highest epoch among the samples returned so far.
 * Single-threaded.
 *
 * <p>Longer than most decorators: OneFlow's order, the bound, the end and the state by location
 * each take their part, and they share the pending batches, so they stay in one class.
 *
 * @param <T> the sample type
 */
public final class GroupBatchDataset<T> extends ForwardingDataset<T> implements BatchingDataset<T> {
    static final String KIND = "group";

    private final ToLongFunction<? super T> groupFn;
    private final GroupBatchOptions options;
    private final SampleLocator<T> locator;
    private final int width;
    /** Pending batches in the order they started; only a group's last one may be open. */
    private final ArrayDeque<Pending<T>> pending = new ArrayDeque<>();
    /** The open (not yet full) pending batch of each group that has one. */
    private final Map<Long, Pending<T>> open = new HashMap<>();
    private int buffered;
    private boolean upstreamEnded;
    private long epoch;
    /** The epochs of the rows of the batch emitted last. */
    private long[] emittedEpochs = new long[0];
    private int emittedSize;

    /** A batch being gathered for one group, with the epoch and location of each sample. */
    private static final class Pending<T> {
        final long group;
        final List<T> samples;
        final long[] epochs;
        final long[] locations;

        Pending(long group, int batchSize, int width) {
            this.group = group;
            this.samples = new ArrayList<>(batchSize);
            this.epochs = new long[batchSize];
            this.locations = new long[batchSize * width];
        }
    }

    /**
     * Batches {@code upstream} by {@code groupFn} with {@code options}.
     *
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if {@code upstream} has no {@link SampleLocator} to save the
     *                                  buffered samples by
     */
    public GroupBatchDataset(Dataset<T> upstream, ToLongFunction<? super T> groupFn, GroupBatchOptions options) {
        super(upstream);
        this.groupFn = Objects.requireNonNull(groupFn, "groupFn");
        this.options = Objects.requireNonNull(options, "options");
        this.locator = Checks.locatable(upstream, "GroupBatchDataset");
        this.width = locator.width();
    }

    /** Batches of {@code batchSize} with the defaults of {@link GroupBatchOptions#of(int)}. */
    public static <T> GroupBatchDataset<T> of(Dataset<T> upstream, int batchSize, ToLongFunction<? super T> groupFn) {
        return new GroupBatchDataset<>(upstream, groupFn, GroupBatchOptions.of(batchSize));
    }

    /** The settings. */
    public GroupBatchOptions options() {
        return options;
    }

    /** The samples in a full batch: {@code options().batchSize()}. */
    @Override
    public int batchSize() {
        return options.batchSize();
    }

    /** The samples read and not yet emitted, over all groups. */
    public int bufferedSamples() {
        return buffered;
    }

    @Override
    public List<T> next() {
        int batchSize = options.batchSize();
        while (true) {
            Pending<T> oldest = pending.peekFirst();
            if (oldest != null && oldest.samples.size() == batchSize) {
                return emitOldest();
            }
            if (upstreamEnded) {
                if (oldest == null) {
                    return List.of();
                }
                List<T> batch = emitOldest();
                if (options.dropRemainder() && batch.size() < batchSize) {
                    continue;
                }
                return batch;
            }
            if (oldest != null && buffered >= options.maxBufferedSamples()) {
                if (options.overflow() == GroupBatchOptions.Overflow.FAIL) {
                    throw new IllegalStateException("GroupBatchDataset buffered maxBufferedSamples="
                            + options.maxBufferedSamples() + " samples while the oldest batch, of group="
                            + oldest.group + ", holds " + oldest.samples.size() + " of batchSize=" + batchSize
                            + "; raise maxBufferedSamples or use Overflow.EMIT_PARTIAL");
                }
                return emitOldest();
            }
            read();
        }
    }

    private void read() {
        List<T> samples = upstream().next();
        if (samples.isEmpty()) {
            upstreamEnded = true;
            return;
        }
        if (samples.size() != 1) {
            throw new IllegalStateException("GroupBatchDataset needs a dataset that yields one sample per next(), got "
                    + samples.size() + " from " + upstream().getClass().getName());
        }
        T sample = samples.get(0);
        Pending<T> batch = join(sample);
        int i = batch.samples.size() - 1;
        batch.epochs[i] = upstream().sampleEpoch();
        locator.locate(sample, batch.locations, i * width);
    }

    /** Adds {@code sample} to the open batch of its group, or to a new one; returns the batch. */
    private Pending<T> join(T sample) {
        long group = groupFn.applyAsLong(sample);
        Pending<T> batch = open.get(group);
        if (batch == null) {
            batch = new Pending<>(group, options.batchSize(), width);
            pending.addLast(batch);
            open.put(group, batch);
        }
        batch.samples.add(sample);
        buffered++;
        if (batch.samples.size() == options.batchSize()) {
            open.remove(group);
        }
        return batch;
    }

    private List<T> emitOldest() {
        Pending<T> batch = pending.removeFirst();
        open.remove(batch.group, batch);
        buffered -= batch.samples.size();
        assert buffered >= 0 && (buffered == 0) == pending.isEmpty() : "buffered=" + buffered;
        for (int i = 0; i < batch.samples.size(); i++) {
            epoch = Math.max(epoch, batch.epochs[i]);
        }
        emittedEpochs = batch.epochs;
        emittedSize = batch.samples.size();
        return batch.samples;
    }

    /** The wrapped dataset's state now, and the pending batches' sizes, locations and epochs. */
    @Override
    public DatasetState state() {
        long[] sizes = new long[pending.size()];
        long[] epochs = new long[buffered];
        long[] locations = new long[buffered * width];
        int b = 0;
        int at = 0;
        for (Pending<T> batch : pending) {
            int n = batch.samples.size();
            sizes[b++] = n;
            System.arraycopy(batch.epochs, 0, epochs, at, n);
            System.arraycopy(batch.locations, 0, locations, at * width, n * width);
            at += n;
        }
        return DatasetState.of(KIND, upstream().state()).with("ended", upstreamEnded ? 1 : 0).with("epoch", epoch)
                .withList("sizes", sizes, 0, sizes.length).withList("epochs", epochs, 0, at)
                .withList("locations", locations, 0, at * width);
    }

    /**
     * Restores the wrapped dataset to the recorded state, then fetches the pending samples again
     * by their locations and regroups them.
     *
     * @throws IllegalArgumentException also if the pending batches do not fit this dataset's
     *                                  batch size, locations or groups
     */
    @Override
    public void restore(DatasetState state) {
        state.expect(KIND);
        long[] sizes = state.list("sizes");
        long[] epochs = state.list("epochs");
        long[] locations = state.list("locations");
        long total = Arrays.stream(sizes).sum();
        if (total != epochs.length || locations.length != total * width
                || Arrays.stream(sizes).anyMatch(n -> n < 1 || n > options.batchSize())) {
            throw new IllegalArgumentException("the state's pending batches do not fit this group batch of batchSize="
                    + options.batchSize() + " and locations of width " + width + ": " + state);
        }
        upstream().restore(state.requireUpstream());
        pending.clear();
        open.clear();
        buffered = 0;
        upstreamEnded = state.field("ended") != 0;
        regroup(state, sizes, epochs, locations);
        epoch = state.field("epoch");
    }

    /** Rebuilds the pending batches of {@code state} from their sizes, epochs and locations. */
    private void regroup(DatasetState state, long[] sizes, long[] epochs, long[] locations) {
        List<T> samples = locator.fetch(locations);
        int at = 0;
        for (long size : sizes) {
            Pending<T> batch = null;
            for (int i = 0; i < size; i++, at++) {
                Pending<T> joined = join(samples.get(at));
                if (batch == null ? joined.samples.size() != 1 : joined != batch) {
                    throw new IllegalArgumentException("the state's pending batches do not match the groups of their samples: "
                            + state);
                }
                batch = joined;
                batch.epochs[i] = epochs[at];
                System.arraycopy(locations, at * width, batch.locations, i * width, width);
            }
        }
    }

    /** The highest epoch among the samples returned so far. */
    @Override
    public long epoch() {
        return epoch;
    }

    /** The epoch each sample of the batch emitted last was read in. */
    @Override
    public long epochOf(int row) {
        return emittedEpochs[Objects.checkIndex(row, emittedSize)];
    }

    /** The epoch of the last sample of the batch emitted last. */
    @Override
    public long sampleEpoch() {
        return emittedSize == 0 ? epoch : emittedEpochs[emittedSize - 1];
    }
}
