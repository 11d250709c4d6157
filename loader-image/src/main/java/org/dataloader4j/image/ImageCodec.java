package org.dataloader4j.image;

import java.lang.foreign.MemorySegment;

/**
 * Decodes encoded JPEG and PNG images, read in place from memory, into uint8 pixels in memory the
 * caller owns: row-major, height × width × channels (HWC). Two implementations: native
 * (libjpeg-turbo through the project's shim, and libpng) and JDK ImageIO; {@link ImageCodecs}
 * picks one. A codec is immutable and shared; each thread decodes through a {@link Context} of
 * its own.
 */
public interface ImageCodec {

    /** Which implementation this is: {@code "native"} or {@code "imageio"}. */
    String name();

    /** A context for one thread; close it when the thread is done. */
    Context newContext();

    /**
     * One thread's decoder (for the native codec, the shim's JPEG decoder, a {@code png_image}
     * and buffers, kept from image to image). Each image decodes as it would in a new context.
     * Not thread-safe.
     */
    interface Context extends AutoCloseable {

        /**
         * The header of the image in {@code bytes}.
         *
         * @throws ImageException if the bytes are not a JPEG or PNG, or its header is damaged
         */
        ImageInfo header(MemorySegment bytes);

        /**
         * Decodes {@code window} of the image in {@code bytes} (a window of {@link #header}'s
         * size for the whole image) into {@code out} as {@code colorSpace}: {@code window.height()}
         * rows of {@code window.width() * colorSpace.channels()} bytes, each row right after the
         * one before. The pixels are exactly those of the same window of the whole image decoded.
         *
         * @throws ImageException           if the image is damaged or cannot be decoded
         * @throws IllegalArgumentException if the window does not fit the image or {@code out} is too small
         */
        void decode(MemorySegment bytes, ColorSpace colorSpace, CropWindow window, MemorySegment out);

        /**
         * Decodes {@code window} of the image in {@code bytes} scaled down by {@code scale} (1, 2,
         * 4 or 8) where the codec can (a JPEG on the native codec: libjpeg's scaled IDCT, which
         * gives slightly different pixels from a full decode shrunk), else at full size; returns
         * the size written to {@code out}. Scaled, the window's edges are divided by
         * {@code scale}, its right and bottom edges rounded up. {@code out} needs room for the
         * window at full size.
         *
         * @throws ImageException           if the image is damaged or cannot be decoded
         * @throws IllegalArgumentException if the window does not fit the image, {@code out} is too
         *                                  small or {@code scale} is not 1, 2, 4 or 8
         */
        default ImageSize decode(MemorySegment bytes, ColorSpace colorSpace, CropWindow window, int scale, MemorySegment out) {
            ImageCodecs.checkScale(scale);
            decode(bytes, colorSpace, window, out);
            return new ImageSize(window.width(), window.height());
        }

        /** Frees what the context holds. Idempotent. */
        @Override
        void close();
    }
}
