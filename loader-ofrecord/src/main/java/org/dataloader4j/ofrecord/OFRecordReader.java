package org.dataloader4j.ofrecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.FilePipelineBuilder;

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

    /** The options of an OFRecord reader: those of every part-file reader, plus the decoders. */
    public static final class Builder extends FilePipelineBuilder<Builder> {
        private final List<OFRecordDecoder> decoders = new ArrayList<>();

        private Builder() {
            super("ofrecord");
        }

        /** Adds a decoder: one feature of every record becomes one output of every batch. */
        public Builder decoder(OFRecordDecoder decoder) {
            decoders.add(Objects.requireNonNull(decoder, "decoder"));
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
            OFRecordParser parser = new OFRecordParser(decoders);
            return assembleRecords(files -> new OFRecordDataset(files, epochs(), shuffleAfterEpoch(), fileOrderSeed()),
                    (files, indexDir) -> OFRecordFiles.open(files, 1, indexDir), parser, OFRecordFrames.INSTANCE);
        }
    }
}
