package org.dataloader4j.image;

/**
 * The two libstdc++ distributions that OneFlow's random crop draws from an {@link Mt19937},
 * reproduced output for output.
 */
final class Uniform {
    /** 2<sup>32</sup>: the span of an mt19937 output. */
    private static final float TWO_POW_32 = 4294967296.0f;
    /** {@code std::mt19937::max()}. */
    private static final long ENGINE_MAX = 0xFFFFFFFFL;

    private Uniform() {
    }

    /**
     * {@code std::uniform_real_distribution<float>(a, b)(g)} in libstdc++ (every version): one
     * output {@code u}, {@code c = float(u) / 2^32} in float, kept below 1, then
     * {@code c * (b - a) + a} as a float multiply and a separate float add. Java never fuses the two.
     */
    static float real(Mt19937 g, float a, float b) {
        // float(u) rounds to nearest, so u close to 2^32 gives c == 1, which libstdc++ clamps.
        float c = (float) Integer.toUnsignedLong(g.next()) / TWO_POW_32;
        if (c >= 1.0f) {
            c = Math.nextDown(1.0f);
        }
        return c * (b - a) + a;
    }

    /**
     * {@code std::uniform_int_distribution<int>(0, range)(g)} in the libstdc++ of GCC 10 and
     * older (the <em>legacy</em> division method): {@code scaling = 0xFFFFFFFF / (range + 1)},
     * outputs drawn until one is below {@code (range + 1) * scaling}, then divided by
     * {@code scaling}. Usually one output; rejections take more.
     */
    static int legacyInt(Mt19937 g, int range) {
        assert range >= 0 : "range=" + range;
        long n = range + 1L;
        long scaling = ENGINE_MAX / n;
        long past = n * scaling;
        long u;
        do {
            u = Integer.toUnsignedLong(g.next());
        } while (u >= past);
        return (int) (u / scaling);
    }
}
