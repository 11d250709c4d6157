package org.dataloader4j.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;

/**
 * Trains a softmax classifier on an MNIST-like OFRecord dataset: the OFRecord example.
 *
 * <p>{@link #main} writes {@value #RECORDS} records of 784 float32 {@code images} and an int64
 * {@code labels} into {@value #PARTS} part files ({@code part-00000} …), each image a noisy copy
 * of its class's prototype, then trains {@code softmax(W·x + b)} by SGD on batches from an
 * {@link OFRecordReader}, printing one line per epoch:
 * {@code epoch=<e> loss=<mean cross-entropy> accuracy=<fraction of the epoch's samples right>}.
 *
 * <pre>
 * java -cp ... org.dataloader4j.samples.SoftmaxRegression [dataDir]
 * </pre>
 *
 * <p>Longer than most classes: a sample is read top to bottom, so the model, its training step
 * and its report stay beside the reader that feeds them.
 */
public final class SoftmaxRegression {
    /** Pixels per image, as in MNIST. */
    public static final int PIXELS = 784;
    /** Classes, as in MNIST. */
    public static final int CLASSES = 10;
    /** Records written by {@link #main}. */
    static final int RECORDS = 6000;
    /** Part files written by {@link #main}. */
    static final int PARTS = 4;
    /** Passes over the data in {@link #main}. */
    static final int EPOCHS = 5;
    private static final int BATCH_SIZE = 64;
    private static final double LEARNING_RATE = 0.05;
    private static final long SEED = 7;

    private SoftmaxRegression() {
    }

    /**
     * One epoch's result.
     *
     * @param epoch    the epoch, from 0
     * @param loss     the mean cross-entropy over the epoch's samples
     * @param accuracy the fraction of the epoch's samples classified right before the step
     */
    public record Epoch(long epoch, double loss, double accuracy) {
    }

    /**
     * Writes the data, trains, and prints one line per epoch.
     *
     * @param args an optional folder for the data, kept afterwards
     * @throws IOException if the data cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("softmax-regression");
        try {
            writeData(dir, RECORDS, PARTS, SEED);
            train(dir, PARTS, EPOCHS, SEED, e -> System.out.printf(Locale.ROOT, "epoch=%d loss=%.4f accuracy=%.4f%n",
                    e.epoch(), e.loss(), e.accuracy()));
        } finally {
            if (args.length == 0) {
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
                Files.delete(dir);
            }
        }
    }

    /**
     * Writes {@code records} records over {@code parts} part files in {@code dir}: label
     * {@code c} uniform over the classes, image = class {@code c}'s random prototype plus
     * Gaussian noise, clipped to [0, 1].
     */
    public static void writeData(Path dir, int records, int parts, long seed) throws IOException {
        Random random = new Random(seed);
        float[][] prototypes = new float[CLASSES][PIXELS];
        for (float[] p : prototypes) {
            for (int i = 0; i < PIXELS; i++) {
                p[i] = random.nextFloat() < 0.3f ? 1f : 0f;
            }
        }
        try (PartWriter out = PartWriter.create(dir, parts)) {
            float[] image = new float[PIXELS];
            for (int r = 0; r < records; r++) {
                int label = random.nextInt(CLASSES);
                for (int i = 0; i < PIXELS; i++) {
                    image[i] = (float) Math.min(1, Math.max(0, prototypes[label][i] + 0.5 * random.nextGaussian()));
                }
                out.write(Features.record(Map.of(
                        "images", Features.floatFeature(image),
                        "labels", Features.int64Feature(label))));
            }
        }
    }

    /** Hears each epoch's result as soon as the epoch ends. */
    @FunctionalInterface
    public interface EpochListener {
        /** Epoch {@code e} ended. */
        void epochDone(Epoch e);
    }

    /** Trains on the {@code parts} part files in {@code dir} and returns every epoch's result. */
    public static List<Epoch> train(Path dir, int parts, int epochs, long seed, EpochListener listener) {
        Model model = new Model();
        List<Epoch> results = new ArrayList<>();
        Stats stats = new Stats();
        try (DataReader reader = reader(OFRecordReader.builder().dataDir(dir).dataPartNum(parts)
                .partNamePrefix(PartWriter.PREFIX).partNameSuffixLength(PartWriter.SUFFIX_LENGTH), epochs, seed)) {
            for (Batch batch : reader) {
                if (batch.epoch() != stats.epoch) {
                    results.add(stats.finish(listener));
                    stats = new Stats();
                    stats.epoch = batch.epoch();
                }
                Step s = model.step(batch.tensor("images").toFloatArray(), batch.tensor("labels").toLongArray());
                stats.add(s);
            }
        }
        results.add(stats.finish(listener));
        return results;
    }

    /**
     * The reader {@link #train} uses: batches of {@code images} (784 float32) and {@code labels}
     * (one int64) from the OFRecord {@code files}, shuffled with {@code seed}, for
     * {@code epochs} epochs. The caller closes it.
     */
    public static DataReader reader(List<Path> files, int epochs, long seed) {
        return reader(OFRecordReader.builder().files(files), epochs, seed);
    }

    private static DataReader reader(OFRecordReader.Builder files, int epochs, long seed) {
        return files
                .batchSize(BATCH_SIZE).randomShuffle(true).shuffleBufferSize(1024).seed(seed)
                .epochs(epochs).shuffleAfterEpoch(true)
                .decoder(OFRecordRawDecoder.of("images", Shape.of(PIXELS), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT64))
                .build();
    }

    /**
     * What one {@link Model#step} saw.
     *
     * @param loss    the summed cross-entropy of the batch's samples, before the step
     * @param right   the samples classified right before the step
     * @param samples the samples in the batch
     */
    public record Step(double loss, int right, int samples) {
    }

    /**
     * {@code softmax(W·x + b)} over {@value #PIXELS} pixels and {@value #CLASSES} classes,
     * starting from zero weights and trained by plain SGD. Not thread-safe.
     */
    public static final class Model {
        private final double[][] w = new double[CLASSES][PIXELS];
        private final double[] b = new double[CLASSES];
        private final double[] p = new double[CLASSES];

        /** A model with all weights zero. */
        public Model() {
        }

        /**
         * One SGD step of softmax cross-entropy on a batch: {@code images} holds
         * {@code labels.length} rows of {@value #PIXELS} pixels.
         */
        public Step step(float[] images, long[] labels) {
            int n = labels.length;
            double[][] gradW = new double[CLASSES][PIXELS];
            double[] gradB = new double[CLASSES];
            double loss = 0;
            int right = 0;
            for (int s = 0; s < n; s++) {
                int offset = s * PIXELS;
                double sum = scores(images, offset);
                int label = (int) labels[s];
                loss += -Math.log(p[label] / sum);
                right += predicted() == label ? 1 : 0;
                for (int c = 0; c < CLASSES; c++) {
                    double g = p[c] / sum - (c == label ? 1 : 0);
                    gradB[c] += g;
                    for (int i = 0; i < PIXELS; i++) {
                        gradW[c][i] += g * images[offset + i];
                    }
                }
            }
            for (int c = 0; c < CLASSES; c++) {
                b[c] -= LEARNING_RATE * gradB[c] / n;
                for (int i = 0; i < PIXELS; i++) {
                    w[c][i] -= LEARNING_RATE * gradW[c][i] / n;
                }
            }
            return new Step(loss, right, n);
        }

        /** The class this model gives the image at row {@code row} of {@code images}. */
        public int predict(float[] images, int row) {
            scores(images, row * PIXELS);
            return predicted();
        }

        /** Fills {@code p} with exp(score - max score) and returns their sum. */
        private double scores(float[] images, int offset) {
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < CLASSES; c++) {
                double z = b[c];
                for (int i = 0; i < PIXELS; i++) {
                    z += w[c][i] * images[offset + i];
                }
                p[c] = z;
                max = Math.max(max, z);
            }
            double sum = 0;
            for (int c = 0; c < CLASSES; c++) {
                p[c] = Math.exp(p[c] - max);
                sum += p[c];
            }
            return sum;
        }

        /** The class of the largest score in {@code p}; exp keeps the order. */
        private int predicted() {
            int best = 0;
            for (int c = 1; c < CLASSES; c++) {
                best = p[c] > p[best] ? c : best;
            }
            return best;
        }
    }

    /** Running loss and accuracy of one epoch. */
    private static final class Stats {
        long epoch;
        double loss;
        long right;
        long samples;

        void add(Step step) {
            loss += step.loss();
            right += step.right();
            samples += step.samples();
        }

        Epoch finish(EpochListener listener) {
            Epoch e = new Epoch(epoch, loss / samples, (double) right / samples);
            listener.epochDone(e);
            return e;
        }
    }
}
