package org.dataloader4j.image;

/**
 * An image that cannot be decoded: not a JPEG or PNG, truncated, damaged, over the pixel bound,
 * or of a kind the decoder refuses. The message says what is wrong with the image alone; whoever
 * decodes it from a record names the file, record, offset and feature
 * ({@code org.dataloader4j.api.CorruptDataException}).
 */
public final class ImageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ImageException(String message) {
        super(message);
    }

    public ImageException(String message, Throwable cause) {
        super(message, cause);
    }
}
