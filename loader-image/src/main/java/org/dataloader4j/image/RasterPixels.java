package org.dataloader4j.image;

import java.awt.image.BufferedImage;
import java.awt.image.ColorModel;
import java.awt.image.DataBufferByte;
import java.awt.image.IndexColorModel;
import java.awt.image.PixelInterleavedSampleModel;
import java.awt.image.Raster;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies the pixels of an image that ImageIO decoded into HWC uint8 memory, in BGR, RGB or GRAY,
 * with the conversions Pillow's {@code Image.convert} makes, so that both give the same bytes:
 * <ul>
 *   <li>alpha is dropped, not composited;</li>
 *   <li>a palette (and gray of 1, 2 or 4 bits, which ImageIO reads as a palette of gray ramps) is
 *       looked up;</li>
 *   <li>16-bit samples are rounded to 8 bits, {@code (v * 255 + 32767) / 65535}, as libpng's
 *       simplified API (the native codec) rounds them; Pillow, and OpenCV's decoder, which
 *       OneFlow uses, keep the high byte instead ({@code v >> 8});</li>
 *   <li>CMYK (0 = no ink) becomes RGB as Pillow does it, channel by channel:
 *       {@code R = (255 - K) - (C * (255 - K)) / 255} in Pillow's integer rounding;</li>
 *   <li>GRAY from colour is ITU-R BT.601 luma in Pillow's fixed point,
 *       {@code (19595 R + 38470 G + 7471 B + 0x8000) >> 16}, taken after the steps above; gray
 *       as BGR or RGB is three equal channels.</li>
 * </ul>
 */
final class RasterPixels {
    private RasterPixels() {
    }

    /** Writes all of {@code image} into {@code out}, row after row, as {@code colorSpace}. */
    static void write(BufferedImage image, ColorSpace colorSpace, MemorySegment out) {
        Raster raster = image.getRaster();
        ColorModel cm = image.getColorModel();
        int width = raster.getWidth();
        int height = raster.getHeight();
        int bands = raster.getNumBands();
        Source source = Source.of(cm, raster);
        int shift = source == Source.PALETTE ? 0 : raster.getSampleModel().getSampleSize(0) - 8;
        byte[][] palette = source == Source.PALETTE ? palette((IndexColorModel) cm) : null;
        int[] samples = new int[width * bands];
        int channels = colorSpace.channels();
        byte[] row = new byte[width * channels];
        for (int y = 0; y < height; y++) {
            readRow(raster, y, samples);
            for (int x = 0, s = 0, o = 0; x < width; x++, s += bands, o += channels) {
                int r;
                int g;
                int b;
                switch (source) {
                    case PALETTE -> {
                        int index = samples[s];
                        r = palette[0][index] & 0xFF;
                        g = palette[1][index] & 0xFF;
                        b = palette[2][index] & 0xFF;
                    }
                    case GRAY -> {
                        r = eight(samples[s], shift);
                        g = r;
                        b = r;
                    }
                    case RGB -> {
                        r = eight(samples[s], shift);
                        g = eight(samples[s + 1], shift);
                        b = eight(samples[s + 2], shift);
                    }
                    case CMYK -> {
                        int notK = 255 - samples[s + 3];
                        r = notK - mulDiv255(samples[s], notK);
                        g = notK - mulDiv255(samples[s + 1], notK);
                        b = notK - mulDiv255(samples[s + 2], notK);
                    }
                    default -> throw new AssertionError(source);
                }
                switch (colorSpace) {
                    case RGB -> {
                        row[o] = (byte) r;
                        row[o + 1] = (byte) g;
                        row[o + 2] = (byte) b;
                    }
                    case BGR -> {
                        row[o] = (byte) b;
                        row[o + 1] = (byte) g;
                        row[o + 2] = (byte) r;
                    }
                    case GRAY -> row[o] = (byte) ((19595 * r + 38470 * g + 7471 * b + 0x8000) >> 16);
                }
            }
            MemorySegment.copy(row, 0, out, ValueLayout.JAVA_BYTE, (long) y * row.length, row.length);
        }
    }

    /**
     * A sample as 8 bits: itself, or a 16-bit one rounded as libpng's simplified API rounds it,
     * {@code (v * 255 + 32767) / 65535}, so that both codecs give the same bytes.
     */
    private static int eight(int sample, int shift) {
        return shift == 0 ? sample : (sample * 255 + 32767) / 65535;
    }

    /** Pillow's {@code MULDIV255}: {@code a * b / 255}, rounded its way. */
    private static int mulDiv255(int a, int b) {
        int t = a * b + 128;
        return ((t >> 8) + t) >> 8;
    }

    private static void readRow(Raster raster, int y, int[] samples) {
        if (raster.getDataBuffer() instanceof DataBufferByte data
                && raster.getSampleModel() instanceof PixelInterleavedSampleModel model) {
            // The decoders' usual layout, read from its array without a call per sample.
            byte[] bytes = data.getData();
            int pixelStride = model.getPixelStride();
            int[] bandOffsets = model.getBandOffsets();
            int start = data.getOffset() + (y - raster.getSampleModelTranslateY()) * model.getScanlineStride()
                    - raster.getSampleModelTranslateX() * pixelStride;
            int bands = bandOffsets.length;
            int width = raster.getWidth();
            for (int band = 0; band < bands; band++) {
                for (int x = 0, i = start + bandOffsets[band]; x < width; x++, i += pixelStride) {
                    samples[x * bands + band] = bytes[i] & 0xFF;
                }
            }
        } else {
            raster.getPixels(raster.getMinX(), raster.getMinY() + y, raster.getWidth(), 1, samples);
        }
    }

    private static byte[][] palette(IndexColorModel cm) {
        // Indices past the palette's end read as black, as in libpng and Pillow.
        int size = Math.max(cm.getMapSize(), 256);
        byte[][] rgb = new byte[3][size];
        cm.getReds(rgb[0]);
        cm.getGreens(rgb[1]);
        cm.getBlues(rgb[2]);
        return rgb;
    }

    /** What the samples of a decoded image are. */
    private enum Source {
        PALETTE, GRAY, RGB, CMYK;

        static Source of(ColorModel cm, Raster raster) {
            if (cm instanceof IndexColorModel) {
                return PALETTE;
            }
            int bits = raster.getSampleModel().getSampleSize(0);
            if (bits != 8 && bits != 16) {
                throw new ImageException("decoded samples of " + bits + " bits: not supported by the ImageIO codec");
            }
            return switch (cm.getColorSpace().getType()) {
                case java.awt.color.ColorSpace.TYPE_GRAY -> GRAY;
                case java.awt.color.ColorSpace.TYPE_RGB -> RGB;
                case java.awt.color.ColorSpace.TYPE_CMYK -> CMYK;
                default -> throw new ImageException("decoded colour space of type " + cm.getColorSpace().getType()
                        + " with " + cm.getNumColorComponents() + " components: not supported by the ImageIO codec");
            };
        }
    }
}
