package org.dataloader4j.image;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * OneFlow's {@code crop_mirror_normalize} on one HWC uint8 image: a fixed-size crop at a
 * relative position, mirrored left to right where asked, each channel normalized as
 * {@code (v - mean) * (1 / std)}, written as float32 (little-endian, as every tensor here) in
 * NCHW or NHWC. Immutable and thread-safe; made by {@link #builder()}.
 *
 * <p>OneFlow's arithmetic, exactly, in {@code float}:
 * <ul>
 *   <li>{@code invStd = 1.0f / std}, once; each value is {@code ((float) v - mean) * invStd}, not
 *       a division by {@code std};</li>
 *   <li>output row {@code oh} reads input row {@code (long) ((float) (height - cropHeight) * cropPosY + (float) oh)};</li>
 *   <li>output column {@code ow} reads input column
 *       {@code (long) ((float) (width - cropWidth) * cropPosX + (float) ow)}, or, mirrored,
 *       {@code (long) ((float) (width - cropWidth) * cropPosX + (float) (cropWidth - 1 - ow))}:
 *       the sum is rounded to {@code float} and then truncated, per pixel, so that a position
 *       such as 0.99999994 can land one pixel further than the integer crop origin would.</li>
 * </ul>
 */
public final class CropMirrorNormalize {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** How the output of one image is laid out. */
    public enum Layout {
        /** Channel planes, each {@code cropHeight × cropWidth}: OneFlow's default. */
        NCHW,
        /** Rows of pixels of {@code channels} values each. */
        NHWC
    }

    private final int cropWidth;
    private final int cropHeight;
    private final float cropPosX;
    private final float cropPosY;
    private final float[] mean;
    private final float[] invStd;
    private final Layout layout;

    private CropMirrorNormalize(Builder b) {
        this.cropWidth = b.cropWidth;
        this.cropHeight = b.cropHeight;
        this.cropPosX = b.cropPosX;
        this.cropPosY = b.cropPosY;
        this.mean = b.mean.clone();
        this.invStd = new float[b.std.length];
        for (int i = 0; i < invStd.length; i++) {
            invStd[i] = 1.0f / b.std[i];
        }
        this.layout = b.layout;
    }

    /** A builder: crop size required; position 0.5, 0.5, mean 0, std 1 and NCHW by default, as OneFlow. */
    public static Builder builder() {
        return new Builder();
    }

    /** The floats one image's output takes: {@code cropHeight * cropWidth * channels}. */
    public long outputFloats(int channels) {
        return (long) cropHeight * cropWidth * channels;
    }

    /** The bytes one image's output takes: four a float. */
    public long outputBytes(int channels) {
        return outputFloats(channels) * Float.BYTES;
    }

    /**
     * Crops, mirrors if {@code mirror}, normalizes and writes {@code src}, an image of
     * {@code width × height} pixels of {@code channels} bytes, HWC, into {@code dst} from byte
     * {@code dstOffset} on ({@link #outputBytes} bytes, in {@link Layout}).
     *
     * @throws IllegalArgumentException if the crop is larger than the image, mean or std has
     *                                  neither one value nor {@code channels}, or a segment is too small
     */
    public void apply(MemorySegment src, int width, int height, int channels, boolean mirror,
                      MemorySegment dst, long dstOffset) {
        Objects.requireNonNull(src, "src");
        check(width, height, channels, dst, dstOffset);
        long srcBytes = (long) width * height * channels;
        if (src.byteSize() < srcBytes) {
            throw new IllegalArgumentException("src is too small: byteSize=" + src.byteSize() + " needed=" + srcBytes);
        }
        int[] columns = columns(width, mirror);
        float[] channelMean = perChannel(mean, channels);
        float[] channelInvStd = perChannel(invStd, channels);
        // Each channel's 256 values, normalized once: a lookup a value gives the same float.
        float[][] normalized = new float[channels][256];
        for (int c = 0; c < channels; c++) {
            for (int v = 0; v < 256; v++) {
                normalized[c][v] = ((float) v - channelMean[c]) * channelInvStd[c];
            }
        }
        byte[] row = new byte[width * channels];
        float[] out = new float[layout == Layout.NHWC ? cropWidth * channels : cropWidth];
        long plane = (long) cropHeight * cropWidth * Float.BYTES;
        for (int oh = 0; oh < cropHeight; oh++) {
            int ih = row(oh, height);
            MemorySegment.copy(src, ValueLayout.JAVA_BYTE, (long) ih * row.length, row, 0, row.length);
            if (layout == Layout.NHWC) {
                for (int ow = 0, o = 0; ow < cropWidth; ow++) {
                    int in = columns[ow] * channels;
                    for (int c = 0; c < channels; c++, o++) {
                        out[o] = normalized[c][row[in + c] & 0xFF];
                    }
                }
                MemorySegment.copy(out, 0, dst, F32, dstOffset + (long) oh * out.length * Float.BYTES, out.length);
            } else {
                for (int c = 0; c < channels; c++) {
                    float[] values = normalized[c];
                    for (int ow = 0; ow < cropWidth; ow++) {
                        out[ow] = values[row[columns[ow] * channels + c] & 0xFF];
                    }
                    long at = dstOffset + c * plane + (long) oh * cropWidth * Float.BYTES;
                    MemorySegment.copy(out, 0, dst, F32, at, cropWidth);
                }
            }
        }
    }

    /** Checks an input of {@code width × height × channels} and the output's place, as {@link #apply} does. */
    void check(int width, int height, int channels, MemorySegment dst, long dstOffset) {
        Objects.requireNonNull(dst, "dst");
        if (width < 1 || height < 1 || channels < 1) {
            throw new IllegalArgumentException("the image must have a positive size: width=" + width + " height=" + height
                    + " channels=" + channels);
        }
        if (cropWidth > width || cropHeight > height) {
            throw new IllegalArgumentException("the crop is larger than the image: cropWidth=" + cropWidth + " cropHeight="
                    + cropHeight + " width=" + width + " height=" + height);
        }
        if ((mean.length != 1 && mean.length != channels) || (invStd.length != 1 && invStd.length != channels)) {
            throw new IllegalArgumentException("mean and std have one value or one a channel: mean.length=" + mean.length
                    + " std.length=" + invStd.length + " channels=" + channels);
        }
        if ((long) width * channels > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("rows are too long: width=" + width + " channels=" + channels);
        }
        long outBytes = outputBytes(channels);
        if (dstOffset < 0 || dstOffset > dst.byteSize() - outBytes) {
            throw new IllegalArgumentException("dst is too small: byteSize=" + dst.byteSize() + " dstOffset=" + dstOffset
                    + " needed=" + outBytes);
        }
    }

    /** The input column of each output column, for an input {@code width} wide: OneFlow's arithmetic, above. */
    int[] columns(int width, boolean mirror) {
        int[] columns = new int[cropWidth];
        for (int ow = 0; ow < cropWidth; ow++) {
            float along = mirror ? (float) (cropWidth - 1 - ow) : (float) ow;
            columns[ow] = (int) ((float) (width - cropWidth) * cropPosX + along);
            assert columns[ow] >= 0 && columns[ow] < width : columns[ow];
        }
        return columns;
    }

    /** The input row of output row {@code oh}, for an input {@code height} high. */
    int row(int oh, int height) {
        int ih = (int) ((float) (height - cropHeight) * cropPosY + (float) oh);
        assert ih >= 0 && ih < height : ih;
        return ih;
    }

    int cropWidth() {
        return cropWidth;
    }

    int cropHeight() {
        return cropHeight;
    }

    Layout layout() {
        return layout;
    }

    /** The mean of each of {@code channels} channels. */
    float[] channelMean(int channels) {
        return perChannel(mean, channels);
    }

    /** {@code 1 / std} of each of {@code channels} channels. */
    float[] channelInvStd(int channels) {
        return perChannel(invStd, channels);
    }

    private static float[] perChannel(float[] values, int channels) {
        if (values.length == channels) {
            return values;
        }
        float[] repeated = new float[channels];
        Arrays.fill(repeated, values[0]);
        return repeated;
    }

    @Override
    public String toString() {
        return "CropMirrorNormalize[crop=" + cropWidth + "x" + cropHeight + " pos=" + cropPosX + "," + cropPosY
                + " mean=" + Arrays.toString(mean) + " invStd=" + Arrays.toString(invStd) + " layout=" + layout + "]";
    }

    /** Builds a {@link CropMirrorNormalize}; each setter checks its arguments at once. */
    public static final class Builder {
        private int cropWidth;
        private int cropHeight;
        private float cropPosX = 0.5f;
        private float cropPosY = 0.5f;
        private float[] mean = {0.0f};
        private float[] std = {1.0f};
        private Layout layout = Layout.NCHW;

        private Builder() {
        }

        /** The output's width and height ({@code crop_w}, {@code crop_h}), each at least 1. */
        public Builder crop(int width, int height) {
            if (width < 1 || height < 1) {
                throw new IllegalArgumentException("crop sides must be > 0: width=" + width + " height=" + height);
            }
            this.cropWidth = width;
            this.cropHeight = height;
            return this;
        }

        /**
         * Where the crop lies ({@code crop_pos_x}, {@code crop_pos_y}), each in [0, 1]: 0 at the
         * left or top edge, 1 at the right or bottom, 0.5 centred.
         */
        public Builder cropPosition(float x, float y) {
            if (!(x >= 0 && x <= 1) || !(y >= 0 && y <= 1)) {
                throw new IllegalArgumentException("crop positions lie in [0, 1]: x=" + x + " y=" + y);
            }
            this.cropPosX = x;
            this.cropPosY = y;
            return this;
        }

        /** The value subtracted, one for all channels or one a channel. */
        public Builder mean(float... mean) {
            if (mean.length == 0) {
                throw new IllegalArgumentException("mean needs at least one value: mean.length=0");
            }
            for (float m : mean) {
                if (!Float.isFinite(m)) {
                    throw new IllegalArgumentException("mean must be finite: mean=" + Arrays.toString(mean));
                }
            }
            this.mean = mean.clone();
            return this;
        }

        /** The value divided by (multiplied by its inverse), one for all channels or one a channel; finite, not 0. */
        public Builder std(float... std) {
            if (std.length == 0) {
                throw new IllegalArgumentException("std needs at least one value: std.length=0");
            }
            for (float s : std) {
                if (!Float.isFinite(s) || s == 0) {
                    throw new IllegalArgumentException("std must be finite and not 0: std=" + Arrays.toString(std));
                }
            }
            this.std = std.clone();
            return this;
        }

        /** NCHW (the default) or NHWC. */
        public Builder layout(Layout layout) {
            this.layout = Objects.requireNonNull(layout, "layout");
            return this;
        }

        /** @throws IllegalStateException if no crop size was given */
        public CropMirrorNormalize build() {
            if (cropWidth == 0) {
                throw new IllegalStateException("crop(width, height) was not given");
            }
            return new CropMirrorNormalize(this);
        }
    }
}
