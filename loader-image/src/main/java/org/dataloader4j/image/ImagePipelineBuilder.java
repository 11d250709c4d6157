package org.dataloader4j.image;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.Parser;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.reader.FilePipelineBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The options every reader of record files shares (those of {@link FilePipelineBuilder}) plus its
 * images: {@link ImageDecoder}s, {@link ImageTransform}s and the codec, which
 * {@link #withImages} puts in front of the format's own parser. {@code OFRecordReader.Builder}
 * and {@code TFRecordReader.Builder} extend it.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class ImagePipelineBuilder<B extends ImagePipelineBuilder<B>> extends FilePipelineBuilder<B> {
    private static final Logger LOG = LoggerFactory.getLogger(ImagePipelineBuilder.class);

    private final List<ImageDecoder> imageDecoders = new ArrayList<>();
    private final List<ImageTransform> imageTransforms = new ArrayList<>();
    private ImageCodec imageCodec;

    /** A builder whose reader threads are named after {@code defaultName} unless its reader options name them. */
    protected ImagePipelineBuilder(String defaultName) {
        super(defaultName);
    }

    private B self() {
        @SuppressWarnings("unchecked")
        B b = (B) this;
        return b;
    }

    /**
     * Adds an image decoder, OneFlow's {@code ofrecord_image_decoder} (or, with a
     * {@code RandomCrop}, {@code ofrecord_image_decoder_random_crop}): one bytes feature of every
     * record, a JPEG or PNG, becomes the record's pixels and their shape.
     */
    public B imageDecoder(ImageDecoder decoder) {
        imageDecoders.add(Objects.requireNonNull(decoder, "decoder"));
        return self();
    }

    /**
     * Adds a fused image transform: one bytes feature of every record decoded, cropped, resized,
     * mirrored and normalized into one row of a dense float output.
     */
    public B imageTransform(ImageTransform transform) {
        imageTransforms.add(Objects.requireNonNull(transform, "transform"));
        return self();
    }

    /**
     * The codec the images decode with; default {@link ImageCodecs#preferred()}: the native one
     * where its libraries load, else JDK ImageIO.
     */
    public B imageCodec(ImageCodec codec) {
        this.imageCodec = Objects.requireNonNull(codec, "codec");
        return self();
    }

    /**
     * The options of an image-classification reader: each record's image through the fused
     * training transform ({@link ImageTransform#training}) if {@code training}, else the evaluation
     * one ({@link ImageTransform#of}), and records shuffled (files reordered every epoch) if
     * {@code training}, all drawn from {@code seed}. The formats' {@code imageClassification}
     * factories add the label.
     */
    public B imageClassification(String imageFeature, boolean training, long seed) {
        return imageTransform(training ? ImageTransform.training(imageFeature, seed) : ImageTransform.of(imageFeature))
                .randomShuffle(training).shuffleAfterEpoch(training).seed(seed);
    }

    /** Whether any image decoder or transform is set: then the format's parser may have no outputs of its own. */
    protected boolean hasImages() {
        return !imageDecoders.isEmpty() || !imageTransforms.isEmpty();
    }

    /**
     * {@code parser} (the format's, null if it has no outputs) with the images of {@code records}
     * decoded in front of it, by an {@link ImageParser} (the codec it runs logged); {@code parser}
     * itself if no image is set.
     */
    protected Parser<RecordSlice> withImages(ImageParser.Records records, Parser<RecordSlice> parser) {
        if (!hasImages()) {
            return parser;
        }
        ImageCodec codec = imageCodec != null ? imageCodec : ImageCodecs.preferred();
        LOG.info("reader {}: images decode with the {} codec", readerName(), codec.name());
        return ImageParser.of(records, parser, imageDecoders, imageTransforms, codec);
    }
}
