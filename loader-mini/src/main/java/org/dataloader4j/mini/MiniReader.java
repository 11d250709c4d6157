package org.dataloader4j.mini;

import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.FilePipelineBuilder;

/**
 * Builds a {@link DataReader} over mini files with OneFlow's {@code MiniReader} options:
 * {@code MiniDataset → [RandomShuffleDataset] → BatchDataset}, parsed by
 * {@code MiniDecoder(MiniParser)} into {@code xy} (batch, 2), {@code x} and {@code y} (batch, 1).
 *
 * <pre>{@code
 * try (DataReader reader = MiniReader.builder().dataDir(dir).dataPartNum(2).batchSize(32)
 *         .randomShuffle(true).seed(7).epochs(10).build()) {
 *     for (Batch b : reader) { ... b.tensor("x") ... b.tensor("y") ... }
 * }
 * }</pre>
 */
public final class MiniReader {
    private MiniReader() {
    }

    /** A builder with OneFlow's defaults: prefix {@code "part-"}, no padding, no shuffle, buffer 1024. */
    public static Builder builder() {
        return new Builder();
    }

    /** The options of a mini reader: those of every part-file reader ({@link FilePipelineBuilder}). */
    public static final class Builder extends FilePipelineBuilder<Builder> {
        private Builder() {
            super("mini");
        }

        /**
         * Checks that every file exists and starts the reader.
         *
         * @throws IllegalArgumentException     if neither {@code dataDir} nor {@code files} is set,
         *                                      or the batch size is not set
         * @throws java.io.UncheckedIOException naming a missing file
         */
        @Override
        public DataReader build() {
            MiniDataset dataset = new MiniDataset(resolveFiles(), epochs(), shuffleAfterEpoch(), fileOrderSeed());
            return assemble(dataset, new MiniDecoder(new MiniParser()));
        }
    }
}
