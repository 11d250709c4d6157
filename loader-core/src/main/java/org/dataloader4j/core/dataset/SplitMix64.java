package org.dataloader4j.core.dataset;

/**
 * A small random generator whose whole state is one {@code long}, so a decorator can save it in
 * its {@code DatasetState} and continue the same sequence after a restore: Steele, Lea and
 * Flood's SplitMix64 (the generator behind {@code java.util.SplittableRandom}), with Lemire's
 * unbiased bounded integers. Not thread-safe.
 */
final class SplitMix64 {
    private long state;

    SplitMix64(long state) {
        this.state = state;
    }

    /** The whole state: a generator built from it continues this one's sequence. */
    long state() {
        return state;
    }

    long nextLong() {
        long z = state += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A uniform integer in {@code [0, bound)}; {@code bound >= 1}. */
    int nextInt(int bound) {
        long m = (nextLong() >>> 32) * bound;
        long low = m & 0xFFFFFFFFL;
        if (low < bound) {
            long threshold = (0x1_0000_0000L - bound) % bound;
            while (low < threshold) {
                m = (nextLong() >>> 32) * bound;
                low = m & 0xFFFFFFFFL;
            }
        }
        return (int) (m >>> 32);
    }
}
