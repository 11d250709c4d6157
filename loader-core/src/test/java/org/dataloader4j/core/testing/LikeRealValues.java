package org.dataloader4j.core.testing;

import java.util.Random;

/**
 * Seeded values shaped like those of the datasets the fast paths are built for, for the parsers'
 * tests of both paths (this module's test jar): MNIST-like images, whose long float rows are
 * copied first, and BERT-like token rows, whose packed varints the Vector API decodes.
 */
public final class LikeRealValues {
    /** The values of a BERT-like row: ids, mask and segment ids each hold this many. */
    public static final int TOKENS = 128;

    private LikeRealValues() {
    }

    /** 784 pixels of a 28 × 28 image: four fifths zero, the rest {@code k / 255}. */
    public static float[] mnistPixels(Random random) {
        float[] pixels = new float[784];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = random.nextInt(5) == 0 ? random.nextInt(256) / 255f : 0;
        }
        return pixels;
    }

    /**
     * The token ids, input mask and segment ids of a sentence pair of 5 to {@value #TOKENS} tokens,
     * padded with zeros to {@value #TOKENS} each: ids of one to three bytes, then one-byte runs.
     */
    public static long[][] bertRows(Random random) {
        int length = 5 + random.nextInt(TOKENS - 4);
        long[] ids = new long[TOKENS];
        long[] mask = new long[TOKENS];
        long[] segments = new long[TOKENS];
        int first = random.nextInt(length);
        for (int i = 0; i < length; i++) {
            ids[i] = i == 0 ? 101 : 1000 + random.nextInt(29_000);
            mask[i] = 1;
            segments[i] = i > first ? 1 : 0;
        }
        return new long[][] {ids, mask, segments};
    }
}
