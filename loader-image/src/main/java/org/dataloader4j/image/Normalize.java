package org.dataloader4j.image;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The last step of the fused path: a window of an HWC uint8 image, mirrored left to right if
 * asked, each channel normalized as OneFlow's {@code crop_mirror_normalize} does,
 * {@code (v - mean[c]) * (1 / std[c])} in float32, written as one float32 row in the transform's
 * layout.
 */
final class Normalize {
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private Normalize() {
    }

    /**
     * Writes the {@code width × height} window at {@code (x, y)} of {@code src} (an image of
     * {@code srcWidth × srcHeight × channels}) into {@code dst}, mirrored if {@code mirror}.
     */
    static void write(MemorySegment src, int srcWidth, int srcHeight, int channels, int x, int y, int width, int height,
                      boolean mirror, ImageTransform t, MemorySegment dst) {
        if (x < 0 || y < 0 || x + width > srcWidth || y + height > srcHeight) {
            throw new IllegalArgumentException("window " + width + "x" + height + " at " + x + "," + y
                    + " is outside the image's " + srcWidth + "x" + srcHeight);
        }
        float[] mean = t.mean();
        float[] invStd = t.std();
        for (int c = 0; c < channels; c++) {
            invStd[c] = 1f / invStd[c];
        }
        boolean nchw = t.layout() == ImageTransform.Layout.NCHW;
        long plane = (long) width * height;
        for (int row = 0; row < height; row++) {
            long srcRow = ((long) (y + row) * srcWidth + x) * channels;
            for (int col = 0; col < width; col++) {
                long s = srcRow + (long) (mirror ? width - 1 - col : col) * channels;
                for (int c = 0; c < channels; c++) {
                    float v = (src.get(ValueLayout.JAVA_BYTE, s + c) & 0xFF) - mean[c];
                    long at = nchw ? c * plane + (long) row * width + col : ((long) row * width + col) * channels + c;
                    dst.setAtIndex(FLOAT, at, v * invStd[c]);
                }
            }
        }
    }

    /**
     * The size, {@code {width, height}}, of an image of {@code width × height} resized so that its
     * shorter side is {@code shorter}, the longer one in proportion, rounded to the nearest pixel.
     */
    static int[] shorterSide(int width, int height, int shorter) {
        if (width <= height) {
            return new int[] {shorter, Math.max(shorter, (int) Math.round((double) height * shorter / width))};
        }
        return new int[] {Math.max(shorter, (int) Math.round((double) width * shorter / height)), shorter};
    }
}
