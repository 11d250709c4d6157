package org.dataloader4j.image;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The fused path's last steps in one pass: an image resized as {@link ImageResize#resize} does,
 * then cropped, mirrored and normalized as {@link CropMirrorNormalize#apply} does, float for float
 * the same, without the resized image between them.
 *
 * <p>Only the crop's pixels are interpolated. Each source row is interpolated across into one
 * int row a channel, its columns in the order of the output's (reversed when mirrored), so
 * that each output row is then one loop a channel, down and normalized, which the JIT compiles
 * to vector instructions. One instance a thread: it keeps its rows and tables between calls.
 */
final class ResizeNormalize {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final CropMirrorNormalize normalize;
    private final int width;
    private final int height;
    /** Per output column: the byte of its left and right source pixels in a row, and their weights. */
    private final int[] left;
    private final int[] right;
    private final int[] leftWeight;
    private final int[] rightWeight;
    /** The two source rows last interpolated across, {@code [slot][channel][column]}, and their indices. */
    private int[][][] rows = new int[2][0][];
    private final int[] rowIndex = new int[2];
    private final int[] rowAt = new int[4];
    private byte[] srcRow = new byte[0];
    private int[] sx = new int[0];
    private int[] a0 = new int[0];
    private int[] a1 = new int[0];
    private final float[] out;

    ResizeNormalize(CropMirrorNormalize normalize) {
        this.normalize = normalize;
        this.width = normalize.cropWidth();
        this.height = normalize.cropHeight();
        this.left = new int[width];
        this.right = new int[width];
        this.leftWeight = new int[width];
        this.rightWeight = new int[width];
        this.out = new float[width];
    }

    /**
     * Resizes {@code src}, {@code srcWidth × srcHeight × channels} HWC uint8, to
     * {@code resizedWidth × resizedHeight}, and writes the normalizer's crop of it, mirrored
     * where asked, to {@code dst} at {@code dstOffset}.
     *
     * @throws IllegalArgumentException as the two steps would
     */
    void apply(MemorySegment src, int srcWidth, int srcHeight, int channels, int resizedWidth, int resizedHeight,
               boolean mirror, MemorySegment dst, long dstOffset) {
        ImageResize.checkImage("src", src, srcWidth, srcHeight, channels);
        normalize.check(resizedWidth, resizedHeight, channels, dst, dstOffset);
        columns(srcWidth, resizedWidth, channels, mirror);
        if (rows[0].length != channels) {
            rows = new int[2][channels][width];
        }
        if (srcRow.length < srcWidth * channels) {
            srcRow = new byte[srcWidth * channels];
        }
        rowIndex[0] = -1;
        rowIndex[1] = -1;
        float[] mean = normalize.channelMean(channels);
        float[] invStd = normalize.channelInvStd(channels);
        boolean planes = normalize.layout() == CropMirrorNormalize.Layout.NCHW;
        double scaleY = 1.0 / ((double) resizedHeight / srcHeight);
        long rowBytes = (long) width * Float.BYTES;
        for (int oh = 0; oh < height; oh++) {
            ImageResize.sourceRows(normalize.row(oh, resizedHeight), scaleY, srcHeight, rowAt);
            int[][] d0 = across(src, rowAt[0], srcWidth, channels);
            int[][] d1 = across(src, rowAt[1], srcWidth, channels);
            int b0 = rowAt[2];
            int b1 = rowAt[3];
            for (int c = 0; c < channels; c++) {
                int[] r0 = d0[c];
                int[] r1 = d1[c];
                float m = mean[c];
                float s = invStd[c];
                if (planes) {
                    for (int x = 0; x < width; x++) {
                        out[x] = ((float) ImageResize.vertical(r0[x], r1[x], b0, b1) - m) * s;
                    }
                    MemorySegment.copy(out, 0, dst, F32, dstOffset + (c * (long) height + oh) * rowBytes, width);
                } else {
                    long at = dstOffset + ((long) oh * width * channels + c) * Float.BYTES;
                    for (int x = 0; x < width; x++) {
                        dst.set(F32, at + (long) x * channels * Float.BYTES,
                                ((float) ImageResize.vertical(r0[x], r1[x], b0, b1) - m) * s);
                    }
                }
            }
        }
    }

    /** The tables of the output's columns: the crop's columns of the resized image, mirrored where asked. */
    private void columns(int srcWidth, int resizedWidth, int channels, boolean mirror) {
        if (sx.length < resizedWidth) {
            sx = new int[resizedWidth];
            a0 = new int[resizedWidth];
            a1 = new int[resizedWidth];
        }
        ImageResize.sourceColumns(srcWidth, resizedWidth, sx, a0, a1);
        int[] resized = normalize.columns(resizedWidth, mirror);
        for (int ow = 0; ow < width; ow++) {
            int x = resized[ow];
            left[ow] = sx[x] * channels;
            // The last column has no right neighbour, and its weight is 0: it reads itself again.
            right[ow] = Math.min(sx[x] + 1, srcWidth - 1) * channels;
            leftWeight[ow] = a0[x];
            rightWeight[ow] = a1[x];
        }
    }

    /** Source row {@code y} interpolated across at the output's columns, a row a channel; kept for the next output row. */
    private int[][] across(MemorySegment src, int y, int srcWidth, int channels) {
        for (int i = 0; i < 2; i++) {
            if (rowIndex[i] == y) {
                return rows[i];
            }
        }
        // Rows are asked for in rising order: the lower index kept is the one not needed again.
        int slot = rowIndex[0] < rowIndex[1] ? 0 : 1;
        rowIndex[slot] = y;
        int rowLength = srcWidth * channels;
        MemorySegment.copy(src, ValueLayout.JAVA_BYTE, (long) y * rowLength, srcRow, 0, rowLength);
        int[][] d = rows[slot];
        byte[] row = srcRow;
        if (channels == 3) {
            // The common case in one pass over the tables.
            int[] d0 = d[0];
            int[] d1 = d[1];
            int[] d2 = d[2];
            for (int x = 0; x < width; x++) {
                int l = left[x];
                int r = right[x];
                int wl = leftWeight[x];
                int wr = rightWeight[x];
                d0[x] = (row[l] & 0xFF) * wl + (row[r] & 0xFF) * wr;
                d1[x] = (row[l + 1] & 0xFF) * wl + (row[r + 1] & 0xFF) * wr;
                d2[x] = (row[l + 2] & 0xFF) * wl + (row[r + 2] & 0xFF) * wr;
            }
            return d;
        }
        for (int c = 0; c < channels; c++) {
            int[] dc = d[c];
            for (int x = 0; x < width; x++) {
                dc[x] = (row[left[x] + c] & 0xFF) * leftWeight[x] + (row[right[x] + c] & 0xFF) * rightWeight[x];
            }
        }
        return d;
    }
}
