package org.dataloader4j.image;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * OneFlow's random-resized-crop window generator: the options of
 * {@code ofrecord_image_decoder_random_crop} and {@code image_random_crop}, with OneFlow's names
 * and defaults, and the {@link Slot generators} that draw the windows, bit for bit as OneFlow's
 * released builds draw them.
 *
 * <p>OneFlow keeps one generator per batch slot: {@link #slots(int) slot} {@code i} handles the
 * {@code i}-th image of every batch, and each image advances only its own slot. The slots are
 * seeded from one seed through {@code std::seed_seq}, whose output depends on how many values it
 * generates, so the windows depend on the batch size as well as on the seed: the same seed with
 * another batch size gives other windows, as in OneFlow.
 *
 * <p>OneFlow relies on two details of the C++ library it is compiled with. Its released builds use
 * the libstdc++ of GCC 10 or older, and so does this class (the <em>legacy</em> variant):
 * {@code std::seed_seq} computed in {@code int} (see {@code SeedSequence}) and
 * {@code std::uniform_int_distribution<int>} by division. The same OneFlow source compiled with
 * GCC 11 or later draws other windows.
 *
 * <p>The area and aspect-ratio bounds are float32 values, as OneFlow's attributes are: the default
 * upper aspect ratio is the float nearest 1.333333, not 4/3, and that changes some windows.
 *
 * <p>Instances are immutable and may be shared between threads; a {@link Slot} may not.
 */
public final class RandomCrop {
    private final float areaMin;
    private final float areaMax;
    private final float aspectMin;
    private final float aspectMax;
    private final float logAspectMin;
    private final float logAspectMax;
    private final int numAttempts;
    private final long seed;

    private RandomCrop(Builder b, long seed) {
        this.areaMin = b.areaMin;
        this.areaMax = b.areaMax;
        this.aspectMin = b.aspectMin;
        this.aspectMax = b.aspectMax;
        this.logAspectMin = logf(b.aspectMin);
        this.logAspectMax = logf(b.aspectMax);
        this.numAttempts = b.numAttempts;
        this.seed = seed;
    }

    /** A builder holding OneFlow's defaults, with a random seed. */
    public static Builder builder() {
        return new Builder();
    }

    /** The range of a window's area, as fractions of the image's area: {@code [min, max]}, a new array. */
    public float[] randomArea() {
        return new float[] {areaMin, areaMax};
    }

    /** The range of a window's aspect ratio, width over height: {@code [min, max]}, a new array. */
    public float[] randomAspectRatio() {
        return new float[] {aspectMin, aspectMax};
    }

    /** How many random windows are tried before the fallback window is taken. */
    public int numAttempts() {
        return numAttempts;
    }

    /**
     * The seed of the slots: the one given to the builder, or the one drawn for it (never
     * {@code -1}), which rebuilds the same generators when given to a builder. Only its value
     * modulo 2<sup>32</sup> matters.
     */
    public long seed() {
        return seed;
    }

    /**
     * One new generator for each of the {@code batchSize} slots of a batch, at its start, seeded as
     * OneFlow's {@code RandomCropKernelState(batchSize, seed)}: {@code std::seed_seq{seed}} generates
     * {@code batchSize} values, and slot {@code i}'s {@code std::mt19937} is seeded with value
     * {@code i}. Slot {@code i} is for the {@code i}-th image of every batch.
     *
     * @return an unmodifiable list of {@code batchSize} slots, each owned by the caller
     * @throws IllegalArgumentException if {@code batchSize} is not positive
     */
    public List<Slot> slots(int batchSize) {
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batchSize must be > 0: batchSize=" + batchSize);
        }
        // std::seed_seq keeps seed mod 2^32, which is what the narrowing cast keeps.
        int[] seeds = SeedSequence.legacyIntOutput((int) seed, batchSize);
        List<Slot> slots = new ArrayList<>(batchSize);
        for (int s : seeds) {
            slots.add(new Slot(this, new Mt19937(s)));
        }
        return Collections.unmodifiableList(slots);
    }

    /** The natural logarithm of the lower aspect ratio, in float, as the generator draws it. */
    float logAspectMin() {
        return logAspectMin;
    }

    /** The natural logarithm of the upper aspect ratio, in float, as the generator draws it. */
    float logAspectMax() {
        return logAspectMax;
    }

    @Override
    public String toString() {
        return "RandomCrop[randomArea=[" + areaMin + ", " + areaMax + "], randomAspectRatio=[" + aspectMin + ", "
                + aspectMax + "], numAttempts=" + numAttempts + ", seed=" + seed + "]";
    }

    // StrictMath, so that every platform draws the same windows. float(exp(double(x))) differs from
    // glibc's expf in the last bit now and then, which changes no window of OneFlow's that the
    // tests compare with; log and exp are the only libm calls, sqrt and round are exact.
    private static float logf(float x) {
        return (float) StrictMath.log(x);
    }

    private static float expf(float x) {
        return (float) StrictMath.exp(x);
    }

    /** A float square root, correctly rounded as C's {@code sqrtf}: the double root rounds to the same float. */
    private static float sqrtf(float x) {
        return (float) Math.sqrt(x);
    }

    /**
     * The generator of one batch slot: OneFlow's {@code RandomCropGenerator} with its own
     * {@code std::mt19937}. Its position is a count of 32-bit draws ({@link #draws()}), so that a
     * reader can save it as a number and resume with {@link #advance(long)}.
     *
     * <p>Single-threaded by contract; different slots share no state and may be used by different
     * threads.
     */
    public static final class Slot {
        private final RandomCrop crop;
        private final Mt19937 rng;

        private Slot(RandomCrop crop, Mt19937 rng) {
            this.crop = crop;
            this.rng = rng;
        }

        /**
         * The next window for an image of {@code imageWidth × imageHeight}, which lies inside it;
         * it advances this slot. Up to {@code numAttempts} sizes are drawn, each an area and then
         * an aspect ratio in range, and the first that fits the image is taken. If none fits, the
         * window is the whole image, or the largest part of it whose aspect ratio is in range,
         * shrunk to at most the largest area in range. An image so narrow or so flat that no
         * window in the aspect range reaches the smallest area gets the widest or tallest window
         * in range, without attempts. On every path the anchor is drawn last, row before column.
         *
         * @throws IllegalArgumentException if a size is not positive
         */
        public CropWindow next(int imageWidth, int imageHeight) {
            if (imageWidth <= 0 || imageHeight <= 0) {
                throw new IllegalArgumentException("image size must be positive: imageWidth=" + imageWidth
                        + " imageHeight=" + imageHeight);
            }
            // OneFlow's names: W, H, maxW, maxH. Products of two sizes are longs where OneFlow's int
            // would overflow; wherever it does not, the float of either is the same.
            final int W = imageWidth;
            final int H = imageHeight;
            final float minArea = (float) ((long) W * H) * crop.areaMin;
            final int maxW = Math.max(1, (int) ((float) H * crop.aspectMax));
            final int maxH = Math.max(1, (int) ((float) W * (1 / crop.aspectMin)));
            int w;
            int h;
            if ((float) ((long) H * maxW) < minArea) {
                w = maxW;
                h = H;
            } else if ((float) ((long) W * maxH) < minArea) {
                w = W;
                h = maxH;
            } else {
                long shape = attempt(W, H);
                if (shape < 0) {
                    shape = fallback(W, H, maxW, maxH);
                }
                w = (int) (shape >>> 32);
                h = (int) shape;
            }
            int y = Uniform.legacyInt(rng, H - h);
            int x = Uniform.legacyInt(rng, W - w);
            return new CropWindow(x, y, w, h);
        }

        /** The accepted window of up to {@code numAttempts} tries, as {@code w << 32 | h}, or -1 if none fits. */
        private long attempt(int W, int H) {
            final float area = (float) ((long) H * W);
            for (int left = crop.numAttempts; left > 0; left--) {
                // The area is drawn before the ratio; the order is part of the output.
                float scale = Uniform.real(rng, crop.areaMin, crop.areaMax);
                float target = scale * area;
                float ratio = expf(Uniform.real(rng, crop.logAspectMin, crop.logAspectMax));
                // Math.round is roundf for the non-negative roots: halves go up, away from zero.
                int w = Math.max(1, Math.round(sqrtf(target * ratio)));
                int h = Math.max(1, Math.round(sqrtf(target / ratio)));
                float got = (float) w / (float) h;
                if (w <= W && h <= H && got >= crop.aspectMin && got <= crop.aspectMax) {
                    return (long) w << 32 | h;
                }
            }
            return -1;
        }

        /** The window when every attempt failed, as {@code w << 32 | h}. */
        private long fallback(int W, int H, int maxW, int maxH) {
            final float maxArea = (crop.areaMax * (float) W) * (float) H;
            final float r = (float) W / (float) H;
            long w;
            long h;
            if (r > crop.aspectMax) {
                w = maxW;
                h = H;
            } else if (r < crop.aspectMin) {
                w = W;
                h = maxH;
            } else {
                w = W;
                h = H;
            }
            float root = sqrtf(Math.min(1.0f, maxArea / (float) (h * w)));
            long newH = Math.max(1, (long) ((float) h * root));
            long newW = Math.max(1, (long) ((float) w * root));
            return newW << 32 | newH;
        }

        /**
         * How many 32-bit outputs this slot's generator has given since it was seeded: its
         * position, which {@link #advance(long)} restores on a new slot of the same batch size and
         * seed.
         */
        public long draws() {
            return rng.draws();
        }

        /**
         * Skips {@code draws} 32-bit outputs of this slot's generator. On a new slot, from
         * {@link #slots(int)} of the same options and batch size, {@code advance(saved.draws())}
         * leaves it where {@code saved} was, and their next windows are the same. The skipped
         * outputs are not computed: the cost is one pass over the generator's state per 624 draws.
         *
         * @throws IllegalArgumentException if {@code draws} is negative
         */
        public void advance(long draws) {
            rng.advance(draws);
        }

        /** This slot's generator, for other random choices of the same image (a coin flip); they count as draws. */
        Mt19937 generator() {
            return rng;
        }
    }

    /**
     * Options of a {@link RandomCrop}, each checked when set. Defaults are OneFlow's:
     * {@code randomArea} {@code [0.08, 1.0]}, {@code randomAspectRatio} {@code [0.75, 1.333333]},
     * {@code numAttempts} 10, and a random seed.
     */
    public static final class Builder {
        private float areaMin = 0.08f;
        private float areaMax = 1.0f;
        private float aspectMin = 0.75f;
        private float aspectMax = 1.333333f;
        private int numAttempts = 10;
        private long seed = -1;

        private Builder() {
        }

        /**
         * The range of a window's area, as fractions of the image's area (OneFlow's
         * {@code random_area}).
         *
         * @throws IllegalArgumentException unless {@code 0 < min <= max <= 1}
         */
        public Builder randomArea(float min, float max) {
            if (!(min > 0 && min <= max && max <= 1)) {
                throw new IllegalArgumentException("randomArea must satisfy 0 < min <= max <= 1: randomArea=[" + min
                        + ", " + max + "]");
            }
            this.areaMin = min;
            this.areaMax = max;
            return this;
        }

        /**
         * The range of a window's aspect ratio, width over height (OneFlow's
         * {@code random_aspect_ratio}).
         *
         * @throws IllegalArgumentException unless {@code 0 < min <= max} and both are finite
         */
        public Builder randomAspectRatio(float min, float max) {
            if (!(min > 0 && min <= max && max < Float.POSITIVE_INFINITY)) {
                throw new IllegalArgumentException("randomAspectRatio must satisfy 0 < min <= max < infinity: "
                        + "randomAspectRatio=[" + min + ", " + max + "]");
            }
            this.aspectMin = min;
            this.aspectMax = max;
            return this;
        }

        /**
         * How many random windows are tried before the fallback window is taken (OneFlow's
         * {@code num_attempts}).
         *
         * @throws IllegalArgumentException if {@code numAttempts} is not positive
         */
        public Builder numAttempts(int numAttempts) {
            if (numAttempts <= 0) {
                throw new IllegalArgumentException("numAttempts must be > 0: numAttempts=" + numAttempts);
            }
            this.numAttempts = numAttempts;
            return this;
        }

        /**
         * The seed of the slots (OneFlow's {@code seed}); only its value modulo 2<sup>32</sup>
         * matters. {@code -1}, the default, means a random seed, drawn by {@link #build()} and
         * read back with {@link RandomCrop#seed()}.
         */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** The options. */
        public RandomCrop build() {
            return new RandomCrop(this, seed == -1 ? ThreadLocalRandom.current().nextLong(1L << 32) : seed);
        }
    }
}
