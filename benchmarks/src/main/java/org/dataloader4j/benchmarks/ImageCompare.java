package org.dataloader4j.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dataloader4j.image.ImageCodecs;

/**
 * Runs dataloader4j (with its native codec and with ImageIO) and TensorFlow Java over the same
 * ImageNet-like JPEGs ({@link ImageFiles}), each system in a JVM of its own (unless
 * {@code --fork false}), and prints one line per system, path and thread count:
 *
 * <pre>
 * RESULT &lt;system&gt; &lt;path&gt; images_per_s=&lt;n&gt; mb_per_s=&lt;n&gt; seconds=&lt;n&gt; images=&lt;n&gt; threads=&lt;t&gt;
 * </pre>
 *
 * where MB is 10^6 bytes of JPEG and the figures are the median of the timed passes, after the
 * warm-up passes, with the files in the page cache. A {@code DETAIL} line follows with the time
 * to the first batch, the collector's pauses during the timed passes and every pass's time. A
 * system that cannot run here prints {@code RESULT <system> <path> unavailable …} with the
 * reason; one that fails, {@code failed}, and the exit code is 1. The PyTorch peer runs outside
 * the JVM ({@code peers/pytorch_images.py}, which {@code run-images.sh} runs after this) and
 * prints the same lines.
 *
 * <p>Usage (see {@link ImageCompareOptions} for every option and its default):
 * <pre>
 * java -Xms2g -Xmx2g -XX:+AlwaysPreTouch --enable-native-access=ALL-UNNAMED -cp … \
 *     org.dataloader4j.benchmarks.ImageCompare --data /tmp/images --images 2000 --threads 1,2 --warmup 1 --passes 3
 * </pre>
 */
public final class ImageCompare {
    private ImageCompare() {
    }

    /** Runs {@link #run} with {@code args}; exits with 1 if a system failed, 2 for bad arguments. */
    public static void main(String[] args) throws Exception {
        ImageCompareOptions options;
        try {
            options = ImageCompareOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("image-compare: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (!run(options, System.out)) {
            System.exit(1);
        }
    }

    /** Writes the pictures unless they are there, and runs every chosen system; returns false if one failed. */
    public static boolean run(ImageCompareOptions options, PrintStream out) throws Exception {
        out.printf(Locale.ROOT, "# java %s (%s), %d processors, heap max %d MB; native codec %s%n", Runtime.version(),
                System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() / 1_000_000,
                ImageCodecs.nativeCodec().isPresent() ? "loaded" : "unavailable (" + ImageCodecs.nativeUnavailableReason() + ")");
        out.printf(Locale.ROOT, "# images=%d parts=%d seed=%d threads=%s warmup=%d passes=%d batch=%d shuffle_buffer=%d paths=%s%n",
                options.images(), options.parts(), options.seed(), options.threads(), options.warmup(), options.passes(),
                options.batchSize(), options.shuffleBuffer(), options.paths().stream().map(ImagePath::id).toList());
        long start = System.nanoTime();
        ImageFiles data = ImageFiles.ensure(options.data(), options.images(), options.parts(), options.seed(), () -> {
            if (options.sources() == null) {
                throw new IllegalArgumentException("the pictures are made from " + SourcePictures.RELATIVE
                        + ", which is not at or above the working directory: name it with --sources");
            }
            try {
                return SourcePictures.read(options.sources());
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the photographs in --sources " + options.sources() + ": " + e, e);
            }
        });
        ImageFiles.JpegSizes sizes = data.sizes();
        out.printf(Locale.ROOT, "DATA images=%d jpeg_mb=%.1f jpeg_kb_mean=%.1f jpeg_kb_min=%.1f jpeg_kb_p10=%.1f"
                        + " jpeg_kb_median=%.1f jpeg_kb_p90=%.1f jpeg_kb_max=%.1f quality=%.3f-%.3f ready_s=%.1f dir=%s%n",
                data.images(), sizes.totalBytes() / 1e6, sizes.mean(data.images()) / 1e3, sizes.min() / 1e3, sizes.p10() / 1e3,
                sizes.median() / 1e3, sizes.p90() / 1e3, sizes.max() / 1e3, sizes.minQuality(), sizes.maxQuality(),
                (System.nanoTime() - start) / 1e9, data.root());
        out.flush();
        boolean ok = true;
        if (options.fork()) {
            for (String system : options.systems()) {
                ok &= runForked(system, options, out);
            }
            return ok;
        }
        data.readOnce();
        ComparedSystem.Settings settings = new ComparedSystem.Settings(options.batchSize(), options.shuffleBuffer(),
                options.seed(), false);
        for (String name : options.systems()) {
            ImageSystem system = system(name);
            for (ImagePath path : options.paths()) {
                for (int threads : options.threads()) {
                    ok &= runOne(system, data, path, threads, settings, options, out);
                }
            }
        }
        return ok;
    }

    private static ImageSystem system(String name) {
        return switch (name) {
            case Dataloader4jImageSystem.NATIVE -> new Dataloader4jImageSystem(true);
            case Dataloader4jImageSystem.IMAGEIO -> new Dataloader4jImageSystem(false);
            case TensorFlowImageSystem.NAME -> new TensorFlowImageSystem();
            default -> throw new IllegalArgumentException("no system " + name);
        };
    }

    /**
     * Runs {@code system} over every path and thread count in a new JVM with this one's options
     * and class path, and copies its {@code RESULT} and {@code DETAIL} lines to {@code out}, then
     * a line {@code FORK <system> pid=<n> exit=<n>}; its standard error is this one's. Returns
     * false if it failed.
     */
    private static boolean runForked(String system, ImageCompareOptions options, PrintStream out)
            throws IOException, InterruptedException {
        Forks.Outcome child = Forks.run(ImageCompare.class, options.forOne(system), List.of("RESULT ", "DETAIL "), out);
        out.printf(Locale.ROOT, "FORK %s pid=%d exit=%d%n", system, child.pid(), child.exit());
        out.flush();
        if (child.exit() != 0 && !child.reported()) {
            out.printf(Locale.ROOT, "RESULT %s all failed reason=\"its JVM exited with %d\"%n", system, child.exit());
        }
        return child.exit() == 0;
    }

    private static boolean runOne(ImageSystem system, ImageFiles data, ImagePath path, int threads,
                                  ComparedSystem.Settings settings, ImageCompareOptions options, PrintStream out) {
        List<Pass> passes = new ArrayList<>();
        GcPauses gc;
        try (ComparedSystem.Run run = system.open(data, path, threads, settings)) {
            for (int i = 0; i < options.warmup(); i++) {
                check(run.pass(), data);
            }
            System.gc();
            gc = new GcPauses();
            try (gc) {
                for (int i = 0; i < options.passes(); i++) {
                    passes.add(check(run.pass(), data));
                }
            }
        } catch (ComparedSystem.Unavailable e) {
            out.printf(Locale.ROOT, "RESULT %s %s unavailable threads=%d reason=\"%s\"%n", system.name(), path.id(), threads,
                    e.getMessage());
            out.flush();
            return true;
        } catch (Exception | Error e) {
            out.printf(Locale.ROOT, "RESULT %s %s failed threads=%d reason=\"%s\"%n", system.name(), path.id(), threads, e);
            out.flush();
            return false;
        }
        double seconds = Compare.median(passes.stream().mapToLong(Pass::nanos).toArray()) / 1e9;
        out.printf(Locale.ROOT, "RESULT %s %s images_per_s=%.1f mb_per_s=%.1f seconds=%.3f images=%d threads=%d%n",
                system.name(), path.id(), data.images() / seconds, data.sizes().totalBytes() / 1e6 / seconds, seconds,
                data.images(), threads);
        long[] first = passes.stream().mapToLong(Pass::firstBatchNanos).filter(n -> n >= 0).toArray();
        out.printf(Locale.ROOT, "DETAIL %s %s threads=%d first_batch_ms=%s gc_pauses=%d gc_pause_ms=%d gc_max_pause_ms=%d"
                        + " pass_seconds=%s%n",
                system.name(), path.id(), threads,
                first.length == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", Compare.median(first) / 1e6),
                gc.count(), gc.totalMillis(), gc.maxMillis(),
                String.join(",", passes.stream().map(p -> String.format(Locale.ROOT, "%.3f", p.nanos() / 1e9)).toList()));
        out.flush();
        return true;
    }

    /** A pass delivers every picture once. */
    private static Pass check(Pass pass, ImageFiles data) {
        if (pass.records() != data.images()) {
            throw new IllegalStateException("a pass delivered " + pass.records() + " images of " + data.images());
        }
        return pass;
    }
}
