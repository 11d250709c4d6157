package org.dataloader4j.core.dataset;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.SampleLocator;

/**
 * Shuffles the samples of the dataset it wraps through a buffer: OneFlow's
 * {@code RandomShuffleDataset}. The buffer is first filled with {@code bufferSize} samples;
 * then each new sample is swapped with a uniformly chosen buffered one, which is yielded
 * instead. At the end of the data the buffer is drained in random order, so no sample is lost.
 *
 * <p>The order depends only on the seed and the wrapped stream: the same seed gives the same
 * order. The buffer mixes epochs near their boundaries; each buffered sample keeps the epoch it
 * was read in, and {@link #epoch()} is the highest epoch among the samples returned so far.
 *
 * <p><b>State.</b> The wrapped dataset must have a {@link SampleLocator} (every built-in reader
 * and in-memory dataset does). {@link #state()} is the wrapped dataset's state now, the
 * generator's state, and one location and one epoch per buffered sample, never the samples
 * themselves; {@link #restore} fetches exactly the buffered samples again and reads nothing
 * else. Single-threaded.
 *
 * @param <T> the sample type
 */
public final class RandomShuffleDataset<T> extends ForwardingDataset<T> {
    static final String KIND = "shuffle";

    private final int bufferSize;
    private final SampleLocator<T> locator;
    private final int width;
    private final List<T> buffer;
    /** The upstream's samples of one step; reused, so that a step makes no list. */
    private final List<T> pulled = new ArrayList<>(1);
    /** The epoch each buffered sample was read in, by buffer position. */
    private long[] epochs;
    /** The location of each buffered sample, {@code width} longs per buffer position. */
    private long[] locations;
    private long seed;
    private SplitMix64 random;
    private boolean filled;
    private long epoch;
    /** The epoch of the sample taken out last. */
    private long lastEpoch;

    /**
     * Shuffles {@code upstream} through a buffer of {@code bufferSize} samples, with a generator
     * seeded by {@code seed}.
     *
     * @throws IllegalArgumentException if {@code bufferSize < 1}, or {@code upstream} has no
     *                                  {@link SampleLocator} to save the buffer's samples by
     */
    public RandomShuffleDataset(Dataset<T> upstream, int bufferSize, long seed) {
        super(upstream);
        this.bufferSize = Checks.positive("bufferSize", bufferSize);
        this.locator = Checks.locatable(upstream, "RandomShuffleDataset");
        this.width = locator.width();
        this.buffer = new ArrayList<>(bufferSize);
        this.epochs = new long[bufferSize];
        this.locations = new long[width * bufferSize];
        this.seed = seed;
        this.random = new SplitMix64(seed);
    }

    @Override
    public List<T> next() {
        List<T> out = new ArrayList<>(1);
        nextInto(out);
        return out;
    }

    @Override
    public int nextInto(List<? super T> out) {
        if (!filled) {
            fill();
        }
        pulled.clear();
        int n = upstream().nextInto(pulled);
        if (n == 0) {
            if (buffer.isEmpty()) {
                return 0;
            }
            int i = random.nextInt(buffer.size());
            out.add(take(i));
            int last = buffer.size() - 1;
            put(i, buffer.get(last), epochs[last], locations, last * width);
            buffer.remove(last);
            return 1;
        }
        long readEpoch = upstream().sampleEpoch();
        for (int k = 0; k < n; k++) {
            int i = random.nextInt(buffer.size());
            out.add(take(i));
            put(i, pulled.get(k), readEpoch);
        }
        pulled.clear();
        return n;
    }

    private void fill() {
        filled = true;
        while (buffer.size() < bufferSize) {
            int start = buffer.size();
            if (upstream().nextInto(buffer) == 0) {
                return;
            }
            long readEpoch = upstream().sampleEpoch();
            grow(buffer.size());
            for (int i = start; i < buffer.size(); i++) {
                put(i, buffer.get(i), readEpoch);
            }
        }
    }

    private T take(int i) {
        epoch = Math.max(epoch, epochs[i]);
        lastEpoch = epochs[i];
        return buffer.get(i);
    }

    private void put(int i, T sample, long sampleEpoch) {
        buffer.set(i, sample);
        epochs[i] = sampleEpoch;
        locator.locate(sample, locations, i * width);
    }

    private void put(int i, T sample, long sampleEpoch, long[] from, int at) {
        buffer.set(i, sample);
        epochs[i] = sampleEpoch;
        System.arraycopy(from, at, locations, i * width, width);
    }

    private void grow(int size) {
        if (size > epochs.length) {
            epochs = Arrays.copyOf(epochs, Math.max(size, 2 * epochs.length));
            locations = Arrays.copyOf(locations, epochs.length * width);
        }
    }

    @Override
    public DatasetState state() {
        int n = buffer.size();
        return DatasetState.of(KIND, upstream().state())
                .with("seed", seed).with("random", random.state()).with("filled", filled ? 1 : 0).with("epoch", epoch)
                .withList("epochs", epochs, 0, n).withList("locations", locations, 0, n * width);
    }

    /**
     * {@inheritDoc} The buffered samples are fetched from the wrapped dataset by their locations.
     *
     * @throws IllegalArgumentException also if the state holds locations of another width than
     *                                  the wrapped dataset's, or more samples than the buffer
     */
    @Override
    public void restore(DatasetState state) {
        state.expect(KIND);
        long[] restoredEpochs = state.list("epochs");
        long[] restoredLocations = state.list("locations");
        int n = restoredEpochs.length;
        if (restoredLocations.length != (long) n * width || n > Math.max(bufferSize, epochs.length)) {
            throw new IllegalArgumentException("the state's buffer does not fit this shuffle of bufferSize=" + bufferSize
                    + " and locations of width " + width + ": " + state);
        }
        upstream().restore(state.requireUpstream());
        seed = state.field("seed");
        buffer.clear();
        List<T> samples = locator.fetch(restoredLocations);
        grow(n);
        for (int i = 0; i < n; i++) {
            buffer.add(samples.get(i));
            put(i, samples.get(i), restoredEpochs[i], restoredLocations, i * width);
        }
        random = new SplitMix64(state.field("random"));
        filled = state.field("filled") != 0;
        epoch = state.field("epoch");
        lastEpoch = epoch;
    }

    @Override
    public long epoch() {
        return epoch;
    }

    /** The epoch the sample taken out last was read in. */
    @Override
    public long sampleEpoch() {
        return lastEpoch;
    }

}
