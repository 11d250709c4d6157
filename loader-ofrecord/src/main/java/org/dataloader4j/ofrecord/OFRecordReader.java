package org.dataloader4j.ofrecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.FilePipelineBuilder;
import org.dataloader4j.image.ImageCodec;
import org.dataloader4j.image.ImageCodecs;
import org.dataloader4j.image.ImageDecoder;
import org.dataloader4j.image.ImageParser;
import org.dataloader4j.image.ImageTransform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a {@link DataReader} over OFRecord part files with the options of OneFlow's
 * {@code OFRecordReader} ({@code dataDir}, {@code dataPartNum}, {@code partNamePrefix},
 * {@code partNameSuffixLength}, {@code batchSize}, {@code randomShuffle},
 * {@code shuffleBufferSize}, {@code shuffleAfterEpoch}, {@code seed}) and the decoders that
 * OneFlow would run after it:
 * {@code OFRecordDataset → [RandomShuffleDataset] → BatchDataset}, parsed by an
 * {@link OFRecordParser}.
 *
 * <pre>{@code
 * try (DataReader reader = OFRecordReader.builder()
 *         .dataDir(Path.of("mnist/train")).dataPartNum(4).partNameSuffixLength(5)
 *         .batchSize(256).randomShuffle(true).seed(1)
 *         .decoder(OFRecordRawDecoder.of("images", Shape.of(784), DataType.FLOAT32))
 *         .decoder(OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT64))
 *         .build()) {
 *     for (Batch b : reader) { ... b.tensor("images") ... b.tensor("labels") ... }
 * }
 * }</pre>
 */
public final class OFRecordReader {
    private OFRecordReader() {
    }

    /** A builder with OneFlow's defaults: prefix {@code "part-"}, no padding, no shuffle, buffer 1024. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * OneFlow's image-classification reader, for ImageNet-style part files: each record's image
     * (a JPEG or PNG in bytes feature {@code imageFeature}) through the fused training transform
     * ({@link ImageTransform#training}: a random-resized-crop window, 224 × 224, mirrored half the
     * time, normalized with ImageNet's mean and std, NCHW float32) if {@code training}, else the
     * evaluation one ({@link ImageTransform#of}: shorter side 256, centre 224 × 224), and its label
     * (int feature {@code labelFeature}) as int32 of shape {@code (N, 1)}; records shuffled (and
     * files reordered every epoch) if {@code training}, all drawn from {@code seed}. Set the files
     * and batch size, and change anything else, on the builder it returns.
     */
    public static Builder imageClassification(String imageFeature, String labelFeature, boolean training, long seed) {
        return builder()
                .imageTransform(training ? ImageTransform.training(imageFeature, seed) : ImageTransform.of(imageFeature))
                .decoder(OFRecordRawDecoder.of(labelFeature, Shape.of(1), DataType.INT32))
                .randomShuffle(training).shuffleAfterEpoch(training).seed(seed);
    }

    /** The options of an OFRecord reader: those of every part-file reader, plus the decoders. */
    public static final class Builder extends FilePipelineBuilder<Builder> {
        private static final Logger LOG = LoggerFactory.getLogger(OFRecordReader.class);
        private final List<OFRecordDecoder> decoders = new ArrayList<>();
        private final List<ImageDecoder> imageDecoders = new ArrayList<>();
        private final List<ImageTransform> imageTransforms = new ArrayList<>();
        private ImageCodec imageCodec;

        private Builder() {
            super("ofrecord");
        }

        /** Adds a decoder: one feature of every record becomes one output of every batch. */
        public Builder decoder(OFRecordDecoder decoder) {
            decoders.add(Objects.requireNonNull(decoder, "decoder"));
            return this;
        }

        /**
         * Adds an image decoder, OneFlow's {@code ofrecord_image_decoder} (or, with a
         * {@code RandomCrop}, {@code ofrecord_image_decoder_random_crop}): one bytes feature of
         * every record, a JPEG or PNG, becomes the record's pixels and their shape.
         */
        public Builder imageDecoder(ImageDecoder decoder) {
            imageDecoders.add(Objects.requireNonNull(decoder, "decoder"));
            return this;
        }

        /**
         * Adds a fused image transform: one bytes feature of every record decoded, cropped,
         * resized, mirrored and normalized into one row of a dense float output.
         */
        public Builder imageTransform(ImageTransform transform) {
            imageTransforms.add(Objects.requireNonNull(transform, "transform"));
            return this;
        }

        /**
         * The codec the images decode with; default {@link ImageCodecs#preferred()}: the native
         * one where its libraries load, else JDK ImageIO.
         */
        public Builder imageCodec(ImageCodec codec) {
            this.imageCodec = Objects.requireNonNull(codec, "codec");
            return this;
        }

        /**
         * Checks that every file exists and starts the reader.
         *
         * @throws IllegalArgumentException     if no decoder is set, two decode the same feature,
         *                                      the batch size is not set, or the files cannot be
         *                                      shared out among the ranks
         * @throws java.io.UncheckedIOException naming a missing file
         */
        public DataReader build() {
            Parser<RecordSlice> parser = decoders.isEmpty() && !(imageDecoders.isEmpty() && imageTransforms.isEmpty())
                    ? null : new OFRecordParser(decoders);
            if (!imageDecoders.isEmpty() || !imageTransforms.isEmpty()) {
                ImageCodec codec = imageCodec != null ? imageCodec : ImageCodecs.preferred();
                LOG.info("reader {}: images decode with the {} codec", readerName(), codec.name());
                parser = ImageParser.of(ImageParser.Records.OFRECORD, parser, imageDecoders, imageTransforms, codec);
            }
            return assembleRecords(files -> new OFRecordDataset(files, epochs(), shuffleAfterEpoch(), fileOrderSeed()),
                    (files, indexDir) -> OFRecordFiles.open(files, 1, indexDir), parser, OFRecordFrames.INSTANCE);
        }
    }
}
