package org.dataloader4j.tfrecord;

import java.nio.file.Path;
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
import org.dataloader4j.tfrecord.internal.ExampleParse;
import org.dataloader4j.image.ImagePipelineBuilder;
import org.dataloader4j.image.ImageTransform;

/**
 * Builds a {@link DataReader} over TFRecord files: {@code TFRecordDataset → [RandomShuffleDataset]
 * → BatchDataset}, parsed by an {@link ExampleParser}. It takes the same file, sharding, shuffle
 * and epoch options as {@code OFRecordReader} (OneFlow's names and defaults), plus the
 * compression, the CRC check, and tf.io-style feature specs.
 *
 * <pre>{@code
 * try (DataReader reader = TFRecordReader.builder()
 *         .files(List.of(Path.of("train.tfrecord.gz")))      // GZIP detected from the name
 *         .batchSize(128).randomShuffle(true).seed(1)
 *         .feature(FixedLenFeature.of("image_floats", Shape.of(784), DataType.FLOAT32))
 *         .feature(FixedLenFeature.of("image_class", Shape.of(1), DataType.INT64))
 *         .build()) {
 *     for (Batch b : reader) { ... }
 * }
 * }</pre>
 */
public final class TFRecordReader {
    private TFRecordReader() {
    }

    /** A builder: tf.Examples unless feature lists are added; compression detected; CRCs checked. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * An image-classification reader of TFRecord files of tf.Examples: each record's image (a
     * JPEG or PNG in bytes feature {@code imageFeature}, such as {@code image/encoded}) through
     * the fused training transform ({@link ImageTransform#training}: a random-resized-crop window,
     * 224 × 224, mirrored half the time, normalized with ImageNet's mean and std, NCHW float32) if
     * {@code training}, else the evaluation one ({@link ImageTransform#of}: shorter side 256, centre
     * 224 × 224), and its label (int64 feature {@code labelFeature}, such as
     * {@code image/class/label}) as int32 of shape {@code (N, 1)}; records shuffled (and files
     * reordered every epoch) if {@code training}, all drawn from {@code seed}. Set the files and
     * batch size, and change anything else, on the builder it returns.
     */
    public static Builder imageClassification(String imageFeature, String labelFeature, boolean training, long seed) {
        return builder().imageClassification(imageFeature, training, seed)
                .feature(FixedLenFeature.of(labelFeature, Shape.of(1), DataType.INT32));
    }

    /** The options of a TFRecord reader. */
    public static final class Builder extends ImagePipelineBuilder<Builder> {
        private final List<ExampleFeature> features = new ArrayList<>();
        private final List<SequenceFeature> featureLists = new ArrayList<>();
        private boolean sequenceExample;
        private Compression compression;
        private boolean verifyCrc = true;
        private long inflateAheadBytes = 64L << 20;

        private Builder() {
            super("tfrecord");
        }

        /** Adds a feature of a tf.Example, or of a SequenceExample's context. */
        public Builder feature(ExampleFeature feature) {
            features.add(Objects.requireNonNull(feature, "feature"));
            return this;
        }

        /** Adds a feature list of a SequenceExample: records are then read as SequenceExamples. */
        public Builder featureList(SequenceFeature featureList) {
            featureLists.add(Objects.requireNonNull(featureList, "featureList"));
            sequenceExample = true;
            return this;
        }

        /** Reads the records as SequenceExamples even with no feature list (context only). */
        public Builder sequenceExample(boolean sequenceExample) {
            this.sequenceExample = sequenceExample;
            return this;
        }

        /** The files' compression; default: detected per file from its name and first bytes. */
        public Builder compression(Compression compression) {
            this.compression = Objects.requireNonNull(compression, "compression");
            return this;
        }

        /**
         * How many inflated bytes of GZIP or ZLIB files may be held ahead of the reader, in all;
         * default 64 MiB. A compressed file is one stream, inflated at one core's speed; each is
         * inflated on a thread of its own (as many at once as there are files or cores, whichever
         * is fewer), the file being read and the next ones ahead, each as far as its share of these
         * bytes. More lets the next files get further ahead; 0 inflates on the reader's load thread.
         */
        public Builder inflateAheadBytes(long inflateAheadBytes) {
            if (inflateAheadBytes < 0) {
                throw new IllegalArgumentException("inflateAheadBytes must be >= 0: inflateAheadBytes=" + inflateAheadBytes);
            }
            this.inflateAheadBytes = inflateAheadBytes;
            return this;
        }

        /** Whether to check both CRCs of every record; default true. */
        public Builder verifyCrc(boolean verifyCrc) {
            this.verifyCrc = verifyCrc;
            return this;
        }

        /**
         * A tf.Example's features, or a SequenceExample's context: the map in field 1 of its
         * field 1, with TensorFlow's three lists.
         */
        @Override
        @SuppressWarnings("exports")
        protected RecordFeatures recordFeatures() {
            return ExampleParse.FEATURES;
        }

        /**
         * Checks that every file exists and starts the reader.
         *
         * @throws IllegalArgumentException     if no feature is set, two share a name, the batch
         *                                      size is not set, or the files cannot be shared out
         *                                      among the ranks
         * @throws java.io.UncheckedIOException naming a missing file
         */
        @Override
        public DataReader build() {
            Parser<RecordSlice> parser = withImages(ImageParser.Records.EXAMPLE,
                    hasImages() && features.isEmpty() && featureLists.isEmpty() ? null
                    : sequenceExample ? ExampleParser.forSequenceExample(features, featureLists)
                    : ExampleParser.forExample(features));
            if (distributesRecords() && !readsRemoteFiles()) {
                for (Path file : openedFiles()) {
                    Compression c = TFRecordDataset.compressionOf(file, compression);
                    if (c != Compression.NONE) {
                        throw new IllegalArgumentException("distributed(options) indexes the records of uncompressed files only, "
                                + file + " is " + c + ": share compressed files among ranks with shard(rank, worldSize)");
                    }
                }
            }
            // Uncompressed files are indexed and read by record number; a compressed one is a stream.
            // Remote files are read by record number, as uncompressed, unless a compression is set:
            // then through the store's sequential streams.
            boolean mapped = readsRemoteFiles() ? compression == null || compression == Compression.NONE
                    : openedFiles().stream().allMatch(file -> TFRecordDataset.compressionOf(file, compression) == Compression.NONE);
            return assembleRecords(files -> new TFRecordDataset(files, epochs(), shuffleAfterEpoch(), fileOrderSeed(),
                    compression, verifyCrc, inflateAheadBytes, readerName()), (files, indexDir) -> TFRecordFiles.open(files, 1, verifyCrc, indexDir), parser,
                    mapped ? TFRecordFrames.of(verifyCrc) : null,
                    new StreamFormat(Framing.TFRECORD, compression, verifyCrc, TFRecordDataset.KIND));
        }
    }
}
