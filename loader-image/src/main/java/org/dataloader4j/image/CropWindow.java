package org.dataloader4j.image;

/**
 * A rectangle of an image, in pixels: its left column {@code x}, top row {@code y}, and size.
 * OneFlow's {@code CropWindow} holds the same as anchor {@code (y, x)} and shape {@code (h, w)}.
 */
public record CropWindow(int x, int y, int width, int height) {

    /** @throws IllegalArgumentException if the origin is negative or the size is not positive */
    public CropWindow {
        if (x < 0 || y < 0 || width <= 0 || height <= 0) {
            throw new IllegalArgumentException("a crop window has a non-negative origin and a positive size: x=" + x
                    + " y=" + y + " width=" + width + " height=" + height);
        }
    }

    /** The whole of an image of {@code width × height}. */
    public static CropWindow whole(int width, int height) {
        return new CropWindow(0, 0, width, height);
    }

    /** Whether the window lies inside an image of {@code width × height}. */
    public boolean fits(int imageWidth, int imageHeight) {
        return (long) x + width <= imageWidth && (long) y + height <= imageHeight;
    }
}
