package org.dataloader4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.core.dataset.DistributedTrainingOptions;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.ReaderMetrics;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.testkit.DocSnippets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The training loop of docs/training-loop.md, run: every Java block of the guide is a region of
 * this class. A run interrupted by a crash and restarted from its checkpoint ends with the
 * parameters of the run that was never interrupted, on every rank, having seen the same losses
 * step for step.
 */
@Timeout(60)
class TrainingLoopGuideTest {
    private static final int PARTS = 4;
    private static final int RECORDS = 640;
    private static final float[] TRUE_W = {0.5f, -1f, 2f, 0.25f};

    @TempDir
    Path dir;

    /** {@link #RECORDS} records {@code x} (4 floats) and {@code y = TRUE_W · x + 1} in {@link #PARTS} part files. */
    private Path writeData() throws IOException {
        Path data = dir.resolve("train");
        Random random = new Random(3);
        try (PartWriter out = PartWriter.create(data, PARTS)) {
            for (int i = 0; i < RECORDS; i++) {
                float[] x = new float[4];
                float y = 1;
                for (int k = 0; k < 4; k++) {
                    x[k] = (float) random.nextGaussian();
                    y += TRUE_W[k] * x[k];
                }
                out.write(Features.record(Map.of("x", Features.floatFeature(x), "y", Features.floatFeature(y))));
            }
        }
        return data;
    }

    // --- training-loop snippet: model ---
    /** y ≈ w · x + b, trained by plain SGD on the mean squared error. */
    static final class Model {
        private final float[] w;
        private float b;

        Model(int features) {
            this.w = new float[features];
        }

        /** One SGD step on a batch of {@code rows} rows; returns the batch's loss before the step. */
        double step(Tensor x, Tensor y, int rows, float learningRate) {
            float[] xs = x.toFloatArray();
            float[] ys = y.toFloatArray();
            float[] gradW = new float[w.length];
            float gradB = 0;
            double loss = 0;
            for (int r = 0; r < rows; r++) {
                float error = b - ys[r];
                for (int k = 0; k < w.length; k++) {
                    error += w[k] * xs[r * w.length + k];
                }
                loss += error * error / rows;
                for (int k = 0; k < w.length; k++) {
                    gradW[k] += 2 * error * xs[r * w.length + k] / rows;
                }
                gradB += 2 * error / rows;
            }
            for (int k = 0; k < w.length; k++) {
                w[k] -= learningRate * gradW[k];
            }
            b -= learningRate * gradB;
            return loss;
        }

        float[] parameters() {
            float[] p = Arrays.copyOf(w, w.length + 1);
            p[w.length] = b;
            return p;
        }

        void load(float[] parameters) {
            System.arraycopy(parameters, 0, w, 0, w.length);
            b = parameters[w.length];
        }
    }
    // --- training-loop snippet end ---

    // --- training-loop snippet: reader ---
    /** Rank {@code rank}'s reader of the part files, starting where {@code resumeFrom} says (null: the start). */
    static DataReader open(Path data, int rank, int worldSize, DatasetState resumeFrom) {
        OFRecordReader.Builder builder = OFRecordReader.builder()
                .dataDir(data).dataPartNum(4).partNameSuffixLength(5)
                .distributed(DistributedTrainingOptions.builder().rank(rank).worldSize(worldSize)
                        .shuffle(true).seed(7).epochs(3).build())   // a new global order each epoch, the same on every rank
                .randomShuffle(true).shuffleBufferSize(64).seed(rank)  // and a local shuffle of this rank's share
                .batchSize(32)
                .decoder(OFRecordRawDecoder.of("x", Shape.of(4), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("y", Shape.of(1), DataType.FLOAT32));
        if (resumeFrom != null) {
            builder.reader(options -> options.restore(resumeFrom));
        }
        return builder.build();
    }
    // --- training-loop snippet end ---

    // --- training-loop snippet: checkpoint ---
    /** The model's parameters and the reader's state, saved together. */
    record Checkpoint(float[] parameters, DatasetState readerState) {

        /** Writes the checkpoint to {@code file} whole or not at all: to a new file, then renamed over it. */
        void save(Path file) throws IOException {
            byte[] state = DatasetStateCodec.toBytes(readerState);
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(partial))) {
                out.writeInt(parameters.length);
                for (float p : parameters) {
                    out.writeFloat(p);
                }
                out.writeInt(state.length);
                out.write(state);
            }
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }

        static Checkpoint load(Path file) throws IOException {
            try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
                float[] parameters = new float[in.readInt()];
                for (int i = 0; i < parameters.length; i++) {
                    parameters[i] = in.readFloat();
                }
                byte[] state = in.readNBytes(in.readInt());
                return new Checkpoint(parameters, DatasetStateCodec.fromBytes(state));
            }
        }
    }
    // --- training-loop snippet end ---

    /** What the loop reports: the loss of each step, and each epoch's end with the reader's metrics. */
    interface Progress {
        void step(long step, double loss);

        default void epochEnded(long epoch, ReaderMetrics metrics) {
        }
    }

    // --- training-loop snippet: loop ---
    /** Trains rank {@code rank} of {@code worldSize} for the reader's epochs, from {@code checkpoint} if it exists. */
    static Model train(Path data, int rank, int worldSize, Path checkpoint, Progress progress) throws IOException {
        Model model = new Model(4);
        DatasetState resumeFrom = null;
        if (Files.exists(checkpoint)) {
            Checkpoint saved = Checkpoint.load(checkpoint);
            model.load(saved.parameters());
            resumeFrom = saved.readerState();
        }
        try (DataReader reader = open(data, rank, worldSize, resumeFrom)) {
            long stepsPerEpoch = reader.stepsPerEpoch().orElseThrow();   // the same on every rank
            long epoch = -1;
            for (Batch batch : reader) {
                if (batch.epoch() > epoch) {       // the first rows of a new epoch: the one before has ended
                    if (epoch >= 0) {
                        progress.epochEnded(epoch, reader.metrics());
                    }
                    epoch = batch.epoch();
                }
                long step = batch.index();         // goes on from the checkpoint's step
                float learningRate = 0.1f / (1 + step / stepsPerEpoch);
                double loss = model.step(batch.tensor("x"), batch.tensor("y"), batch.size(), learningRate);
                progress.step(step, loss);
                if ((step + 1) % 8 == 0) {
                    new Checkpoint(model.parameters(), reader.state()).save(checkpoint);
                }
            }
            progress.epochEnded(epoch, reader.metrics());
        }
        return model;
    }
    // --- training-loop snippet end ---

    /** A crash: what kills a run between two checkpoints. */
    private static final class Crash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Crash() {
            super("simulated crash");
        }
    }

    @Test
    void aRestartedRunEndsWithTheParametersAndLossesOfAnUninterruptedOneOnEveryRank() throws IOException {
        Path data = writeData();
        for (int r = 0; r < 2; r++) {
            int rank = r;
            Map<Long, Double> uninterrupted = new LinkedHashMap<>();
            Model whole = train(data, rank, 2, dir.resolve("whole-" + rank), uninterrupted::put);
            // 640 records over 2 ranks in batches of 32: 10 steps an epoch, 3 epochs.
            assertEquals(30, uninterrupted.size(), "rank " + rank);

            Path checkpoint = dir.resolve("crashed-" + rank);
            Map<Long, Double> crashed = new LinkedHashMap<>();
            assertThrows(Crash.class, () -> train(data, rank, 2, checkpoint, (step, loss) -> {
                if (step == 21) {
                    throw new Crash();
                }
                crashed.put(step, loss);
            }));
            Map<Long, Double> restarted = new LinkedHashMap<>();
            Model resumed = train(data, rank, 2, checkpoint, restarted::put);

            // The last checkpoint was after step 15: the restart goes on at step 16.
            assertEquals(16L, restarted.keySet().iterator().next(), "rank " + rank);
            restarted.forEach((step, loss) -> assertEquals(uninterrupted.get(step), loss, "loss at step " + step));
            crashed.forEach((step, loss) -> assertEquals(uninterrupted.get(step), loss, "loss at step " + step));
            assertArrayEquals(whole.parameters(), resumed.parameters(), "rank " + rank);
        }
    }

    @Test
    void theModelLearnsAndEveryEpochEndIsReported() throws IOException {
        Path data = writeData();
        Map<Long, ReaderMetrics> epochs = new LinkedHashMap<>();
        Model model = train(data, 0, 1, dir.resolve("one-rank"), new Progress() {
            @Override
            public void step(long step, double loss) {
            }

            @Override
            public void epochEnded(long epoch, ReaderMetrics metrics) {
                epochs.put(epoch, metrics);
            }
        });
        assertEquals(List.of(0L, 1L, 2L), List.copyOf(epochs.keySet()));
        assertEquals(3 * RECORDS, epochs.get(2L).batchesRead() * 32);
        // Epoch 0 ends when a row of epoch 1 first comes: the shuffle buffer (64 rows) mixes the last batches.
        long firstOfEpoch1 = epochs.get(0L).batchesRead();
        assertTrue(firstOfEpoch1 >= 18 && firstOfEpoch1 <= 21, "epoch 0 of 20 batches ended at batch " + firstOfEpoch1);
        float[] p = model.parameters();
        for (int k = 0; k < 4; k++) {
            assertTrue(Math.abs(p[k] - TRUE_W[k]) < 0.05, "w" + k + "=" + p[k]);
        }
        assertTrue(Math.abs(p[4] - 1) < 0.05, "b=" + p[4]);
    }

    // --- training-loop snippet: skip ---
    /** Whole files per rank, each epoch in a new file order, corrupt records skipped. */
    static DataReader openSkipping(Path data, int rank, int worldSize) {
        return OFRecordReader.builder()
                .dataDir(data).dataPartNum(4).partNameSuffixLength(5)
                .shard(rank, worldSize)                          // whole files: a skip changes one rank's steps alone
                .epochs(3).shuffleAfterEpoch(true).randomShuffle(true).seed(7)
                .skipCorrupt(0.01)                               // at most 1 % of the records read so far, and at least 1
                .batchSize(32)
                .decoder(OFRecordRawDecoder.of("x", Shape.of(4), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("y", Shape.of(1), DataType.FLOAT32))
                .build();
    }
    // --- training-loop snippet end ---

    @Test
    void aSkippingReaderReadsPastACorruptRecordAndCountsIt() throws IOException {
        Path data = writeData();
        // Record 5 of part 1 becomes garbage of the same length, in a valid frame.
        Path part = data.resolve("part-00001");
        byte[] bytes = Files.readAllBytes(part);
        long at = 0;
        for (int r = 0; r < 5; r++) {
            at += 8 + ByteBuffer.wrap(bytes, (int) at, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        }
        bytes[(int) at + 8] = 0x0F;   // field 1, wire type 7: no message
        Files.write(part, bytes);
        long rows = 0;
        try (DataReader reader = openSkipping(data, 0, 1)) {
            for (Batch batch : reader) {
                rows += batch.size();
            }
            assertEquals(3, reader.metrics().corruptSkipped(), "once each epoch");
        }
        assertEquals(3 * RECORDS, rows, "a skipped record is replaced by the next good one");
    }

    @Test
    void everyJavaBlockOfTheGuideIsRunHere() {
        DocSnippets.assertEveryBlockIsRun(DocSnippets.projectFile("docs/training-loop.md"),
                DocSnippets.projectFile("samples/src/test/java/org/dataloader4j/samples/TrainingLoopGuideTest.java"));
        assertFalse(DocSnippets.javaBlocks(DocSnippets.projectFile("docs/training-loop.md")).isEmpty());
    }
}
