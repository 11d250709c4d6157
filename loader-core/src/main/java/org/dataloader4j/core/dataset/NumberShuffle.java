package org.dataloader4j.core.dataset;

import java.util.Map;
import org.dataloader4j.api.DatasetState;

/**
 * The shuffle buffer of {@link RandomShuffleDataset} over numbers (such as record numbers) rather
 * than samples: two primitive arrays, no object per sample. It makes the same draws from the same
 * seed, so a stream of numbers comes out in the order the samples they name would come out of a
 * {@code RandomShuffleDataset}: filled with {@code bufferSize} numbers first, then each new
 * number swapped with a uniformly chosen buffered one, which comes out instead, and at the end the
 * buffer drained in random order. Each buffered number keeps the epoch it was read in.
 * Single-threaded.
 */
public final class NumberShuffle {
    private final int bufferSize;
    private final long[] numbers;
    private final long[] epochs;
    private int size;
    private SplitMix64 random;
    private long seed;
    private boolean filled;
    /** The highest epoch among the numbers taken out so far. */
    private long epoch;
    /** The epoch of the number taken out last. */
    private long lastEpoch;

    /**
     * An empty buffer of {@code bufferSize} numbers, drawing from a generator seeded by {@code seed}.
     *
     * @throws IllegalArgumentException if {@code bufferSize < 1}
     */
    public NumberShuffle(int bufferSize, long seed) {
        this.bufferSize = Checks.positive("bufferSize", bufferSize);
        this.numbers = new long[bufferSize];
        this.epochs = new long[bufferSize];
        this.seed = seed;
        this.random = new SplitMix64(seed);
    }

    /** Whether the buffer is still being filled, before anything comes out: {@link #fill} then. */
    public boolean filling() {
        return !filled;
    }

    /** Adds {@code number}, read in {@code readEpoch}, while {@link #filling()}. */
    public void fill(long number, long readEpoch) {
        numbers[size] = number;
        epochs[size] = readEpoch;
        size++;
        if (size == bufferSize) {
            filled = true;
        }
    }

    /** Ends the filling early: the stream ended before the buffer was full. */
    public void filled() {
        filled = true;
    }

    /** Takes a uniformly chosen buffered number out and puts {@code number}, read in {@code readEpoch}, in its place. */
    public long swap(long number, long readEpoch) {
        int i = random.nextInt(size);
        long out = take(i);
        numbers[i] = number;
        epochs[i] = readEpoch;
        return out;
    }

    /** Takes a uniformly chosen buffered number out, at the end of the stream; -1 if none is left. */
    public long drain() {
        if (size == 0) {
            return -1;
        }
        int i = random.nextInt(size);
        long out = take(i);
        size--;
        numbers[i] = numbers[size];
        epochs[i] = epochs[size];
        return out;
    }

    private long take(int i) {
        epoch = Math.max(epoch, epochs[i]);
        lastEpoch = epochs[i];
        return numbers[i];
    }

    /** The epoch the number taken out last was read in. */
    public long lastEpoch() {
        return lastEpoch;
    }

    /** The highest epoch among the numbers taken out so far. */
    public long epoch() {
        return epoch;
    }

    /**
     * Adds this buffer's seed, generator and position to {@code fields} ({@code shuffleSeed},
     * {@code random}, {@code filled}, {@code shuffleEpoch}); {@link #saveLists} adds its numbers.
     */
    public void saveFields(Map<String, Long> fields) {
        fields.put("shuffleSeed", seed);
        fields.put("random", random.state());
        fields.put("filled", filled ? 1L : 0L);
        fields.put("shuffleEpoch", epoch);
    }

    /**
     * {@code state} with this buffer's numbers ({@code buffer}) and their epochs
     * ({@code bufferEpochs}). A buffer smaller than an epoch holds at most two epochs, {@code e}
     * and {@code e + 1}: their epochs are then kept as {@code e} and one bit per number (64 to a
     * {@code long}), otherwise as one {@code long} per number.
     */
    public DatasetState saveLists(DatasetState state) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < size; i++) {
            min = Math.min(min, epochs[i]);
            max = Math.max(max, epochs[i]);
        }
        if (size > 0 && max - min > 1) {
            return state.withList("buffer", numbers, 0, size).withList("bufferEpochs", epochs, 0, size);
        }
        long[] bits = new long[1 + (size + 63) / 64];
        bits[0] = size == 0 ? 0 : min;
        for (int i = 0; i < size; i++) {
            if (epochs[i] != min) {
                bits[1 + i / 64] |= 1L << i;
            }
        }
        return state.withList("buffer", numbers, 0, size).withList("bufferEpochBits", bits, 0, bits.length);
    }

    /**
     * Takes the buffer from {@code state}, saved by {@link #saveFields} and {@link #saveLists}.
     *
     * @throws IllegalArgumentException if it holds more numbers than this buffer, or its epochs do not fit them
     */
    public void restoreFrom(DatasetState state) {
        long[] restoredNumbers = state.list("buffer");
        int n = restoredNumbers.length;
        if (n > bufferSize) {
            throw new IllegalArgumentException("the state's buffer does not fit a shuffle of bufferSize=" + bufferSize
                    + ": " + state);
        }
        if (state.hasList("bufferEpochBits")) {
            long[] bits = state.list("bufferEpochBits");
            if (bits.length != 1 + (n + 63) / 64) {
                throw new IllegalArgumentException("the state's buffer epochs do not fit its numbers: " + state);
            }
            for (int i = 0; i < n; i++) {
                epochs[i] = bits[0] + ((bits[1 + i / 64] >>> i) & 1);
            }
        } else {
            long[] restoredEpochs = state.list("bufferEpochs");
            if (restoredEpochs.length != n) {
                throw new IllegalArgumentException("the state's buffer epochs do not fit its numbers: " + state);
            }
            System.arraycopy(restoredEpochs, 0, epochs, 0, n);
        }
        size = n;
        System.arraycopy(restoredNumbers, 0, numbers, 0, size);
        seed = state.field("shuffleSeed");
        random = new SplitMix64(state.field("random"));
        filled = state.field("filled") != 0;
        epoch = state.field("shuffleEpoch");
        lastEpoch = epoch;
    }
}
