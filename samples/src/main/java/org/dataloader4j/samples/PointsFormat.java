package org.dataloader4j.samples;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.RandomShuffleDataset;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.ReaderOptions;

/**
 * A file format of one's own, plugged into the runtime with one {@link Dataset} and one
 * {@link Parser}: the sample of docs/custom-format.md.
 *
 * <p>A points file is the 4 bytes {@code PTS1}, then points of 12 bytes each, little-endian: an
 * int32 label and two float32 coordinates. {@link #main} writes one, reads it in shuffled batches,
 * stops after a few, and restarts from the saved state:
 *
 * <pre>
 * java -cp ... org.dataloader4j.samples.PointsFormat [file]
 * </pre>
 */
public final class PointsFormat {
    /** The bytes a file starts with. */
    static final int MAGIC = 0x31535450; // "PTS1", read little-endian
    /** The bytes of one point. */
    static final int POINT_BYTES = 12;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private PointsFormat() {
    }

    // --- custom-format snippet: sample ---
    /** One point of a points file: what the dataset yields and the parser reads. */
    public record Point(long index, int label, float x, float y) {
    }
    // --- custom-format snippet end ---

    // --- custom-format snippet: dataset ---
    /**
     * The points of one file, in order, for a number of epochs. Single-threaded, as every dataset:
     * only the reader's load thread calls it. Owns the file's mapping and unmaps it in close().
     */
    public static final class PointsDataset implements Dataset<Point> {
        private static final String KIND = "points";
        private final Path file;
        private final long epochs;
        private final Arena arena = Arena.ofShared();
        private final MemorySegment points;
        private final long size;
        private long epoch;
        private long next;

        /**
         * The points of {@code file}, repeated for {@code epochs} epochs.
         *
         * @throws CorruptDataException if the file is not a points file, naming it and the offset
         */
        public PointsDataset(Path file, long epochs) throws IOException {
            this.file = file;
            this.epochs = epochs;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                MemorySegment all = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
                if (all.byteSize() < 4 || all.get(INT, 0) != MAGIC) {
                    throw new CorruptDataException(file.toString(), 0, 0, "not a points file: no PTS1 at its start");
                }
                long body = all.byteSize() - 4;
                if (body % POINT_BYTES != 0) {
                    long last = body / POINT_BYTES;
                    throw new CorruptDataException(file.toString(), last, 4 + last * POINT_BYTES,
                            "truncated point: " + body % POINT_BYTES + " of " + POINT_BYTES + " bytes");
                }
                this.points = all.asSlice(4);
                this.size = body / POINT_BYTES;
            } catch (IOException | RuntimeException e) {
                arena.close();   // a dataset that fails to open holds nothing
                throw e;
            }
        }

        /** One point per call; an empty list after the last epoch. */
        @Override
        public List<Point> next() {
            if (next == size) {
                if (epoch + 1 >= epochs || size == 0) {
                    return List.of();
                }
                epoch++;
                next = 0;
            }
            return List.of(at(next++));
        }

        private Point at(long index) {
            long offset = index * POINT_BYTES;
            return new Point(index, points.get(INT, offset), points.get(FLOAT, offset + 4), points.get(FLOAT, offset + 8));
        }

        /** The epoch of the point returned last. */
        @Override
        public long epoch() {
            return epoch;
        }

        /** Every point, each epoch: a reader knows its steps per epoch from it. */
        @Override
        public OptionalLong samplesPerEpoch() {
            return OptionalLong.of(size);
        }

        /** Where the next point is: two numbers, whatever the file's size. */
        @Override
        public DatasetState state() {
            return DatasetState.of(KIND, null).with("epoch", epoch).with("next", next);
        }

        /** Goes back to a state of {@link #state()}, checking that it fits this file. */
        @Override
        public void restore(DatasetState state) {
            long e = state.expect(KIND).field("epoch");
            long n = state.field("next");
            if (e < 0 || e >= epochs || n < 0 || n > size) {
                throw new IllegalArgumentException("state does not fit " + file + " (" + size + " points, " + epochs
                        + " epochs): " + state);
            }
            epoch = e;
            next = n;
        }

        /** A point is found again by its index: what lets a shuffle buffer save the points it holds. */
        @Override
        public Optional<SampleLocator<Point>> locator() {
            return Optional.of(SampleLocator.byIndex(Point::index, this::at));
        }

        /** Unmaps the file. Idempotent. */
        @Override
        public void close() {
            if (arena.scope().isAlive()) {
                arena.close();
            }
        }
    }
    // --- custom-format snippet end ---

    // --- custom-format snippet: parser ---
    /** Writes the points' coordinates and labels into a batch's preallocated tensors. */
    public static final class PointsParser implements Parser<Point> {

        /** A parser: it keeps nothing between batches. */
        public PointsParser() {
        }

        /** Two outputs, declared once: the reader allocates them for every slot of its ring. */
        @Override
        public List<TensorSpec> outputs(int rows) {
            return List.of(TensorSpec.dense("xy", DataType.FLOAT32, Shape.of(rows, 2)),
                    TensorSpec.dense("label", DataType.INT32, Shape.of(rows)));
        }

        /** Fills rows {@code [0, samples.size())}, split over the loop's threads. */
        @Override
        public void parse(List<? extends Point> samples, Batch out, ParallelLoop loop) {
            Tensor xy = out.tensor("xy");
            Tensor label = out.tensor("label");
            loop.forEach(samples.size(), row -> {
                Point p = samples.get(row);
                xy.setFloat(2L * row, p.x());
                xy.setFloat(2L * row + 1, p.y());
                label.setInt(row, p.label());
            });
        }
    }
    // --- custom-format snippet end ---

    /**
     * The reader of {@code file}: shuffled through a buffer of 64, batches of {@code batchSize},
     * {@code epochs} epochs, started at {@code state} (null for the start).
     *
     * @throws IOException if the file cannot be opened
     */
    // --- custom-format snippet: reader ---
    public static DataReader reader(Path file, int batchSize, long epochs, DatasetState state) throws IOException {
        Dataset<Point> points = new PointsDataset(file, epochs);
        Dataset<Point> batches = new BatchDataset<>(new RandomShuffleDataset<>(points, 64, 42), batchSize, false);
        ReaderOptions.Builder options = ReaderOptions.builder().name("points");
        return DataReader.of(batches, new PointsParser(), (state == null ? options : options.restore(state)).build());
    }
    // --- custom-format snippet end ---

    /** Writes a points file of {@code n} points drawn from {@code seed}: label 1 where x + y > 0. */
    public static void write(Path file, int n, long seed) throws IOException {
        Random random = new Random(seed);
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
            out.writeInt(Integer.reverseBytes(MAGIC));
            for (int i = 0; i < n; i++) {
                float x = (float) random.nextGaussian();
                float y = (float) random.nextGaussian();
                out.writeInt(Integer.reverseBytes(x + y > 0 ? 1 : 0));
                out.writeInt(Integer.reverseBytes(Float.floatToIntBits(x)));
                out.writeInt(Integer.reverseBytes(Float.floatToIntBits(y)));
            }
        }
    }

    /**
     * Writes 1,000 points, reads 5 batches of 32, saves the state, and reads the rest of 2 epochs
     * with a new reader restored from it; prints the batches each reader read and the step the
     * second started at.
     */
    public static void main(String[] args) throws IOException {
        Path file = args.length > 0 ? Path.of(args[0]) : Files.createTempFile("points", ".pts");
        try {
            write(file, 1000, 7);
            DatasetState saved;
            try (DataReader first = reader(file, 32, 2, null)) {
                for (int i = 0; i < 5; i++) {
                    first.read();
                }
                saved = first.state();
            }
            long rest = 0;
            long firstStep = -1;
            try (DataReader second = reader(file, 32, 2, saved)) {
                for (Batch b : second) {
                    firstStep = firstStep < 0 ? b.index() : firstStep;
                    rest++;
                }
            }
            System.out.println("read 5 batches, saved " + saved + ", then " + rest + " batches from step " + firstStep);
        } finally {
            if (args.length == 0) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** Unchecked, for the lambdas of tests and callers that cannot throw. */
    static DataReader open(Path file, int batchSize, long epochs, DatasetState state) {
        try {
            return reader(file, batchSize, epochs, state);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
