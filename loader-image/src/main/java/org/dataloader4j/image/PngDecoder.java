package org.dataloader4j.image;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.dataloader4j.image.internal.LibPng;
import org.dataloader4j.image.internal.NativeBuffer;

/**
 * PNG through libpng's simplified API, for one {@link NativeContext}. libpng decodes whole
 * images: a window is cut from the whole image decoded into the context's pixel buffer (the
 * whole image, in a format the caller wants, goes straight to the caller's memory).
 *
 * <p>What the pixels are, compared with other decoders:
 * <ul>
 *   <li>palette, gray and low bit depths are expanded to 8-bit gray or RGB; an alpha channel
 *       (or {@code tRNS} transparency) is dropped, not composited on any background;</li>
 *   <li>16-bit samples are reduced to 8 bits by rounding, {@code (v * 255 + 32767) / 65535}
 *       (libpng's {@code png_set_scale_16}); Pillow keeps the high byte instead, and ImageMagick
 *       truncates, {@code v / 257};</li>
 *   <li>gray from a color image is its luma, {@code (19595 R + 38470 G + 7471 B + 32768) >> 16}
 *       (ITU-R BT.601, as Pillow's RGB to L);</li>
 *   <li>no gamma correction where the file's {@code gAMA} is sRGB's or near it (within libpng's
 *       5%) or absent; a file whose {@code gAMA} is far from sRGB is converted to sRGB, as the
 *       simplified API always does.</li>
 * </ul>
 */
final class PngDecoder {
    /** libpng's simplified API decodes into one buffer of at most 2<sup>32</sup> - 1 bytes. */
    private static final long MAX_BYTES = 0xFFFF_FFFFL;
    /** The offset of IHDR's colour type byte: signature 8, chunk length 4, type 4, width 4, height 4, depth 1. */
    private static final long IHDR_COLOR_TYPE = 25;

    private final LibPng png;
    private final MemorySegment image;
    private final NativeBuffer pixels;

    PngDecoder(LibPng png, MemorySegment image, NativeBuffer pixels) {
        this.png = png;
        this.image = image;
        this.pixels = pixels;
    }

    ImageInfo header(MemorySegment data) {
        try {
            if (!png.beginRead(image, data)) {
                throw failed();
            }
            return new ImageInfo(ImageFormat.PNG, size(LibPng.width(image)), size(LibPng.height(image)), components(data));
        } finally {
            png.free(image);
        }
    }

    /** Decodes {@code window} into {@code out}, which holds exactly its pixels. */
    void decode(MemorySegment data, ColorSpace colorSpace, CropWindow window, MemorySegment out) {
        try {
            if (!png.beginRead(image, data)) {
                throw failed();
            }
            int width = size(LibPng.width(image));
            int height = size(LibPng.height(image));
            if (!window.fits(width, height)) {
                throw new IllegalArgumentException("the window " + window + " is not inside the image of "
                        + width + "x" + height);
            }
            int file = LibPng.format(image);
            boolean alpha = (file & LibPng.FORMAT_ALPHA) != 0;
            boolean luma = colorSpace == ColorSpace.GRAY && (file & LibPng.FORMAT_COLOR) != 0;
            int format = colorSpace == ColorSpace.GRAY && !luma ? 0
                    : colorSpace == ColorSpace.BGR ? LibPng.FORMAT_COLOR | LibPng.FORMAT_BGR : LibPng.FORMAT_COLOR;
            if (alpha) {
                format |= LibPng.FORMAT_ALPHA;
            }
            // PNG_IMAGE_SAMPLE_CHANNELS: gray 1, gray and alpha 2, color 3, color and alpha 4.
            int channels = (format & (LibPng.FORMAT_COLOR | LibPng.FORMAT_ALPHA)) + 1;
            long rowBytes = (long) width * channels;
            long bytes = rowBytes * height;
            if (bytes > MAX_BYTES) {
                throw new ImageException("PNG of " + width + "x" + height + " is too large to decode: " + bytes
                        + " bytes of pixels");
            }
            boolean direct = !alpha && !luma && out.isNative() && window.equals(CropWindow.whole(width, height));
            MemorySegment decoded = direct ? out : pixels.ensure(bytes);
            LibPng.setFormat(image, format, LibPng.FLAG_16BIT_SRGB);
            if (!png.finishRead(image, decoded, (int) rowBytes)) {
                throw failed();
            }
            if (!direct) {
                copyWindow(decoded, width, channels, luma, window, out, colorSpace.channels());
            }
        } finally {
            png.free(image);
        }
    }

    /** Copies {@code window} out of a whole decoded image, dropping alpha or taking luma on the way. */
    private static void copyWindow(MemorySegment decoded, int width, int channels, boolean luma, CropWindow window,
            MemorySegment out, int outChannels) {
        long decodedRow = (long) width * channels;
        long outRow = (long) window.width() * outChannels;
        for (int r = 0; r < window.height(); r++) {
            long from = (window.y() + r) * decodedRow + (long) window.x() * channels;
            long to = r * outRow;
            if (channels == outChannels) {
                MemorySegment.copy(decoded, from, out, to, outRow);
                continue;
            }
            for (int i = 0; i < window.width(); i++, from += channels) {
                if (luma) {
                    int red = Byte.toUnsignedInt(decoded.get(ValueLayout.JAVA_BYTE, from));
                    int green = Byte.toUnsignedInt(decoded.get(ValueLayout.JAVA_BYTE, from + 1));
                    int blue = Byte.toUnsignedInt(decoded.get(ValueLayout.JAVA_BYTE, from + 2));
                    out.set(ValueLayout.JAVA_BYTE, to++, (byte) ((19595 * red + 38470 * green + 7471 * blue + 32768) >> 16));
                } else {
                    MemorySegment.copy(decoded, from, out, to, outChannels);
                    to += outChannels;
                }
            }
        }
    }

    /** A width or height from libpng, which allows up to 2<sup>31</sup> - 1. */
    private static int size(int value) {
        if (value <= 0) {
            throw new ImageException("PNG size out of range: " + Integer.toUnsignedString(value));
        }
        return value;
    }

    /** The channels IHDR's colour type stores; libpng has checked that IHDR comes first. */
    private static int components(MemorySegment data) {
        int colorType = data.get(ValueLayout.JAVA_BYTE, IHDR_COLOR_TYPE);
        return switch (colorType) {
            case 0, 3 -> 1;
            case 2 -> 3;
            case 4 -> 2;
            case 6 -> 4;
            default -> throw new ImageException("PNG color type " + colorType + " is not one PNG defines");
        };
    }

    private ImageException failed() {
        return new ImageException("PNG cannot be decoded: " + LibPng.message(image));
    }
}
