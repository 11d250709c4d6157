package org.dataloader4j.image;

/**
 * The 32-bit Mersenne Twister of C++'s {@code std::mt19937}: the same seeding and the same
 * outputs, and a count of the outputs taken so that a position can be saved as a number and
 * restored with {@link #advance(long)}.
 *
 * <p>Single-threaded by contract.
 */
final class Mt19937 {
    private static final int N = 624;
    private static final int M = 397;
    private static final int MATRIX_A = 0x9908B0DF;
    private static final int UPPER_MASK = 0x80000000;
    private static final int LOWER_MASK = 0x7FFFFFFF;

    private final int[] state = new int[N];
    private int index;
    private long draws;

    /** An engine seeded as {@code std::mt19937(seed)}, {@code seed} being the uint32 bit pattern. */
    Mt19937(int seed) {
        state[0] = seed;
        for (int i = 1; i < N; i++) {
            int prev = state[i - 1];
            state[i] = 1812433253 * (prev ^ (prev >>> 30)) + i;
        }
        index = N;
    }

    /** The next 32-bit output, as its bit pattern (read it with {@link Integer#toUnsignedLong}). */
    int next() {
        if (index == N) {
            twist();
        }
        int y = state[index++];
        draws++;
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9D2C5680;
        y ^= (y << 15) & 0xEFC60000;
        y ^= y >>> 18;
        return y;
    }

    /** How many outputs {@link #next()} has given since seeding, including those skipped by {@link #advance}. */
    long draws() {
        return draws;
    }

    /**
     * Skips {@code count} outputs, leaving the engine where {@code count} calls of {@link #next()}
     * would, as {@code std::mt19937::discard} does; it costs one twist per 624 outputs.
     */
    void advance(long count) {
        if (count < 0) {
            throw new IllegalArgumentException("draws must be >= 0: draws=" + count);
        }
        long left = count;
        while (left > 0) {
            if (index == N) {
                twist();
            }
            int step = (int) Math.min(left, N - index);
            index += step;
            left -= step;
        }
        draws += count;
    }

    private void twist() {
        for (int i = 0; i < N; i++) {
            int y = (state[i] & UPPER_MASK) | (state[(i + 1) % N] & LOWER_MASK);
            int v = state[(i + M) % N] ^ (y >>> 1);
            state[i] = (y & 1) == 0 ? v : v ^ MATRIX_A;
        }
        index = 0;
    }
}
