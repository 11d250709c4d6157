package org.dataloader4j.image;

/**
 * The size of an image in pixels: {@code width} columns by {@code height} rows.
 *
 * @param width  pixels a row, at least 1
 * @param height rows, at least 1
 */
public record ImageSize(int width, int height) {

    /** @throws IllegalArgumentException if either side is under 1 */
    public ImageSize {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("an image has at least one pixel a side: width=" + width + " height=" + height);
        }
    }
}
