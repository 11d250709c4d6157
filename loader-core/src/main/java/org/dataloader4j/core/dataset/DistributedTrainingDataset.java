package org.dataloader4j.core.dataset;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.OptionalLong;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.RandomAccessDataset;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Mode;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Remainder;
import org.dataloader4j.core.parallel.BalancedSplitter;

/**
 * One rank's share of a {@link RandomAccessDataset}, epoch after epoch: OneFlow's
 * {@code DistributedTrainingDataset}, with equal step counts on every rank.
 *
 * <p>Each epoch {@code e} has one global order of the {@code N} indices, the same on every rank:
 * the identity, or with shuffle a permutation drawn from {@code seed + e} (a Fisher–Yates
 * shuffle over a {@code java.util.Random}), computed for that epoch alone in {@code O(N)}
 * memory. The {@link Remainder} fixes the length {@code L = m·S} of the global stream, where
 * {@code m} is every rank's count ({@link #size()}): {@code floor(N/S)} for DROP (the tail of
 * the order is dropped), {@code ceil(N/S)} for WRAP and PAD_WITH_MASK (position {@code p >= N} takes the
 * order's entry {@code p mod N}; under PAD_WITH_MASK it is marked {@link Sharded#padding()}). Rank
 * {@code r} takes positions {@code r, r+S, …} (STRIDE) or the {@code r}-th contiguous block of
 * {@code L} ({@link BalancedSplitter}, CONTIGUOUS). So within an epoch no index is missed or
 * repeated across ranks, apart from the dropped tail or the wrapped padding.
 *
 * <p>{@link #next()} yields one {@link Sharded} sample per call, so {@link BatchDataset} and
 * {@link RandomShuffleDataset} compose on top; {@link #unwrapped()} yields the bare samples
 * where no padding can occur. The wrapped dataset is used only through {@link
 * RandomAccessDataset#at} and {@link RandomAccessDataset#size}, told a chunk or two ahead which
 * indices come next ({@link RandomAccessDataset#prefetch}, so that records on remote storage are
 * fetched together), and is owned: closing this closes it.
 *
 * <p>{@link #state()} holds the epoch, the position in this rank's share of it, the seed in use
 * (the drawn one when the options say -1), the rank, the world size and {@code N}; restoring
 * computes that epoch's order afresh, replaying nothing. Each rank keeps its own state: a state of
 * another rank is refused (a shuffle buffer above this dataset holds that rank's samples), and so
 * is one of another world size or another {@code N}, naming both values, since the global order
 * would no longer match. The {@link #locator()} names a sample by its index in the wrapped
 * dataset and its padding mark.
 *
 * <p>An empty dataset is an error, and so is DROP with fewer samples than ranks (every rank
 * would be empty). Single-threaded.
 *
 * <p>Longer than most decorators: the global order, the remainders, the two split modes and the
 * checks of a state taken on another rank belong together, as each depends on the others.
 *
 * @param <T> the sample type
 */
public final class DistributedTrainingDataset<T> implements Dataset<Sharded<T>> {
    static final String KIND = "distributed";
    /** The samples the wrapped dataset is told of at a time ({@link RandomAccessDataset#prefetch}). */
    static final int PREFETCH = 256;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DistributedTrainingDataset.class);

    private final RandomAccessDataset<T> upstream;
    private final DistributedTrainingOptions options;
    private final long n;
    private final long perRank;
    private final BalancedSplitter blocks;
    private long seed;
    private long epoch;
    private long position;
    private int[] order;
    private long orderEpoch = -1;
    /** This rank's samples of the epoch, from the first, that the wrapped dataset was told will come ({@link #hintAhead}). */
    private long hinted;
    private final long[] hint = new long[PREFETCH];

    /**
     * This rank's share of {@code upstream} as {@code options} describe it.
     *
     * @throws IllegalArgumentException if {@code upstream} is empty, if DROP leaves every rank
     *                                  empty, or if a shuffle is asked of more samples than an
     *                                  {@code int[]} permutation holds
     */
    public DistributedTrainingDataset(RandomAccessDataset<T> upstream, DistributedTrainingOptions options) {
        this.upstream = Objects.requireNonNull(upstream, "upstream");
        this.options = Objects.requireNonNull(options, "options");
        this.n = upstream.size();
        int s = options.worldSize();
        if (n < 1) {
            throw new IllegalArgumentException("a distributed dataset needs at least one sample: size=" + n);
        }
        if (options.remainder() == Remainder.DROP && n < s) {
            throw new IllegalArgumentException("DROP leaves every rank empty when size < worldSize: size=" + n
                    + " worldSize=" + s + "; use WRAP or PAD_WITH_MASK");
        }
        if (options.shuffle() && n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a shuffle holds at most " + (Integer.MAX_VALUE - 8) + " indices: size=" + n);
        }
        this.perRank = options.remainder() == Remainder.DROP ? n / s : (n + s - 1) / s;
        this.blocks = new BalancedSplitter(perRank * s, s);
        if (options.seed() == -1) {
            seed = ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE;
            if (options.shuffle()) {
                LOG.info("{} rank {}: drew shuffle seed {}", KIND, options.rank(), seed);
            }
        } else {
            seed = options.seed();
        }
    }

    /** The options this dataset was built with. */
    public DistributedTrainingOptions options() {
        return options;
    }

    /** The number of samples this rank takes per epoch, padding included: the same on every rank. */
    public long size() {
        return perRank;
    }

    /** {@link #size()}: this rank's samples per epoch, padding included, the same on every rank. */
    @Override
    public OptionalLong samplesPerEpoch() {
        return OptionalLong.of(perRank);
    }

    /** The seed in use: the options' seed, the drawn one, or the restored one. */
    public long seed() {
        return seed;
    }

    @Override
    public List<Sharded<T>> next() {
        if (position == perRank) {
            if (options.epochs() != FOREVER && epoch + 1 >= options.epochs()) {
                return List.of();
            }
            epoch++;
            position = 0;
            hinted = 0;
        }
        if (hinted < Math.min(perRank, position + 2L * PREFETCH)) {
            hintAhead();
        }
        long global = globalAt(position);
        position++;
        long index = indexAt(global % n);
        return List.of(new Sharded<>(upstream.at(index), index, options.remainder() == Remainder.PAD_WITH_MASK && global >= n));
    }

    /** The position in the epoch's global order of this rank's sample {@code p}. */
    private long globalAt(long p) {
        return options.mode() == Mode.STRIDE
                ? options.rank() + p * options.worldSize()
                : blocks.start(options.rank()) + p;
    }

    /**
     * Tells the wrapped dataset which samples come next ({@link RandomAccessDataset#prefetch}), up
     * to two chunks of {@link #PREFETCH} ahead of the position, a chunk at a time: one chunk is
     * fetched while the one before it is read.
     */
    private void hintAhead() {
        long end = Math.min(perRank, position + 2L * PREFETCH);
        while (hinted < end) {
            int count = (int) Math.min(PREFETCH, perRank - hinted);
            for (int i = 0; i < count; i++) {
                hint[i] = indexAt(globalAt(hinted + i) % n);
            }
            upstream.prefetch(hint, count);
            hinted += count;
        }
    }

    /** Entry {@code p} of the current epoch's global order. */
    private long indexAt(long p) {
        if (!options.shuffle()) {
            return p;
        }
        if (orderEpoch != epoch) {
            order = permutation(n, seed + epoch, order);
            orderEpoch = epoch;
        }
        return order[(int) p];
    }

    /** A Fisher–Yates permutation of {@code [0, n)} from {@code seed}, reusing {@code into} if it fits. */
    static int[] permutation(long n, long seed, int[] into) {
        int size = (int) n;
        int[] p = into != null && into.length == size ? into : new int[size];
        for (int i = 0; i < size; i++) {
            p[i] = i;
        }
        Random random = new Random(seed);
        for (int i = size - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    @Override
    public long epoch() {
        return epoch;
    }

    @Override
    public DatasetState state() {
        return DatasetState.of(KIND, null).with("epoch", epoch).with("position", position).with("seed", seed)
                .with("rank", options.rank()).with("worldSize", options.worldSize()).with("size", n);
    }

    /**
     * Moves to {@code state}, taken on this rank of a run with the same world size and dataset size.
     *
     * @throws IllegalArgumentException if the state is of another kind, another rank, another
     *                                  world size, another dataset size, another fixed seed, or
     *                                  out of range
     */
    @Override
    public void restore(DatasetState state) {
        state.expect(KIND);
        long s = state.field("worldSize");
        if (s != options.worldSize()) {
            throw new IllegalArgumentException("cannot resume on another world size: the state was taken with worldSize="
                    + s + ", this run has worldSize=" + options.worldSize() + ": " + state);
        }
        long rank = state.field("rank");
        if (rank != options.rank()) {
            throw new IllegalArgumentException("a rank resumes from its own state: the state was taken on rank=" + rank
                    + ", this is rank=" + options.rank() + ": " + state);
        }
        long size = state.field("size");
        if (size != n) {
            throw new IllegalArgumentException("cannot resume over another dataset: the state was taken with size="
                    + size + ", this dataset has size=" + n + ": " + state);
        }
        long stateSeed = state.field("seed");
        if (options.seed() != -1 && stateSeed != options.seed()) {
            throw new IllegalArgumentException("the state's seed differs from the options' seed: state seed=" + stateSeed
                    + " options seed=" + options.seed() + ": " + state);
        }
        long e = state.field("epoch");
        long p = state.field("position");
        if (e < 0 || (options.epochs() != FOREVER && e >= options.epochs()) || p < 0 || p > perRank || stateSeed < 0) {
            throw new IllegalArgumentException("state does not fit " + perRank + " samples per rank and "
                    + options.epochs() + " epochs: " + state);
        }
        seed = stateSeed;
        epoch = e;
        position = p;
        hinted = p;
        orderEpoch = -1;
    }

    /**
     * Locates a sample by its index in the wrapped dataset and whether it is padding
     * ({@code index << 1 | padding}), and fetches it through {@link RandomAccessDataset#at}.
     */
    @Override
    public Optional<SampleLocator<Sharded<T>>> locator() {
        return Optional.of(new SampleLocator<>() {
            @Override
            public int width() {
                return 1;
            }

            @Override
            public void locate(Sharded<T> sample, long[] to, int at) {
                to[at] = sample.index() << 1 | (sample.padding() ? 1 : 0);
            }

            @Override
            public List<Sharded<T>> fetch(long[] locations) {
                long[] indices = new long[locations.length];
                for (int i = 0; i < locations.length; i++) {
                    indices[i] = locations[i] >>> 1;
                    if (indices[i] >= n) {
                        throw new IllegalArgumentException("no sample at index " + indices[i] + " of " + n);
                    }
                }
                upstream.prefetch(indices, indices.length);
                List<Sharded<T>> out = new ArrayList<>(locations.length);
                for (int i = 0; i < locations.length; i++) {
                    out.add(new Sharded<>(upstream.at(indices[i]), indices[i], (locations[i] & 1) != 0));
                }
                return out;
            }
        });
    }

    /**
     * The bare samples, for parsers that take {@code T}: a view that owns this dataset and shares
     * its state.
     *
     * @throws IllegalStateException under PAD_WITH_MASK, whose padding marks the view would lose
     */
    public Dataset<T> unwrapped() {
        if (options.remainder() == Remainder.PAD_WITH_MASK) {
            throw new IllegalStateException("PAD_WITH_MASK marks padding samples, which unwrapped() would lose: remainder=PAD_WITH_MASK");
        }
        return new Unwrapped<>(this);
    }

    @Override
    public void close() {
        upstream.close();
    }

    /** {@link Sharded#sample()} of each sample, state and all delegated. */
    private record Unwrapped<T>(DistributedTrainingDataset<T> sharded) implements Dataset<T> {
        @Override
        public List<T> next() {
            List<Sharded<T>> next = sharded.next();
            return next.isEmpty() ? List.of() : List.of(next.get(0).sample());
        }

        @Override
        public DatasetState state() {
            return sharded.state();
        }

        @Override
        public void restore(DatasetState state) {
            sharded.restore(state);
        }

        @Override
        public long epoch() {
            return sharded.epoch();
        }

        @Override
        public OptionalLong samplesPerEpoch() {
            return sharded.samplesPerEpoch();
        }

        /** The wrapped dataset's own locator, if it has one. */
        @Override
        public Optional<SampleLocator<T>> locator() {
            return sharded.upstream.locator();
        }

        @Override
        public void close() {
            sharded.close();
        }
    }
}
