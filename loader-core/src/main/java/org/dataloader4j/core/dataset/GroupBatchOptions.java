package org.dataloader4j.core.dataset;

import java.util.Objects;

/**
 * The settings of a {@link GroupBatchDataset}; made by {@link #builder(int)}, which checks each
 * setting as it is given.
 *
 * @param batchSize          the samples in a full batch
 * @param maxBufferedSamples the most samples read but not yet emitted, over all groups: when the
 *                           buffer reaches it, the oldest batch is cut short (or the dataset fails,
 *                           see {@link Overflow}). At least {@code batchSize}. OneFlow has no bound.
 * @param overflow           what reaching {@code maxBufferedSamples} does
 * @param dropRemainder      whether the partial batches left at the end of the data are dropped
 *                           instead of delivered; batches cut short by the bound are always delivered
 */
public record GroupBatchOptions(int batchSize, int maxBufferedSamples, Overflow overflow, boolean dropRemainder) {

    /** The default bound, in full batches: {@code maxBufferedSamples = 16 * batchSize}. */
    public static final int DEFAULT_BUFFERED_BATCHES = 16;

    /** What a {@link GroupBatchDataset} does when its buffer reaches {@code maxBufferedSamples}. */
    public enum Overflow {
        /** Emit the oldest (first started) batch now, with fewer than {@code batchSize} samples. */
        EMIT_PARTIAL,
        /** Throw an {@link IllegalStateException} naming the bound and the waiting group. */
        FAIL
    }

    /** Checks every setting, with {@code name=value} messages. */
    public GroupBatchOptions {
        Checks.positive("batchSize", batchSize);
        checkBound(batchSize, maxBufferedSamples);
        Objects.requireNonNull(overflow, "overflow");
    }

    /** Defaults for {@code batchSize}: a bound of 16 batches, {@code EMIT_PARTIAL}, remainders delivered. */
    public static GroupBatchOptions of(int batchSize) {
        return builder(batchSize).build();
    }

    /**
     * A builder starting from the defaults of {@link #of(int)}.
     *
     * @throws IllegalArgumentException if {@code batchSize < 1}
     */
    public static Builder builder(int batchSize) {
        return new Builder(Checks.positive("batchSize", batchSize));
    }

    private static int checkBound(int batchSize, int maxBufferedSamples) {
        if (maxBufferedSamples < batchSize) {
            throw new IllegalArgumentException("maxBufferedSamples must be >= batchSize: maxBufferedSamples="
                    + maxBufferedSamples + ", batchSize=" + batchSize);
        }
        return maxBufferedSamples;
    }

    /** Builds {@link GroupBatchOptions}; every setter checks its value at once. */
    public static final class Builder {
        private final int batchSize;
        private int maxBufferedSamples;
        private Overflow overflow = Overflow.EMIT_PARTIAL;
        private boolean dropRemainder;

        private Builder(int batchSize) {
            this.batchSize = batchSize;
            this.maxBufferedSamples = (int) Math.min(Integer.MAX_VALUE, (long) batchSize * DEFAULT_BUFFERED_BATCHES);
        }

        /**
         * The most samples buffered over all groups.
         *
         * @throws IllegalArgumentException if it is less than {@code batchSize}
         */
        public Builder maxBufferedSamples(int maxBufferedSamples) {
            this.maxBufferedSamples = checkBound(batchSize, maxBufferedSamples);
            return this;
        }

        /** What reaching the bound does; {@link Overflow#EMIT_PARTIAL} by default. */
        public Builder overflow(Overflow overflow) {
            this.overflow = Objects.requireNonNull(overflow, "overflow");
            return this;
        }

        /** Whether partial batches left at the end of the data are dropped; {@code false} by default. */
        public Builder dropRemainder(boolean dropRemainder) {
            this.dropRemainder = dropRemainder;
            return this;
        }

        /** The options. */
        public GroupBatchOptions build() {
            return new GroupBatchOptions(batchSize, maxBufferedSamples, overflow, dropRemainder);
        }
    }
}
