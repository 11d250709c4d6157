package org.dataloader4j.image;

/**
 * What an image's header says, read before any pixel is decoded.
 *
 * @param format     its encoding
 * @param width      pixels a row
 * @param height     rows
 * @param components the channels stored: 1 (gray), 2 (gray and alpha), 3, or 4 (alpha, CMYK)
 */
public record ImageInfo(ImageFormat format, int width, int height, int components) {
    /** The pixels, {@code width * height}. */
    public long pixels() {
        return (long) width * height;
    }
}
