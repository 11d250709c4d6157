package org.dataloader4j.image;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * OneFlow's {@code coin_flip}: one Bernoulli draw a row, 1 with {@code probability}, else 0, as
 * int8 (the {@code mirror} input of {@link CropMirrorNormalize}). OneFlow draws with libstdc++'s
 * {@code std::bernoulli_distribution} from a {@code std::mt19937}; this class makes the same draw
 * from the same 32-bit words, whatever source gives them:
 * <ul>
 *   <li>two words {@code lo}, then {@code hi}, make a double in [0, 1) as
 *       {@code std::generate_canonical<double, 53>} does:
 *       {@code (lo + hi * 2^32) / 2^64}, the sum rounded to double, and a result of 1.0 replaced
 *       by the largest double below it;</li>
 *   <li>the flip is 1 when that double is below the probability, widened from {@code float}
 *       to {@code double} as OneFlow's attribute is.</li>
 * </ul>
 * A probability of 0 never flips and of 1 always does, but both still take two words a draw,
 * so that the source stays in step with OneFlow's. Single-threaded: the word source is state.
 */
public final class CoinFlip {
    private static final double TWO_TO_32 = 0x1p32;
    private static final double TWO_TO_64 = 0x1p64;

    private final double probability;
    private final IntSupplier words;

    /**
     * A coin that comes up 1 with {@code probability}, drawing from {@code words}: a source of
     * uniformly distributed 32-bit words, each int read as unsigned, such as a Mersenne Twister
     * seeded as OneFlow seeds {@code std::mt19937}.
     *
     * @throws IllegalArgumentException if {@code probability} is not in [0, 1]
     */
    public CoinFlip(float probability, IntSupplier words) {
        if (!(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("probability must lie in [0, 1]: probability=" + probability);
        }
        this.probability = probability;
        this.words = Objects.requireNonNull(words, "words");
    }

    /**
     * OneFlow's coin: {@code probability}, drawn from a {@code std::mt19937} seeded with
     * {@code seed}'s low 32 bits.
     *
     * @throws IllegalArgumentException if {@code probability} is not in [0, 1]
     */
    public static CoinFlip seeded(float probability, long seed) {
        return new CoinFlip(probability, new Mt19937((int) seed)::next);
    }

    /** The next draw: true (1) with the coin's probability. Takes two words. */
    public boolean next() {
        return canonical(words.getAsInt(), words.getAsInt()) < probability;
    }

    /**
     * Draws {@code rows} times, in order, into {@code out} from byte 0 on: 1 or 0 a byte.
     *
     * @throws IllegalArgumentException if {@code rows} is negative or {@code out} is shorter
     */
    public void fill(MemorySegment out, long rows) {
        if (rows < 0 || out.byteSize() < rows) {
            throw new IllegalArgumentException("out must hold one byte a row: rows=" + rows + " byteSize=" + out.byteSize());
        }
        for (long i = 0; i < rows; i++) {
            out.set(ValueLayout.JAVA_BYTE, i, next() ? (byte) 1 : (byte) 0);
        }
    }

    /** {@code std::generate_canonical<double, 53>} of two 32-bit words, the first the low one. */
    static double canonical(int lo, int hi) {
        double sum = Integer.toUnsignedLong(lo) + Integer.toUnsignedLong(hi) * TWO_TO_32;
        double r = sum / TWO_TO_64;
        return r >= 1.0 ? Math.nextDown(1.0) : r;
    }
}
