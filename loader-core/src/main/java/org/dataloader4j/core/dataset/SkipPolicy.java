package org.dataloader4j.core.dataset;

/**
 * How many corrupt records a reader may skip before it fails: none ({@link #STRICT}, the
 * default), at most a number ({@link #maxRecords}), or at most a share of the records read so
 * far ({@link #maxRatio}). Checked at each corrupt record, counting it.
 *
 * @param maxRecords the most records skipped, when {@code maxRatio} is 0
 * @param maxRatio   the most skipped records per record read, in (0, 1), or 0 for a count
 */
public record SkipPolicy(long maxRecords, double maxRatio) {
    /** Fails on the first corrupt record. */
    public static final SkipPolicy STRICT = new SkipPolicy(0, 0);

    /**
     * @throws IllegalArgumentException if a bound is negative, the ratio is not below 1, or both
     *                                  bounds are set
     */
    public SkipPolicy {
        if (maxRecords < 0) {
            throw new IllegalArgumentException("maxRecords must be >= 0: maxRecords=" + maxRecords);
        }
        if (!(maxRatio >= 0 && maxRatio < 1)) {
            throw new IllegalArgumentException("maxRatio must be in [0, 1): maxRatio=" + maxRatio);
        }
        if (maxRecords > 0 && maxRatio > 0) {
            throw new IllegalArgumentException("set maxRecords or maxRatio, not both: maxRecords=" + maxRecords
                    + " maxRatio=" + maxRatio);
        }
    }

    /** Skips at most {@code maxRecords} corrupt records in all; 0 is {@link #STRICT}. */
    public static SkipPolicy maxRecords(long maxRecords) {
        return new SkipPolicy(maxRecords, 0);
    }

    /**
     * Skips corrupt records while they are at most {@code maxRatio} of the records read so far
     * (good and corrupt): {@code floor(maxRatio * read)} of them, and at least one, so a ratio
     * can be kept from the first record on.
     */
    public static SkipPolicy maxRatio(double maxRatio) {
        if (!(maxRatio > 0)) {
            throw new IllegalArgumentException("maxRatio must be in (0, 1): maxRatio=" + maxRatio);
        }
        return new SkipPolicy(0, maxRatio);
    }

    /** Whether the first corrupt record fails the reader. */
    public boolean strict() {
        return maxRecords == 0 && maxRatio == 0;
    }

    /** The corrupt records allowed once {@code read} records (good and corrupt) have been read. */
    public long allowed(long read) {
        return maxRatio > 0 ? Math.max(1, (long) Math.floor(maxRatio * read)) : maxRecords;
    }

    /** {@code maxRecords=N} or {@code maxRatio=R}, as set. */
    @Override
    public String toString() {
        return maxRatio > 0 ? "maxRatio=" + maxRatio : "maxRecords=" + maxRecords;
    }
}
