package org.dataloader4j.image;

import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;

/**
 * Decodes an image feature into its pixels: OneFlow's {@code ofrecord_image_decoder} (and, with
 * {@link #randomCrop}, {@code ofrecord_image_decoder_random_crop}, which decodes only a random
 * window). A record's feature holds one encoded JPEG or PNG (told by its first bytes); each row
 * gets its pixels as uint8, height × width × channels, in a ragged output named after the
 * feature, and its {@code (height, width, channels)} in an int32 {@code (N, 3)} output named
 * {@code <feature>.shape}.
 *
 * <p>Options, as OneFlow names them: {@code colorSpace} (BGR by default, as OneFlow's), and the
 * window's {@link RandomCrop} options. Bounds of this project's: {@code maxPixels}, the most
 * pixels one image may declare (a larger header is refused before anything is allocated), and
 * {@code batchPixels}, the pixels of all the rows of a batch together, for which each slot of a
 * reader holds memory. Immutable.
 *
 * @see ImageTransform the fused training path, into a dense float tensor
 */
public final class ImageDecoder {
    /** The default {@link #maxPixels}: 8192 × 8192. */
    public static final long DEFAULT_MAX_PIXELS = 8192L * 8192;
    /** The default {@link #batchPixels} per row of a batch: 512 × 512. */
    public static final long DEFAULT_PIXELS_PER_ROW = 512L * 512;

    private final String feature;
    private final ColorSpace colorSpace;
    private final long maxPixels;
    private final long batchPixels;
    private final RandomCrop randomCrop;

    private ImageDecoder(String feature, ColorSpace colorSpace, long maxPixels, long batchPixels, RandomCrop randomCrop) {
        this.feature = Objects.requireNonNull(feature, "feature");
        this.colorSpace = Objects.requireNonNull(colorSpace, "colorSpace");
        if (maxPixels <= 0) {
            throw new IllegalArgumentException("maxPixels must be positive: maxPixels=" + maxPixels);
        }
        if (batchPixels < 0) {
            throw new IllegalArgumentException("batchPixels must be positive: batchPixels=" + batchPixels);
        }
        this.maxPixels = maxPixels;
        this.batchPixels = batchPixels;
        this.randomCrop = randomCrop;
    }

    /** A decoder of feature {@code feature}: whole images, BGR, the default bounds. */
    public static ImageDecoder of(String feature) {
        return new ImageDecoder(feature, ColorSpace.BGR, DEFAULT_MAX_PIXELS, 0, null);
    }

    /** This decoder giving pixels in {@code colorSpace}. */
    public ImageDecoder colorSpace(ColorSpace colorSpace) {
        return new ImageDecoder(feature, colorSpace, maxPixels, batchPixels, randomCrop);
    }

    /** This decoder refusing images that declare more than {@code maxPixels} pixels. */
    public ImageDecoder maxPixels(long maxPixels) {
        return new ImageDecoder(feature, colorSpace, maxPixels, batchPixels, randomCrop);
    }

    /**
     * This decoder with room for {@code batchPixels} pixels in all the rows of one batch (default:
     * 512 × 512 a row); a batch whose images hold more fails, naming the option.
     */
    public ImageDecoder batchPixels(long batchPixels) {
        if (batchPixels <= 0) {
            throw new IllegalArgumentException("batchPixels must be positive: batchPixels=" + batchPixels);
        }
        return new ImageDecoder(feature, colorSpace, maxPixels, batchPixels, randomCrop);
    }

    /** This decoder decoding a random window of each image ({@code ofrecord_image_decoder_random_crop}). */
    public ImageDecoder randomCrop(RandomCrop randomCrop) {
        return new ImageDecoder(feature, colorSpace, maxPixels, batchPixels, Objects.requireNonNull(randomCrop, "randomCrop"));
    }

    /** The feature's key, also the pixels' output name. */
    public String feature() {
        return feature;
    }

    /** The name of the {@code (N, 3)} int32 output of each row's height, width and channels. */
    public String shapeOutput() {
        return feature + ".shape";
    }

    public ColorSpace colorSpace() {
        return colorSpace;
    }

    public long maxPixels() {
        return maxPixels;
    }

    /** The random window's options, or null to decode whole images. */
    public RandomCrop randomCrop() {
        return randomCrop;
    }

    /** The pixels all the rows of a batch of {@code batchCapacity} rows may hold. */
    public long batchPixels(int batchCapacity) {
        return batchPixels > 0 ? batchPixels : batchCapacity * DEFAULT_PIXELS_PER_ROW;
    }

    /** The outputs for batches of up to {@code batchCapacity} rows: the pixels and their shapes. */
    public List<TensorSpec> outputs(int batchCapacity) {
        return List.of(
                TensorSpec.ragged(feature, DataType.UINT8, batchCapacity, batchPixels(batchCapacity) * colorSpace.channels()),
                TensorSpec.dense(shapeOutput(), DataType.INT32, Shape.of(batchCapacity, 3)));
    }

    @Override
    public String toString() {
        return "ImageDecoder[" + feature + ", " + colorSpace + (randomCrop == null ? "" : ", " + randomCrop) + "]";
    }
}
