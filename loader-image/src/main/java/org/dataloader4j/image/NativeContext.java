package org.dataloader4j.image;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.Objects;
import org.dataloader4j.image.internal.JpegShim;
import org.dataloader4j.image.internal.LibPng;
import org.dataloader4j.image.internal.NativeBuffer;
import org.dataloader4j.image.internal.NativeLibraries;

/**
 * One thread's native decoder: a libjpeg decompressor of the shim's, a {@code png_image}, and
 * off-heap buffers kept from image to image. Encoded bytes already off-heap (a slice of a mapped
 * file, say) are read in place; bytes on the heap are first copied into the context's input
 * buffer. Output off-heap is written in place. Not thread-safe; owns its memory until
 * {@link #close()}.
 */
final class NativeContext implements ImageCodec.Context {
    private final JpegShim jpeg;
    private final Arena arena;
    private final MemorySegment decompressor;
    private final MemorySegment info;
    private final NativeBuffer input = new NativeBuffer("the native decoding context's input");
    private final NativeBuffer pixels = new NativeBuffer("the native decoding context's pixels");
    private final PngDecoder png;
    private boolean closed;

    NativeContext(NativeLibraries libraries) {
        jpeg = libraries.jpeg();
        arena = Arena.ofShared();
        try {
            info = arena.allocate(ValueLayout.JAVA_INT, JpegShim.INFO_LENGTH);
            png = new PngDecoder(libraries.png(), LibPng.newImage(arena), pixels);
            decompressor = jpeg.create();
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    @Override
    public ImageInfo header(MemorySegment bytes) {
        ImageFormat format = formatOf(bytes);
        MemorySegment data = offHeap(bytes);
        if (format == ImageFormat.PNG) {
            return png.header(data);
        }
        check(jpeg.header(decompressor, data, info));
        return new ImageInfo(ImageFormat.JPEG, info.getAtIndex(ValueLayout.JAVA_INT, 0),
                info.getAtIndex(ValueLayout.JAVA_INT, 1), info.getAtIndex(ValueLayout.JAVA_INT, 2));
    }

    @Override
    public void decode(MemorySegment bytes, ColorSpace colorSpace, CropWindow window, MemorySegment out) {
        decode(bytes, colorSpace, window, 1, out);
    }

    @Override
    public ImageSize decode(MemorySegment bytes, ColorSpace colorSpace, CropWindow window, int scale, MemorySegment out) {
        Objects.requireNonNull(colorSpace, "colorSpace");
        Objects.requireNonNull(window, "window");
        ImageCodecs.checkScale(scale);
        long needed = (long) window.width() * window.height() * colorSpace.channels();
        if (out.isReadOnly()) {
            throw new IllegalArgumentException("out is read-only");
        }
        if (out.byteSize() < needed) {
            throw new IllegalArgumentException("out is too small for the window: out.byteSize()=" + out.byteSize()
                    + " needed=" + needed + " window=" + window + " colorSpace=" + colorSpace);
        }
        ImageFormat format = formatOf(bytes);
        MemorySegment data = offHeap(bytes);
        if (format == ImageFormat.PNG) {
            png.decode(data, colorSpace, window, out.asSlice(0, needed));
            return new ImageSize(window.width(), window.height());
        }
        // The window in the scaled image: its edges divided by the scale, the far ones rounded up.
        int x = window.x() / scale;
        int y = window.y() / scale;
        int width = ceilDiv(window.x() + window.width(), scale) - x;
        int height = ceilDiv(window.y() + window.height(), scale) - y;
        needed = (long) width * height * colorSpace.channels();
        MemorySegment target = out.asSlice(0, needed);
        MemorySegment written = target.isNative() ? target : pixels.ensure(needed);
        check(jpeg.decode(decompressor, data, color(colorSpace), scale, x, y, width, height, written));
        if (written != target) {
            MemorySegment.copy(written, 0, target, 0, needed);
        }
        return new ImageSize(width, height);
    }

    private static int ceilDiv(int a, int b) {
        return (int) (((long) a + b - 1) / b);
    }

    private ImageFormat formatOf(MemorySegment bytes) {
        if (closed) {
            throw new IllegalStateException("the native image decoding context is closed");
        }
        ImageFormat format = ImageFormat.detect(bytes);
        if (format == null) {
            long n = bytes.byteSize();
            throw new ImageException(n == 0 ? "neither a JPEG nor a PNG: no bytes"
                    : "neither a JPEG nor a PNG: " + n + " bytes starting "
                            + HexFormat.ofDelimiter(" ").formatHex(bytes.asSlice(0, Math.min(n, 8)).toArray(ValueLayout.JAVA_BYTE)));
        }
        return format;
    }

    /** {@code bytes} where native code can read them. */
    private MemorySegment offHeap(MemorySegment bytes) {
        if (bytes.isNative()) {
            return bytes;
        }
        MemorySegment copy = input.ensure(bytes.byteSize());
        MemorySegment.copy(bytes, 0, copy, 0, bytes.byteSize());
        return copy;
    }

    private void check(int code) {
        switch (code) {
            case JpegShim.OK -> {
            }
            case JpegShim.BAD_ARGUMENT -> throw new IllegalArgumentException(jpeg.message(decompressor));
            default -> throw new ImageException("JPEG cannot be decoded: " + jpeg.message(decompressor));
        }
    }

    private static int color(ColorSpace colorSpace) {
        return switch (colorSpace) {
            case GRAY -> JpegShim.GRAY;
            case RGB -> JpegShim.RGB;
            case BGR -> JpegShim.BGR;
        };
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            jpeg.destroy(decompressor);
            input.close();
            pixels.close();
            arena.close();
        }
    }
}
