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
import org.dataloader4j.samples.LinearRegression;
import org.dataloader4j.samples.SoftmaxRegression;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code loader demo}: trains the softmax-regression sample on an MNIST-like OFRecord dataset
 * kept in a cache folder, behind a progress bar, then prints the test accuracy, the loader's
 * throughput and how long the training loop waited for input. {@code --mini} runs the
 * linear-regression sample instead.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Train a softmax classifier on an MNIST-like OFRecord dataset (" + DemoData.RECORDS
                + " records of 784 float32 pixels and an int64 label, in " + DemoData.PARTS + " part files; the last held out "
                + "for testing), written once into a cache folder and reused. Prints a line per epoch, then the test "
                + "accuracy, the loader's throughput and how long the training loop waited for input.",
            "The cache is --cache DIR, else $XDG_CACHE_HOME/dataloader4j/demo, else ~/.cache/dataloader4j/demo.",
            "--mini fits a line y = w*x + b to a generated mini (CSV) dataset instead and prints 'fitted w=... b=...'."},
        footer = {"%nExamples:%n  loader demo%n  loader demo --epochs 2 --cache /tmp/demo%n  loader demo --mini", ExitCodes.HELP})
final class DemoCommand implements Callable<Integer> {
    @ParentCommand
    private Loader loader;

    @Option(names = "--mini", description = "run the linear-regression sample on the mini format instead")
    private boolean mini;

    @Option(names = "--cache", paramLabel = "DIR", description = "where to keep the demo's data")
    private Path cache;

    @Option(names = "--epochs", paramLabel = "E", description = "passes over the training data (default: 5; --mini: 20)")
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
        int passes = epochs == null ? 5 : epochs;
        boolean[] written = {false};
        long writeStart = System.nanoTime();
        Path dir;
        try (Progress progress = loader.terminal().progress("writing the demo dataset", 0)) {
            progress.update(0, cacheDir.toString());
            dir = DemoData.ensure(cacheDir, written);
        }
        out.println((written[0] ? "wrote the demo dataset in " + Units.seconds(System.nanoTime() - writeStart) + ": "
                : "using the cached demo dataset: ") + dir);
        List<Path> train = DemoData.trainFiles(dir);
        long perEpoch = (long) DemoData.RECORDS * (DemoData.PARTS - 1) / DemoData.PARTS;
        SoftmaxRegression.Model model = new SoftmaxRegression.Model();
        Training t = new Training();
        try (DataReader reader = SoftmaxRegression.reader(train, passes, DemoData.SEED);
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
        double accuracy = testAccuracy(model, DemoData.testFile(dir));
        out.printf(Locale.ROOT, "test accuracy %.4f on %d held-out records%n", accuracy, DemoData.RECORDS / DemoData.PARTS);
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

    private static double testAccuracy(SoftmaxRegression.Model model, Path test) {
        long right = 0;
        long samples = 0;
        try (DataReader reader = SoftmaxRegression.reader(List.of(test), 1, DemoData.SEED)) {
            for (Batch batch : reader) {
                float[] images = batch.tensor("images").toFloatArray();
                long[] labels = batch.tensor("labels").toLongArray();
                for (int i = 0; i < labels.length; i++) {
                    right += model.predict(images, i) == labels[i] ? 1 : 0;
                }
                samples += labels.length;
            }
        }
        return (double) right / samples;
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
