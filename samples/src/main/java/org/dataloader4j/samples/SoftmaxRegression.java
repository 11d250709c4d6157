package org.dataloader4j.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;

/**
 * Trains a softmax classifier on real handwritten digits: the OFRecord example.
 *
 * <p>{@link #main} copies the {@link Digits} part files into a folder, trains
 * {@code softmax(W·x + b)} by SGD on batches of the four training parts from an
 * {@link OFRecordReader}, printing one line per epoch,
 * {@code epoch=<e> loss=<mean cross-entropy> accuracy=<fraction of the epoch's samples right>},
 * then the accuracy on the held-out fifth: {@code test accuracy=<fraction> on <n> images}.
 *
 * <pre>
 * java -cp ... org.dataloader4j.samples.SoftmaxRegression [dataDir]
 * </pre>
 *
 * <p>Longer than most classes: a sample is read top to bottom, so the model, its training step
 * and its report stay beside the reader that feeds them.
 */
public final class SoftmaxRegression {
    /** Passes over the training data. */
    public static final int EPOCHS = 30;
    /** The seed of the reader's shuffle. */
    public static final long SEED = 7;
    private static final int PIXELS = Digits.PIXELS;
    private static final int CLASSES = Digits.CLASSES;
    private static final int BATCH_SIZE = 32;
    private static final double LEARNING_RATE = 0.5;

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
     * Trains on the digits and prints one line per epoch, then the test accuracy.
     *
     * @param args an optional folder for the data, kept afterwards
     * @throws IOException if the data cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("softmax-regression");
        List<Path> files = Digits.copyTo(dir);
        try {
            Model model = new Model();
            train(model, Digits.train(files), EPOCHS, SEED, e -> System.out.printf(Locale.ROOT,
                    "epoch=%d loss=%.4f accuracy=%.4f%n", e.epoch(), e.loss(), e.accuracy()));
            Accuracy test = testAccuracy(model, Digits.test(files));
            System.out.printf(Locale.ROOT, "test accuracy=%.4f on %d images%n", test.fraction(), test.samples());
        } finally {
            if (args.length == 0) {
                // The part files and the record indexes the reader wrote beside them.
                try (Stream<Path> left = Files.list(dir)) {
                    for (Path f : left.toList()) {
                        Files.delete(f);
                    }
                }
                Files.delete(dir);
            }
        }
    }

    /** Hears each epoch's result as soon as the epoch ends. */
    @FunctionalInterface
    public interface EpochListener {
        /** Epoch {@code e} ended. */
        void epochDone(Epoch e);
    }

    /** Trains {@code model} on {@code files} for {@code epochs} epochs, telling {@code listener} each epoch's result. */
    public static void train(Model model, List<Path> files, int epochs, long seed, EpochListener listener) {
        Stats stats = new Stats();
        try (DataReader reader = reader(files, epochs, seed)) {
            for (Batch batch : reader) {
                if (batch.epoch() != stats.epoch) {
                    stats.finish(listener);
                    stats = new Stats();
                    stats.epoch = batch.epoch();
                }
                stats.add(model.step(batch.tensor("images").toFloatArray(), batch.tensor("labels").toLongArray()));
            }
        }
        stats.finish(listener);
    }

    /**
     * The reader {@link #train} uses: batches of {@code images} (64 float32) and {@code labels}
     * (one int64) from the OFRecord {@code files}, shuffled with {@code seed} and again after
     * each epoch, for {@code epochs} epochs. The caller closes it.
     */
    public static DataReader reader(List<Path> files, int epochs, long seed) {
        return OFRecordReader.builder().files(files)
                .batchSize(BATCH_SIZE).randomShuffle(true).shuffleBufferSize(1024).seed(seed)
                .epochs(epochs).shuffleAfterEpoch(true)
                .decoder(OFRecordRawDecoder.of("images", Shape.of(PIXELS), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT64))
                .build();
    }

    /**
     * The part of a test set a model classifies right.
     *
     * @param right   the images classified right
     * @param samples the images
     */
    public record Accuracy(long right, long samples) {
        /** {@code right / samples}. */
        public double fraction() {
            return (double) right / samples;
        }
    }

    /** The accuracy of {@code model} on the images of {@code test}, read once, in order. */
    public static Accuracy testAccuracy(Model model, Path test) {
        long right = 0;
        long samples = 0;
        try (DataReader reader = OFRecordReader.builder().files(List.of(test)).batchSize(BATCH_SIZE)
                .decoder(OFRecordRawDecoder.of("images", Shape.of(PIXELS), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT64))
                .build()) {
            for (Batch batch : reader) {
                float[] images = batch.tensor("images").toFloatArray();
                long[] labels = batch.tensor("labels").toLongArray();
                for (int i = 0; i < labels.length; i++) {
                    right += model.predict(images, i) == labels[i] ? 1 : 0;
                }
                samples += labels.length;
            }
        }
        return new Accuracy(right, samples);
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
     * {@code softmax(W·x + b)} over the {@value Digits#PIXELS} pixels of a digit and its
     * {@value Digits#CLASSES} classes, starting from zero weights and trained by plain SGD.
     * Not thread-safe.
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
         * {@code labels.length} rows of {@value Digits#PIXELS} pixels.
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

        void finish(EpochListener listener) {
            listener.epochDone(new Epoch(epoch, loss / samples, (double) right / samples));
        }
    }
}
