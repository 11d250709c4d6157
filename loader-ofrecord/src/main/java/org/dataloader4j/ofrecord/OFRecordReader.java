package org.dataloader4j.ofrecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.RecordFeatures;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.image.ImageParser;
import org.dataloader4j.ofrecord.internal.BatchParse;
import org.dataloader4j.image.ImagePipelineBuilder;
import org.dataloader4j.image.ImageTransform;

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
        return builder().imageClassification(imageFeature, training, seed)
                .decoder(OFRecordRawDecoder.of(labelFeature, Shape.of(1), DataType.INT32));
    }

    /** The options of an OFRecord reader: those of every part-file reader and its images, plus the decoders. */
    public static final class Builder extends ImagePipelineBuilder<Builder> {
        private final List<OFRecordDecoder> decoders = new ArrayList<>();

        private Builder() {
            super("ofrecord");
        }

        /** Adds a decoder: one feature of every record becomes one output of every batch. */
        public Builder decoder(OFRecordDecoder decoder) {
            decoders.add(Objects.requireNonNull(decoder, "decoder"));
            return this;
        }

        /** An OFRecord's features: the map of its field 1, with OneFlow's five lists. */
        @Override
        @SuppressWarnings("exports")
        protected RecordFeatures recordFeatures() {
            return BatchParse.FEATURES;
        }

        /**
         * Checks that every file exists and starts the reader.
         *
         * @throws IllegalArgumentException     if no decoder is set, two decode the same feature,
         *                                      the batch size is not set, or the files cannot be
         *                                      shared out among the ranks
         * @throws java.io.UncheckedIOException naming a missing file
         */
        @Override
        public DataReader build() {
            Parser<RecordSlice> parser = withImages(ImageParser.Records.OFRECORD,
                    decoders.isEmpty() && hasImages() ? null : new OFRecordParser(decoders));
            return assembleRecords(files -> new OFRecordDataset(files, epochs(), shuffleAfterEpoch(), fileOrderSeed()),
                    (files, indexDir) -> OFRecordFiles.open(files, 1, indexDir), parser, OFRecordFrames.INSTANCE,
                    new StreamFormat(Framing.OFRECORD, Compression.NONE, false, OFRecordDataset.KIND));
        }
    }
}
