package org.dataloader4j.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.dataloader4j.api.Batch;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.mini.MiniReader;

/**
 * Fits a line {@code y = w·x + b} by stochastic gradient descent on shuffled batches of a mini
 * dataset: the first example to read.
 *
 * <p>{@link #main} writes two part files of {@code "x,y"} lines with {@code y = 2x + noise},
 * trains on them for {@value #EPOCHS} epochs, prints the mean squared error of each epoch and
 * then the fitted line, close to {@code w=2 b=0}:
 *
 * <pre>
 * java -cp ... org.dataloader4j.samples.LinearRegression [dataDir]
 * </pre>
 *
 * Without {@code dataDir} the data goes to a temporary folder that is deleted at the end.
 */
public final class LinearRegression {
    /** The number of part files. */
    static final int PARTS = 2;
    /** The lines in each part file. */
    static final int LINES_PER_PART = 500;
    /** Passes over the data in {@link #main}. */
    static final int EPOCHS = 20;
    private static final int SUFFIX_LENGTH = 3;
    private static final int BATCH_SIZE = 32;
    private static final double LEARNING_RATE = 0.1;
    private static final long SEED = 42;

    private LinearRegression() {
    }

    /**
     * The result of {@link #train}.
     *
     * @param w      the fitted slope
     * @param b      the fitted intercept
     * @param losses the mean squared error of each epoch, averaged over its batches
     */
    public record Fit(double w, double b, List<Double> losses) {
        /** Copies the losses. */
        public Fit {
            losses = List.copyOf(losses);
        }
    }

    /**
     * Writes the data, trains and prints one {@code epoch N loss=L} line per epoch and a last
     * {@code fitted w=W b=B} line.
     *
     * @param args an optional folder for the data, kept afterwards
     * @throws IOException if the data cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path dir = args.length > 0 ? Files.createDirectories(Path.of(args[0])) : Files.createTempDirectory("linear-regression");
        try {
            writeData(dir, SEED);
            Fit fit = train(dir, EPOCHS, SEED, (epoch, loss) -> System.out.printf(Locale.ROOT, "epoch %d loss=%.4f%n", epoch, loss));
            System.out.printf(Locale.ROOT, "fitted w=%.4f b=%.4f%n", fit.w(), fit.b());
        } finally {
            if (args.length == 0) {
                for (int part = 0; part < PARTS; part++) {
                    Files.deleteIfExists(dir.resolve(partName(part)));
                }
                Files.delete(dir);
            }
        }
    }

    /**
     * Writes {@code part-000} and {@code part-001} to {@code dir}, each {@value #LINES_PER_PART}
     * lines {@code "x,y"} with {@code x} uniform in [-1, 1) and {@code y = 2x} plus Gaussian
     * noise of standard deviation 0.05, drawn from {@code seed}.
     *
     * @throws IOException if a file cannot be written
     */
    public static void writeData(Path dir, long seed) throws IOException {
        Random random = new Random(seed);
        for (int part = 0; part < PARTS; part++) {
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < LINES_PER_PART; i++) {
                double x = 2 * random.nextDouble() - 1;
                double y = 2 * x + 0.05 * random.nextGaussian();
                lines.append(String.format(Locale.ROOT, "%.6f,%.6f\n", x, y));
            }
            Files.writeString(dir.resolve(partName(part)), lines);
        }
    }

    /** Told the mean loss of each epoch as soon as the epoch is done. */
    @FunctionalInterface
    public interface EpochListener {
        /** Epoch {@code epoch} (from 0) ended with mean squared error {@code loss}. */
        void epochDone(long epoch, double loss);
    }

    /**
     * Fits {@code y = w·x + b} to the part files in {@code dataDir} by plain SGD on the mean
     * squared error, one step per shuffled batch, for {@code epochs} epochs; {@code seed} fixes
     * the shuffle, and {@code listener} hears each epoch's loss.
     */
    public static Fit train(Path dataDir, int epochs, long seed, EpochListener listener) {
        double w = 0;
        double b = 0;
        List<Double> losses = new ArrayList<>();
        long epoch = 0;
        double lossSum = 0;
        int batches = 0;
        try (DataReader reader = MiniReader.builder()
                .dataDir(dataDir).dataPartNum(PARTS).partNameSuffixLength(SUFFIX_LENGTH)
                .batchSize(BATCH_SIZE)
                .randomShuffle(true).shuffleBufferSize(256).shuffleAfterEpoch(true)
                .seed(seed).epochs(epochs)
                .build()) {
            for (Batch batch : reader) {
                if (batch.epoch() != epoch) {
                    losses.add(lossSum / batches);
                    listener.epochDone(epoch, lossSum / batches);
                    epoch = batch.epoch();
                    lossSum = 0;
                    batches = 0;
                }
                // x and y are FLOAT64 tensors of shape (batch.size(), 1), valid until the next batch.
                double[] x = batch.tensor("x").toDoubleArray();
                double[] y = batch.tensor("y").toDoubleArray();
                double loss = 0;
                double dw = 0;
                double db = 0;
                for (int i = 0; i < x.length; i++) {
                    double error = w * x[i] + b - y[i];
                    loss += error * error;
                    dw += 2 * error * x[i];
                    db += 2 * error;
                }
                w -= LEARNING_RATE * dw / x.length;
                b -= LEARNING_RATE * db / x.length;
                lossSum += loss / x.length;
                batches++;
            }
        }
        losses.add(lossSum / batches);
        listener.epochDone(epoch, lossSum / batches);
        return new Fit(w, b, losses);
    }

    /** OneFlow's name of part {@code part}: {@code part-} and the index zero-padded to {@value #SUFFIX_LENGTH} digits. */
    private static String partName(int part) {
        return String.format(Locale.ROOT, "part-%0" + SUFFIX_LENGTH + "d", part);
    }
}
