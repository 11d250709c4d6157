package org.dataloader4j.image;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;

/**
 * The fused image path of a vision training loop: each row's image decoded (only its window),
 * resized, mirrored and normalized straight into one row of a dense float32 output, with no copy
 * of its pixels on the heap. It does what OneFlow's {@code ofrecord_image_decoder_random_crop},
 * {@code image_resize}, {@code coin_flip} and {@code crop_mirror_normalize} do one after another:
 *
 * <ul>
 *   <li><b>Training</b> ({@link #randomCrop}): a RandomResizedCrop window (OneFlow's generator,
 *       one per batch slot), resized to {@code height × width} (bilinear, no antialiasing), then
 *       mirrored where a coin flip with {@link #mirror} probability says so.</li>
 *   <li><b>Evaluation</b> (no random crop): the image resized so that its shorter side is
 *       {@link #resizeShorter}, the longer one in proportion as OneFlow's
 *       {@code image_resize} keeps the aspect ratio ({@link ImageResize#keepAspectRatio}), then
 *       the centre {@code height × width}.</li>
 * </ul>
 *
 * Then each channel {@code c} becomes {@code (v - mean[c]) * (1 / std[c])}
 * ({@link CropMirrorNormalize}, centred), in {@link CropMirrorNormalize.Layout#NCHW}
 * (the default) or NHWC. The defaults are ImageNet's: RGB, 224 × 224, mean (123.68, 116.779,
 * 103.939) and std (58.393, 57.12, 57.375) on 0–255 values, the shorter side resized to 256 for
 * evaluation, no mirror. The output is named after the feature. Immutable.
 */
public final class ImageTransform {
    private static final float[] IMAGENET_MEAN = {123.68f, 116.779f, 103.939f};
    private static final float[] IMAGENET_STD = {58.393f, 57.12f, 57.375f};

    private final String feature;
    private final ColorSpace colorSpace;
    private final RandomCrop randomCrop;
    private final int height;
    private final int width;
    private final int resizeShorter;
    private final float mirrorProbability;
    private final long mirrorSeed;
    private final float[] mean;
    private final float[] std;
    private final CropMirrorNormalize.Layout layout;
    /** The last step, OneFlow's crop_mirror_normalize: the centre of the resized image, normalized. */
    private final CropMirrorNormalize normalize;
    private final long maxPixels;
    private final boolean dctScaling;

    private ImageTransform(String feature, ColorSpace colorSpace, RandomCrop randomCrop, int height, int width,
                           int resizeShorter, float mirrorProbability, long mirrorSeed, float[] mean, float[] std,
                           CropMirrorNormalize.Layout layout, long maxPixels, boolean dctScaling) {
        this.feature = Objects.requireNonNull(feature, "feature");
        this.colorSpace = Objects.requireNonNull(colorSpace, "colorSpace");
        this.randomCrop = randomCrop;
        this.height = height;
        this.width = width;
        this.resizeShorter = resizeShorter;
        this.mirrorProbability = mirrorProbability;
        this.mirrorSeed = mirrorSeed;
        this.mean = mean;
        this.std = std;
        this.layout = Objects.requireNonNull(layout, "layout");
        this.maxPixels = maxPixels;
        this.dctScaling = dctScaling;
        this.normalize = CropMirrorNormalize.builder().crop(width, height).cropPosition(0.5f, 0.5f).mean(mean).std(std)
                .layout(layout).build();
    }

    /** The evaluation transform of feature {@code feature}, with ImageNet's defaults. */
    public static ImageTransform of(String feature) {
        return new ImageTransform(feature, ColorSpace.RGB, null, 224, 224, 256, 0, 0, IMAGENET_MEAN.clone(),
                IMAGENET_STD.clone(), CropMirrorNormalize.Layout.NCHW, ImageDecoder.DEFAULT_MAX_PIXELS, false);
    }

    /**
     * The training transform of ImageNet: a random window with OneFlow's default options and
     * {@code seed}, resized to 224 × 224, mirrored with probability 0.5 (its coin seeded by
     * {@code seed} too), normalized with ImageNet's mean and std.
     */
    public static ImageTransform training(String feature, long seed) {
        return of(feature).randomCrop(RandomCrop.builder().seed(seed).build()).mirror(0.5f, seed);
    }

    /** This transform with a random window ({@code ofrecord_image_decoder_random_crop}); null for the evaluation path. */
    public ImageTransform randomCrop(RandomCrop randomCrop) {
        return new ImageTransform(feature, colorSpace, randomCrop, height, width, resizeShorter, mirrorProbability,
                mirrorSeed, mean, std, layout, maxPixels, dctScaling);
    }

    /**
     * This transform giving rows of {@code height × width} pixels; the evaluation path's
     * {@link #resizeShorter} grows to the larger of the two if it is smaller, so that the centre
     * crop fits.
     */
    public ImageTransform size(int height, int width) {
        positive("height", height);
        positive("width", width);
        return new ImageTransform(feature, colorSpace, randomCrop, height, width, Math.max(resizeShorter, Math.max(height, width)),
                mirrorProbability, mirrorSeed, mean, std, layout, maxPixels, dctScaling);
    }

    /** This transform resizing, on the evaluation path, each image's shorter side to {@code resizeShorter} first. */
    public ImageTransform resizeShorter(int resizeShorter) {
        positive("resizeShorter", resizeShorter);
        if (resizeShorter < Math.max(height, width)) {
            throw new IllegalArgumentException("resizeShorter must be at least the output's height and width: resizeShorter="
                    + resizeShorter + " size=" + height + "x" + width);
        }
        return new ImageTransform(feature, colorSpace, randomCrop, height, width, resizeShorter, mirrorProbability,
                mirrorSeed, mean, std, layout, maxPixels, dctScaling);
    }

    /** This transform mirroring each row left to right with {@code probability}, one coin flip a row drawn from {@code seed}. */
    public ImageTransform mirror(float probability, long seed) {
        if (!(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("probability must be in [0, 1]: probability=" + probability);
        }
        return new ImageTransform(feature, colorSpace, randomCrop, height, width, resizeShorter, probability, seed, mean,
                std, layout, maxPixels, dctScaling);
    }

    /** This transform normalizing channel {@code c} as {@code (v - mean[c]) / std[c]}, values on 0–255. */
    public ImageTransform normalize(float[] mean, float[] std) {
        int channels = colorSpace.channels();
        if (mean.length != channels || std.length != channels) {
            throw new IllegalArgumentException("mean and std need " + channels + " values each for " + colorSpace
                    + ": mean=" + Arrays.toString(mean) + " std=" + Arrays.toString(std));
        }
        for (float s : std) {
            if (!(s > 0)) {
                throw new IllegalArgumentException("std must be positive: std=" + Arrays.toString(std));
            }
        }
        return new ImageTransform(feature, colorSpace, randomCrop, height, width, resizeShorter, mirrorProbability,
                mirrorSeed, mean.clone(), std.clone(), layout, maxPixels, dctScaling);
    }

    /** This transform decoding in {@code colorSpace} (RGB by default); GRAY needs one mean and std. */
    public ImageTransform colorSpace(ColorSpace colorSpace) {
        float[] m = colorSpace.channels() == mean.length ? mean : new float[colorSpace.channels()];
        float[] s = colorSpace.channels() == std.length ? std : filled(colorSpace.channels(), 1f);
        return new ImageTransform(feature, colorSpace, randomCrop, height, width, resizeShorter, mirrorProbability,
                mirrorSeed, m, s, layout, maxPixels, dctScaling);
    }

    /** This transform writing rows in {@code layout}. */
    public ImageTransform layout(CropMirrorNormalize.Layout layout) {
        return new ImageTransform(feature, colorSpace, randomCrop, height, width, resizeShorter, mirrorProbability,
                mirrorSeed, mean, std, layout, maxPixels, dctScaling);
    }

    /** This transform refusing images that declare more than {@code maxPixels} pixels. */
    public ImageTransform maxPixels(long maxPixels) {
        if (maxPixels <= 0) {
            throw new IllegalArgumentException("maxPixels must be positive: maxPixels=" + maxPixels);
        }
        return new ImageTransform(feature, colorSpace, randomCrop, height, width, resizeShorter, mirrorProbability,
                mirrorSeed, mean, std, layout, maxPixels, dctScaling);
    }

    /**
     * This transform decoding a JPEG window at a half, a quarter or an eighth of its size where
     * it is at least that many times the size it is resized to on both sides (libjpeg's scaled
     * IDCT, through the native codec only; ImageIO and PNG decode at full size). Faster on large
     * images; the pixels differ slightly from a full-size decode resized, which is what OneFlow
     * gives and this transform gives by default.
     */
    public ImageTransform dctScaling(boolean dctScaling) {
        return new ImageTransform(feature, colorSpace, randomCrop, height, width, resizeShorter, mirrorProbability,
                mirrorSeed, mean, std, layout, maxPixels, dctScaling);
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + name + "=" + value);
        }
    }

    private static float[] filled(int n, float v) {
        float[] a = new float[n];
        Arrays.fill(a, v);
        return a;
    }

    public String feature() {
        return feature;
    }

    public ColorSpace colorSpace() {
        return colorSpace;
    }

    /** The random window's options, or null on the evaluation path. */
    public RandomCrop randomCrop() {
        return randomCrop;
    }

    public int height() {
        return height;
    }

    public int width() {
        return width;
    }

    public int resizeShorter() {
        return resizeShorter;
    }

    public float mirrorProbability() {
        return mirrorProbability;
    }

    public long mirrorSeed() {
        return mirrorSeed;
    }

    public float[] mean() {
        return mean.clone();
    }

    public float[] std() {
        return std.clone();
    }

    public CropMirrorNormalize.Layout layout() {
        return layout;
    }

    /** Its last step: the {@code height × width} centre of an image, mirrored where asked, normalized. */
    CropMirrorNormalize normalizer() {
        return normalize;
    }

    public long maxPixels() {
        return maxPixels;
    }

    /** Whether large JPEG windows are decoded scaled down ({@link #dctScaling(boolean)}). */
    public boolean dctScaling() {
        return dctScaling;
    }

    /**
     * The scale a window of {@code width × height} pixels decodes at before it is resized to
     * {@code resizedWidth × resizedHeight}: 1 without {@link #dctScaling}, else the largest of 8,
     * 4 and 2 that leaves the window at least that size on both sides, or 1.
     */
    int decodeScale(int width, int height, int resizedWidth, int resizedHeight) {
        if (dctScaling) {
            for (int scale = 8; scale > 1; scale /= 2) {
                if (width / scale >= resizedWidth && height / scale >= resizedHeight) {
                    return scale;
                }
            }
        }
        return 1;
    }

    /** The one output, float32, for batches of up to {@code batchCapacity} rows. */
    public List<TensorSpec> outputs(int batchCapacity) {
        int c = colorSpace.channels();
        Shape shape = layout == CropMirrorNormalize.Layout.NCHW ? Shape.of(batchCapacity, c, height, width) : Shape.of(batchCapacity, height, width, c);
        return List.of(TensorSpec.dense(feature, DataType.FLOAT32, shape));
    }

    @Override
    public String toString() {
        return "ImageTransform[" + feature + ", " + colorSpace + ", " + height + "x" + width + ", "
                + (randomCrop == null ? "resizeShorter=" + resizeShorter + ", centre crop" : randomCrop.toString())
                + ", mirror=" + mirrorProbability + ", " + layout + (dctScaling ? ", dctScaling" : "") + "]";
    }
}
