package org.dataloader4j.cli.internal;

import com.google.protobuf.ByteString;
import java.lang.foreign.MemorySegment;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.dataloader4j.image.ColorSpace;
import org.dataloader4j.image.CropWindow;
import org.dataloader4j.image.ImageCodec;
import org.dataloader4j.image.ImageDecoder;
import org.dataloader4j.image.ImageException;
import org.dataloader4j.image.ImageFormat;
import org.dataloader4j.image.ImageInfo;

/**
 * The encoded images among the bytes values of records, as {@code loader inspect --decode-images}
 * shows them: a value that starts with a JPEG or PNG signature ({@link ImageFormat#detect}) is
 * decoded whole to RGB, and described by its header's size and channels and the SHA-256 of its
 * pixels. An image that cannot be decoded is described by why, and kept as a failure until
 * {@link #takeFailures()}.
 *
 * <p>Single-threaded; it owns one decoder context of its codec until {@link #close()}.
 */
public final class ImageProbe implements AutoCloseable {
    private final ImageCodec codec;
    private final ImageCodec.Context context;
    private final MessageDigest sha256;
    private final List<String> failures = new ArrayList<>();
    private long failed;

    private ImageProbe(ImageCodec codec) {
        this.codec = codec;
        this.context = codec.newContext();
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            context.close();
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** A probe that decodes with {@code codec}. */
    public static ImageProbe of(ImageCodec codec) {
        return new ImageProbe(Objects.requireNonNull(codec, "codec"));
    }

    /** The codec the images decode with. */
    public ImageCodec codec() {
        return codec;
    }

    /**
     * One encoded image: its header and the SHA-256 of its RGB pixels (row-major, height × width
     * × 3 bytes), or why it cannot be decoded.
     *
     * @param format    the encoding its first bytes name
     * @param width     pixels a row, or 0 if it cannot be decoded
     * @param height    rows, or 0
     * @param channels  the components its header declares: 1, 2, 3 or 4; or 0
     * @param rgbSha256 the SHA-256 of its RGB pixels in lower-case hex, or null
     * @param error     why it cannot be decoded, or null
     */
    public record Image(ImageFormat format, int width, int height, int channels, String rgbSha256, String error) {
        /** Whether it decoded. */
        public boolean decoded() {
            return error == null;
        }

        /** As one value of a record printed for people: {@code jpeg 500×375×3}, or the error. */
        public String text() {
            return decoded() ? format.id() + " " + width + "×" + height + "×" + channels : error;
        }
    }

    /**
     * The image in {@code value}, a value of feature {@code feature}, or null if it starts with
     * neither a JPEG nor a PNG signature.
     */
    public Image describe(String feature, ByteString value) {
        MemorySegment bytes = MemorySegment.ofArray(value.toByteArray());
        ImageFormat format = ImageFormat.detect(bytes);
        if (format == null) {
            return null;
        }
        try {
            ImageInfo info = context.header(bytes);
            if (info.pixels() > ImageDecoder.DEFAULT_MAX_PIXELS) {
                return failed(feature, format, "the image declares " + info.width() + "x" + info.height()
                        + " pixels, more than maxPixels=" + ImageDecoder.DEFAULT_MAX_PIXELS);
            }
            byte[] rgb = new byte[Math.toIntExact(info.pixels() * ColorSpace.RGB.channels())];
            context.decode(bytes, ColorSpace.RGB, CropWindow.whole(info.width(), info.height()), MemorySegment.ofArray(rgb));
            return new Image(format, info.width(), info.height(), info.components(), HexFormat.of().formatHex(sha256.digest(rgb)), null);
        } catch (ImageException e) {
            return failed(feature, format, e.getMessage());
        }
    }

    private Image failed(String feature, ImageFormat format, String error) {
        failed++;
        failures.add("feature " + feature + ": " + error);
        return new Image(format, 0, 0, 0, null, error);
    }

    /** The images that could not be decoded since the last call, as {@code feature NAME: REASON}; clears them. */
    public List<String> takeFailures() {
        List<String> taken = List.copyOf(failures);
        failures.clear();
        return taken;
    }

    /** How many images could not be decoded in all. */
    public long failed() {
        return failed;
    }

    /** Frees the decoder context. Idempotent. */
    @Override
    public void close() {
        context.close();
    }
}
