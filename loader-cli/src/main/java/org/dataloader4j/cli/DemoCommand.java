package org.dataloader4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dataloader4j.api.Batch;
import org.dataloader4j.cli.internal.DemoData;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.cli.internal.Progress;
import org.dataloader4j.cli.internal.Units;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.samples.Digits;
import org.dataloader4j.samples.LinearRegression;
import org.dataloader4j.samples.SoftmaxRegression;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code loader demo}: trains the softmax-regression sample on real handwritten digits (the
 * {@link Digits} part files, copied into a cache folder), behind a progress bar, then prints the
 * accuracy on the held-out fifth, the loader's throughput and how long the training loop waited
 * for input. {@code --mini} runs the linear-regression sample instead.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Train a softmax classifier on real handwritten digits: the UCI \"Optical Recognition of "
                + "Handwritten Digits\" test set (E. Alpaydin, C. Kaynak, CC BY 4.0), " + Digits.RECORDS + " images of 8x8 "
                + "pixels, shipped as " + Digits.PARTS + " OFRecord part files; the last, a fifth of the images, is held out "
                + "for testing. Prints a line per epoch, then the test accuracy, the loader's throughput and how long the "
                + "training loop waited for input.",
            "The part files are copied into --cache DIR, else $XDG_CACHE_HOME/dataloader4j/demo, else "
                + "~/.cache/dataloader4j/demo, under digits/.",
            "--mini fits a line y = w*x + b to a generated mini (CSV) dataset instead and prints 'fitted w=... b=...'."},
        footer = {"%nExamples:%n  loader demo%n  loader demo --epochs 2 --cache /tmp/demo%n  loader demo --mini", ExitCodes.HELP})
final class DemoCommand implements Callable<Integer> {
    @ParentCommand
    private Loader loader;

    @Option(names = "--mini", description = "run the linear-regression sample on the mini format instead")
    private boolean mini;

    @Option(names = "--cache", paramLabel = "DIR", description = "where to keep the demo's data")
    private Path cache;

    @Option(names = "--epochs", paramLabel = "E",
            description = "passes over the training data (default: " + SoftmaxRegression.EPOCHS + "; --mini: 20)")
    private Integer epochs;

    @Override
    public Integer call() throws IOException {
        if (epochs != null && epochs < 1) {
            throw new IllegalArgumentException("--epochs must be > 0: epochs=" + epochs);
        }
        Path cacheDir = DemoData.cacheDir(cache, loader.terminal().env());
        return mini ? mini(cacheDir) : softmax(cacheDir);
    }

    private int mini(Path cacheDir) throws IOException {
        PrintWriter out = loader.terminal().out();
        Path dir = Files.createDirectories(cacheDir.resolve("mini"));
        LinearRegression.writeData(dir, DemoData.SEED);
        LinearRegression.Fit fit = LinearRegression.train(dir, epochs == null ? 20 : epochs, DemoData.SEED,
                (epoch, loss) -> out.printf(Locale.ROOT, "epoch %d loss=%.4f%n", epoch, loss));
        out.printf(Locale.ROOT, "fitted w=%.4f b=%.4f%n", fit.w(), fit.b());
        return ExitCodes.OK;
    }

    private int softmax(Path cacheDir) throws IOException {
        PrintWriter out = loader.terminal().out();
        int passes = epochs == null ? SoftmaxRegression.EPOCHS : epochs;
        List<Path> files = Digits.copyTo(cacheDir.resolve("digits"));
        List<Path> train = Digits.train(files);
        out.printf("handwritten digits (UCI, CC BY 4.0): %,d images of 8x8 pixels, training on the %d parts in %s, "
                + "testing on %s%n", Digits.RECORDS, train.size(), files.getFirst().getParent(), files.getLast().getFileName());
        long perEpoch = Digits.RECORDS - Digits.TEST_RECORDS;
        SoftmaxRegression.Model model = new SoftmaxRegression.Model();
        Training t = new Training();
        try (DataReader reader = SoftmaxRegression.reader(train, passes, SoftmaxRegression.SEED);
             Progress progress = loader.terminal().progress("train", perEpoch)) {
            long start = System.nanoTime();
            long epochStart = start;
            while (true) {
                long before = System.nanoTime();
                Batch batch = reader.read();
                t.wait += System.nanoTime() - before;
                if (batch == null || batch.epoch() != t.epoch) {
                    progress.clear();
                    out.printf(Locale.ROOT, "epoch %d/%d  loss=%.4f  train accuracy=%.4f  %s%n", t.epoch + 1, passes,
                            t.loss / t.samples, (double) t.right / t.samples,
                            Units.perSecond(t.samples, System.nanoTime() - epochStart, "records"));
                    if (batch == null) {
                        break;
                    }
                    t.nextEpoch(batch.epoch());
                    epochStart = System.nanoTime();
                }
                SoftmaxRegression.Step s = model.step(batch.tensor("images").toFloatArray(), batch.tensor("labels").toLongArray());
                t.add(s);
                progress.update(t.samples, String.format(Locale.ROOT, "epoch %d/%d  %s  loss %.4f", t.epoch + 1, passes,
                        Units.perSecond(t.samples, System.nanoTime() - epochStart, "records"), t.loss / t.samples));
            }
            t.loopNanos = System.nanoTime() - start;
        }
        SoftmaxRegression.Accuracy test = SoftmaxRegression.testAccuracy(model, Digits.test(files));
        out.printf(Locale.ROOT, "test accuracy %.4f on %d held-out images%n", test.fraction(), test.samples());
        long bytes = 0;
        for (Path f : train) {
            bytes += Files.size(f);
        }
        out.printf("loader: %,d records in %s of training, %s, %s of record files%n", t.total, Units.seconds(t.loopNanos),
                Units.perSecond(t.total, t.loopNanos, "records"), Units.megabytesPerSecond(bytes * passes, t.loopNanos));
        out.printf("input wait: the training loop waited %s for batches, %s of its time%n", Units.seconds(t.wait),
                Units.percent(t.wait, t.loopNanos));
        return ExitCodes.OK;
    }

    /** The training loop's running totals. */
    private static final class Training {
        long epoch;
        double loss;
        long right;
        long samples;
        long total;
        long wait;
        long loopNanos;

        void add(SoftmaxRegression.Step s) {
            loss += s.loss();
            right += s.right();
            samples += s.samples();
            total += s.samples();
        }

        void nextEpoch(long e) {
            epoch = e;
            loss = 0;
            right = 0;
            samples = 0;
        }
    }
}
