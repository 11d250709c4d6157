package org.dataloader4j.image;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * OneFlow's {@code image_resize} on one HWC uint8 image: bilinear resizing as OpenCV's
 * {@code cv::resize} with {@code INTER_LINEAR} computes it for 8-bit images, byte for byte, and
 * the output sizes of its keep-aspect-ratio variant ({@link #keepAspectRatio}).
 *
 * <p>The arithmetic is OpenCV's (checked against OpenCV 4.6.0 on x86-64, whose vector code
 * computes every output byte):
 * <ul>
 *   <li>pixel centres are aligned: the source column of output column {@code dx} is
 *       {@code fx = (float) ((dx + 0.5) * scale - 0.5)} with {@code scale = 1.0 / (dstWidth / (double) width)};
 *       its integer part {@code sx} and fraction give the two source columns and weights. Left of
 *       the first column and right of the last the edge column is taken alone. Rows likewise,
 *       except that OpenCV keeps the fraction of a clamped row, which matters to the rounding
 *       below;</li>
 *   <li>weights are fixed point, {@code rint(w * 2048)} in {@code float};</li>
 *   <li>a row is first interpolated across: {@code D = S[sx] * a0 + S[sx + 1] * a1}, exactly;</li>
 *   <li>then down, in OpenCV's 16-bit lanes:
 *       {@code ((D0 >> 4) * b0 >> 16) + ((D1 >> 4) * b1 >> 16)}, plus 2, shifted right by 2. This
 *       is not OpenCV's scalar fallback, {@code (D0 * b0 + D1 * b1 + (1 << 21)) >> 22}, which
 *       differs by one in many bytes (about one in eight of a random image's);</li>
 *   <li>an image of the same size is copied; no antialiasing when shrinking.</li>
 * </ul>
 * Stateless; each call allocates its small coefficient tables and two rows.
 */
public final class ImageResize {
    private static final int COEF_BITS = 11;
    private static final float COEF_SCALE = 1 << COEF_BITS;

    private ImageResize() {
    }

    /** Which side of the image {@link #keepAspectRatio}'s target size is for. */
    public enum Side {
        /** The shorter side becomes the target size (OneFlow's {@code resize_side="shorter"}, its default). */
        SHORTER,
        /** The longer side becomes the target size ({@code resize_side="longer"}). */
        LONGER
    }

    /**
     * Resizes {@code src}, an image of {@code width × height} pixels of {@code channels} bytes,
     * HWC, to {@code dstWidth × dstHeight} in {@code dst}, HWC. The segments are read and
     * written from offset 0 and must not overlap.
     *
     * @throws IllegalArgumentException if a size is under 1, a row is over 2<sup>31</sup> - 1 bytes,
     *                                  or a segment is too small for its image
     */
    public static void resize(MemorySegment src, int width, int height, int channels,
                              MemorySegment dst, int dstWidth, int dstHeight) {
        checkImage("src", src, width, height, channels);
        checkImage("dst", dst, dstWidth, dstHeight, channels);
        if (width == dstWidth && height == dstHeight) {
            MemorySegment.copy(src, 0, dst, 0, (long) width * height * channels);
            return;
        }
        int rowBytes = width * channels;
        int dstRowBytes = dstWidth * channels;
        int[] xOffsets = new int[dstRowBytes];
        int[][] xWeights = {new int[dstRowBytes], new int[dstRowBytes]};
        columns(width, dstWidth, channels, xOffsets, xWeights);
        double scaleY = 1.0 / ((double) dstHeight / height);

        byte[] srcRow = new byte[rowBytes];
        int[][] rows = {new int[dstRowBytes], new int[dstRowBytes]};
        int[] rowIndex = {-1, -1};
        byte[] out = new byte[dstRowBytes];
        int[] rowAt = new int[4];
        for (int dy = 0; dy < dstHeight; dy++) {
            sourceRows(dy, scaleY, height, rowAt);
            int b0 = rowAt[2];
            int b1 = rowAt[3];
            int[] d0 = horizontal(src, rowAt[0], rows, rowIndex, srcRow, xOffsets, xWeights, channels);
            int[] d1 = horizontal(src, rowAt[1], rows, rowIndex, srcRow, xOffsets, xWeights, channels);
            for (int x = 0; x < dstRowBytes; x++) {
                out[x] = (byte) vertical(d0[x], d1[x], b0, b1);
            }
            MemorySegment.copy(out, 0, dst, ValueLayout.JAVA_BYTE, (long) dy * dstRowBytes, dstRowBytes);
        }
    }

    /** Each output byte's first source byte in a row, and its two weights. */
    private static void columns(int width, int dstWidth, int channels, int[] xOffsets, int[][] xWeights) {
        int[] sx = new int[dstWidth];
        int[] a0 = new int[dstWidth];
        int[] a1 = new int[dstWidth];
        sourceColumns(width, dstWidth, sx, a0, a1);
        for (int dx = 0; dx < dstWidth; dx++) {
            for (int c = 0; c < channels; c++) {
                xOffsets[dx * channels + c] = sx[dx] * channels + c;
                xWeights[0][dx * channels + c] = a0[dx];
                xWeights[1][dx * channels + c] = a1[dx];
            }
        }
    }

    /**
     * The source column {@code sx[dx]} of each output column {@code dx} of {@code dstWidth},
     * and the fixed-point weights {@code a0[dx]} of column {@code sx} and {@code a1[dx]} of the
     * one right of it. Edge columns are clamped with a weight of 0 to the right.
     */
    static void sourceColumns(int width, int dstWidth, int[] sx, int[] a0, int[] a1) {
        double scaleX = 1.0 / ((double) dstWidth / width);
        for (int dx = 0; dx < dstWidth; dx++) {
            float fx = (float) ((dx + 0.5) * scaleX - 0.5);
            int x = (int) Math.floor(fx);
            fx -= x;
            if (x < 0) {
                fx = 0;
                x = 0;
            }
            if (x >= width - 1) {
                fx = 0;
                x = width - 1;
            }
            sx[dx] = x;
            a0[dx] = (int) Math.rint((1.0f - fx) * COEF_SCALE);
            a1[dx] = (int) Math.rint(fx * COEF_SCALE);
        }
    }

    /**
     * Output row {@code dy}'s two source rows and their weights, into {@code at}: {@code {y0, y1,
     * b0, b1}}, for {@code scaleY = 1.0 / ((double) dstHeight / height)}.
     */
    static void sourceRows(int dy, double scaleY, int height, int[] at) {
        float fy = (float) ((dy + 0.5) * scaleY - 0.5);
        int sy = (int) Math.floor(fy);
        fy -= sy;
        at[0] = Math.clamp(sy, 0, height - 1);
        at[1] = Math.clamp(sy + 1, 0, height - 1);
        at[2] = (int) Math.rint((1.0f - fy) * COEF_SCALE);
        at[3] = (int) Math.rint(fy * COEF_SCALE);
    }

    /** An output byte from two rows interpolated across, {@code d0} and {@code d1}, with weights {@code b0} and {@code b1}. */
    static int vertical(int d0, int d1, int b0, int b1) {
        int t = (((d0 >> 4) * b0) >> 16) + (((d1 >> 4) * b1) >> 16);
        return Math.min(Math.max((t + 2) >> 2, 0), 255);
    }

    /** Source row {@code y} interpolated across, from the two rows kept if it is one of them. */
    private static int[] horizontal(MemorySegment src, int y, int[][] rows, int[] rowIndex, byte[] srcRow,
                                    int[] xOffsets, int[][] xWeights, int channels) {
        for (int i = 0; i < 2; i++) {
            if (rowIndex[i] == y) {
                return rows[i];
            }
        }
        // Rows are asked for in rising order: the lower index kept is the one not needed again.
        int slot = rowIndex[0] < rowIndex[1] ? 0 : 1;
        rowIndex[slot] = y;
        int[] d = rows[slot];
        MemorySegment.copy(src, ValueLayout.JAVA_BYTE, (long) y * srcRow.length, srcRow, 0, srcRow.length);
        int[] weights0 = xWeights[0];
        int[] weights1 = xWeights[1];
        int last = srcRow.length - channels;
        for (int x = 0; x < d.length; x++) {
            int s = xOffsets[x];
            // The last column has no right neighbour, and its second weight is 0: it reads itself again.
            int right = s >= last ? s : s + channels;
            d[x] = (srcRow[s] & 0xFF) * weights0[x] + (srcRow[right] & 0xFF) * weights1[x];
        }
        return d;
    }

    static void checkImage(String name, MemorySegment image, int width, int height, int channels) {
        if (width < 1 || height < 1 || channels < 1) {
            throw new IllegalArgumentException(name + " must have a positive size: width=" + width + " height=" + height
                    + " channels=" + channels);
        }
        if ((long) width * channels > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(name + " rows are too long: width=" + width + " channels=" + channels);
        }
        long needed = (long) width * height * channels;
        if (image.byteSize() < needed) {
            throw new IllegalArgumentException(name + " is too small: byteSize=" + image.byteSize() + " needed=" + needed
                    + " width=" + width + " height=" + height + " channels=" + channels);
        }
    }

    /**
     * The size OneFlow's {@code image_resize} with {@code keep_aspect_ratio=True} resizes an
     * image of {@code width × height} to ({@code image_resize_keep_aspect_ratio}): the
     * {@code side} asked for becomes {@code targetSize} and the other keeps the aspect ratio,
     * rounded half to even; then, for {@link Side#SHORTER}, if the longer side would pass
     * {@code maxSize} (when above 0) it becomes {@code maxSize} and the shorter follows, and for
     * {@link Side#LONGER}, if the shorter side would fall below {@code minSize} (when above 0) it
     * becomes {@code minSize} and the longer follows. OneFlow's arithmetic, in {@code double}:
     * {@code ratio = min(h, w) / max(h, w)}, the shorter side {@code rint(longer * ratio)}, the
     * longer {@code rint(shorter / ratio)}. A square image gives a square.
     *
     * @param minSize 0 for none
     * @param maxSize 0 for none
     * @throws IllegalArgumentException if a size is under 1, {@code targetSize} is below
     *                                  {@code minSize} or above {@code maxSize} where they are set,
     *                                  or a side would round to 0 pixels
     */
    public static ImageSize keepAspectRatio(int width, int height, int targetSize, Side side, int minSize, int maxSize) {
        java.util.Objects.requireNonNull(side, "side");
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("the image must have a positive size: width=" + width + " height=" + height);
        }
        if (targetSize < 1 || minSize < 0 || maxSize < 0) {
            throw new IllegalArgumentException("targetSize must be > 0 and minSize, maxSize >= 0: targetSize=" + targetSize
                    + " minSize=" + minSize + " maxSize=" + maxSize);
        }
        if ((minSize > 0 && targetSize < minSize) || (maxSize > 0 && targetSize > maxSize)) {
            throw new IllegalArgumentException("targetSize must lie within minSize and maxSize where they are set: targetSize="
                    + targetSize + " minSize=" + minSize + " maxSize=" + maxSize);
        }
        double shorter = Math.min(width, height);
        double longer = Math.max(width, height);
        double ratio = shorter / longer;
        double resShorter;
        double resLonger;
        if (side == Side.LONGER) {
            resLonger = targetSize;
            resShorter = Math.rint(resLonger * ratio);
            if (minSize > 0 && resShorter < minSize) {
                resShorter = minSize;
                resLonger = Math.rint(resShorter / ratio);
            }
        } else {
            resShorter = targetSize;
            resLonger = Math.rint(resShorter / ratio);
            if (maxSize > 0 && resLonger > maxSize) {
                resLonger = maxSize;
                resShorter = Math.rint(resLonger * ratio);
            }
        }
        if (resShorter < 1 || resLonger > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("resizing " + width + "x" + height + " to " + side + " side " + targetSize
                    + " gives sides of " + resShorter + " and " + resLonger + " pixels");
        }
        // OneFlow gives the shorter size to the width only where the width is strictly shorter.
        return width < height ? new ImageSize((int) resShorter, (int) resLonger) : new ImageSize((int) resLonger, (int) resShorter);
    }
}
