package org.dataloader4j.image;

import java.util.Arrays;

/**
 * C++'s {@code std::seed_seq{seed}.generate(first, last)} into a {@code std::vector<int>}, as the
 * libstdc++ of GCC 10 and older computes it: the <em>legacy</em> variant, which OneFlow's released
 * builds use to seed one random-crop generator per batch slot.
 *
 * <p>The C++ standard asks for unsigned output elements and arithmetic modulo 2<sup>32</sup>;
 * OneFlow passes {@code int} elements, and old libstdc++ computes in the element type. The only
 * difference that makes is in {@code x ^ (x >> 27)}: for an {@code int}, {@code >>} is an
 * arithmetic shift, so a negative {@code x} shifts in ones. Java's {@code >>} on an {@code int}
 * is that same arithmetic shift, and every other step wraps modulo 2<sup>32</sup> in both. (The
 * standard values, which the libstdc++ of GCC 11 and later gives, would use {@code >>>}.)
 */
final class SeedSequence {
    private static final int INITIAL = 0x8B8B8B8B;

    private SeedSequence() {
    }

    /**
     * The {@code count} values that {@code std::seed_seq{seed}} generates into a
     * {@code std::vector<int>} under legacy libstdc++; {@code seed} is the uint32 the sequence
     * keeps (the caller's seed modulo 2<sup>32</sup>). The values depend on {@code count}, not
     * only on the seed.
     */
    static int[] legacyIntOutput(int seed, int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0: count=" + count);
        }
        int n = count;
        int[] b = new int[n];
        Arrays.fill(b, INITIAL);
        if (n == 0) {
            return b;
        }
        int s = 1; // the number of seed values: OneFlow passes one
        int t = n >= 623 ? 11 : n >= 68 ? 7 : n >= 39 ? 5 : n >= 7 ? 3 : (n - 1) / 2;
        int p = (n - t) / 2;
        int q = p + t;
        int m = Math.max(s + 1, n);
        for (int k = 0; k < m; k++) {
            int r1 = 1664525 * legacyMix(b[k % n] ^ b[(k + p) % n] ^ b[(k + n - 1) % n]);
            int r2 = r1 + (k == 0 ? s : k <= s ? k % n + seed : k % n);
            b[(k + p) % n] += r1;
            b[(k + q) % n] += r2;
            b[k % n] = r2;
        }
        for (int k = m; k < m + n; k++) {
            int r3 = 1566083941 * legacyMix(b[k % n] + b[(k + p) % n] + b[(k + n - 1) % n]);
            int r4 = r3 - k % n;
            b[(k + p) % n] ^= r3;
            b[(k + q) % n] ^= r4;
            b[k % n] = r4;
        }
        return b;
    }

    /** {@code x ^ (x >> 27)} with {@code x} an {@code int}: the shift is arithmetic, on purpose. */
    private static int legacyMix(int x) {
        return x ^ (x >> 27);
    }
}
