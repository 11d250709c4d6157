package org.dataloader4j.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToLongFunction;
import org.dataloader4j.core.decode.DecodeMode;
import org.dataloader4j.core.decode.ValueCopier;

/**
 * Runs dataloader4j and its peers back to back over the same generated datasets, each system
 * and dataset in a JVM of its own (unless {@code --fork false}), and prints one line per system,
 * dataset and thread count:
 *
 * <pre>
 * RESULT &lt;system&gt; &lt;dataset&gt; records_per_s=&lt;n&gt; mb_per_s=&lt;n&gt; seconds=&lt;n&gt; records=&lt;n&gt; threads=&lt;t&gt;
 * </pre>
 *
 * where MB is 10^6 bytes of record payload and the figures are the median of the timed passes,
 * after the warm-up passes, with the files in the page cache. A {@code DETAIL} line follows with
 * the time to the first batch, the steady-state heap allocation per record of the pipeline's
 * threads, the collector's pauses during the timed passes and every pass's time. For
 * dataloader4j with a reader built per pass, a {@code STAGES} line then splits a pass (medians):
 * the reader's build and close, and its counters of the parse workers and the load thread. With
 * {@code --paired true}, {@code PAIRED} lines set the first system against each other, round by
 * round ({@link Pairing}). A system that cannot run here prints
 * {@code RESULT <system> <dataset> unavailable …} with the reason.
 *
 * <p>Over 250 lines: the three ways a dataset is run (in a forked JVM, system after system, or
 * paired round by round) are kept in one class so that they share one report and one check of a
 * pass.
 *
 * <p>Usage (see {@link CompareOptions} for every option and its default):
 * <pre>
 * java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -cp … org.dataloader4j.benchmarks.Compare \
 *     --data /tmp/compare --records 100000 --threads 1,2 --warmup 1 --passes 3 --systems all --datasets all
 * </pre>
 *
 * <p>Longer than most classes: it is the harness's command line, its forks and its report, one
 * concern a reader of the figures follows from start to end.
 */
public final class Compare {
    private Compare() {
    }

    /** Runs {@link #run} with {@code args}; exits with 1 if a system failed, 2 for bad arguments. */
    public static void main(String[] args) throws Exception {
        CompareOptions options;
        try {
            options = CompareOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("compare: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (!run(options, System.out)) {
            System.exit(1);
        }
    }

    /** Runs every chosen system over every chosen dataset; returns false if one failed (unavailable is not failed). */
    public static boolean run(CompareOptions options, PrintStream out) throws Exception {
        out.printf(Locale.ROOT, "# java %s (%s), %d processors, heap max %d MB; protobuf-java %s; dataloader4j %s, varints %s%n",
                Runtime.version(), System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() / 1_000_000, com.google.protobuf.RuntimeVersion.MAJOR + "."
                        + com.google.protobuf.RuntimeVersion.MINOR + "." + com.google.protobuf.RuntimeVersion.PATCH,
                DecodeMode.configured() == DecodeMode.FAST ? "fast paths" : "plain path",
                ValueCopier.vectorVarints() ? "simd" : "scalar");
        out.printf(Locale.ROOT, "# records=%d parts=%d seed=%d threads=%s warmup=%d passes=%d batch=%d shuffle_buffer=%d"
                        + " tf_shuffle=%s reuse=%s paired=%s%n", options.records(), options.parts(), options.seed(),
                options.threads(), options.warmup(), options.passes(), options.batchSize(), options.shuffleBuffer(),
                options.tfShuffle(), options.reuse(), options.paired());
        List<ComparedSystem> systems = systems(options);
        ComparedSystem.Settings settings = new ComparedSystem.Settings(options.batchSize(), options.shuffleBuffer(), options.seed(),
                options.reuse());
        boolean ok = true;
        for (CompareDataset dataset : options.datasets()) {
            long start = System.nanoTime();
            DataFiles data = DataFiles.ensure(options.data(), dataset, options.records(), options.parts(), options.seed());
            double ready = seconds(System.nanoTime() - start);
            out.printf(Locale.ROOT, "DATA %s files=%d records=%d payload_mb=%.1f file_mb=%.1f ready_s=%.1f dir=%s%n",
                    dataset.id(), data.files().size(), data.records(), data.payloadBytes() / 1e6, data.fileBytes() / 1e6, ready,
                    data.files().get(0).getParent());
            List<ComparedSystem> reading = systems.stream().filter(s -> s.reads(dataset)).toList();
            if (options.fork()) {
                if (options.paired() && !reading.isEmpty()) {
                    ok &= runForked(String.join(",", reading.stream().map(ComparedSystem::name).toList()), dataset, options, out);
                } else {
                    for (ComparedSystem system : reading) {
                        ok &= runForked(system.name(), dataset, options, out);
                    }
                }
                continue;
            }
            // A forked JVM reads the files itself, just before its passes; reading them here too would be twice.
            data.readOnce();
            for (int threads : options.threads()) {
                if (options.paired()) {
                    ok &= runPaired(reading, data, threads, settings, options, out);
                    continue;
                }
                for (ComparedSystem system : reading) {
                    ok &= runOne(system, data, threads, settings, options, out);
                }
            }
        }
        return ok;
    }

    /**
     * Runs {@code system} (with {@code --paired}, the systems, comma-separated) over
     * {@code dataset}, every thread count, in a new JVM with this one's options and class path, and
     * copies its {@code RESULT}, {@code DETAIL}, {@code STAGES} and {@code PAIRED} lines to
     * {@code out}, then a line {@code FORK <system> <dataset> pid=<n> exit=<n>};
     * its standard error is this one's. Returns false if it failed.
     */
    private static boolean runForked(String system, CompareDataset dataset, CompareOptions options, PrintStream out)
            throws IOException, InterruptedException {
        Forks.Outcome child = Forks.run(Compare.class, options.forOne(system, dataset),
                List.of("RESULT ", "DETAIL ", "STAGES ", "PAIRED "), out);
        out.printf(Locale.ROOT, "FORK %s %s pid=%d exit=%d%n", system, dataset.id(), child.pid(), child.exit());
        out.flush();
        if (child.exit() != 0 && !child.reported()) {
            out.printf(Locale.ROOT, "RESULT %s %s failed reason=\"its JVM exited with %d\"%n", system, dataset.id(), child.exit());
        }
        return child.exit() == 0;
    }

    private static List<ComparedSystem> systems(CompareOptions options) {
        List<ComparedSystem> all = List.of(new Dataloader4jSystem(), new ProtobufJavaSystem(), new MmapCopySystem(false),
                new MmapCopySystem(true), new TensorFlowJavaSystem(options.tfShuffle()));
        // In the order named: with --paired the first is the one the others are set against.
        return options.systems().stream().distinct()
                .map(name -> all.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow())
                .toList();
    }

    private static boolean runOne(ComparedSystem system, DataFiles data, int threads, ComparedSystem.Settings settings,
                                  CompareOptions options, PrintStream out) {
        String id = data.dataset().id();
        List<Pass> passes = new ArrayList<>();
        GcPauses gc;
        try (ComparedSystem.Run run = system.open(data, threads, settings)) {
            for (int i = 0; i < options.warmup(); i++) {
                check(run.pass(), data, settings);
            }
            System.gc();
            gc = new GcPauses();
            try (gc) {
                for (int i = 0; i < options.passes(); i++) {
                    passes.add(check(run.pass(), data, settings));
                }
            }
        } catch (ComparedSystem.Unavailable e) {
            out.printf(Locale.ROOT, "RESULT %s %s unavailable threads=%d reason=\"%s\"%n", system.name(), id, threads, e.getMessage());
            return true;
        } catch (Exception | Error e) {
            out.printf(Locale.ROOT, "RESULT %s %s failed threads=%d reason=\"%s\"%n", system.name(), id, threads, e);
            return false;
        }
        report(system.name(), data, threads, passes, gc, out);
        return true;
    }

    /**
     * Runs {@code systems} over {@code data} at {@code threads} in this JVM, pass by pass in turns
     * ({@link Pairing}): the warm-up rounds, then the timed ones. Prints each system's lines as
     * {@link #runOne} does, the collector's pauses being those of every system's timed passes,
     * and then the {@code PAIRED} lines. Returns false if a system failed.
     */
    private static boolean runPaired(List<ComparedSystem> systems, DataFiles data, int threads, ComparedSystem.Settings settings,
                                     CompareOptions options, PrintStream out) {
        String id = data.dataset().id();
        List<ComparedSystem> running = new ArrayList<>();
        List<ComparedSystem.Run> runs = new ArrayList<>();
        // The system whose open or pass is under way, for the report of a failure.
        String[] current = {null};
        try {
            for (ComparedSystem system : systems) {
                current[0] = system.name();
                try {
                    runs.add(system.open(data, threads, settings));
                    running.add(system);
                } catch (ComparedSystem.Unavailable e) {
                    out.printf(Locale.ROOT, "RESULT %s %s unavailable threads=%d reason=\"%s\"%n", system.name(), id, threads,
                            e.getMessage());
                }
            }
            int n = runs.size();
            List<List<Pass>> passes = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                passes.add(new ArrayList<>());
            }
            Pairing.rounds(0, options.warmup(), n, j -> {
                current[0] = running.get(j).name();
                check(runs.get(j).pass(), data, settings);
            });
            System.gc();
            GcPauses gc = new GcPauses();
            try (gc) {
                Pairing.rounds(options.warmup(), options.warmup() + options.passes(), n, j -> {
                    current[0] = running.get(j).name();
                    passes.get(j).add(check(runs.get(j).pass(), data, settings));
                });
            }
            double[][] secondsPerRecord = new double[n][];
            for (int j = 0; j < n; j++) {
                report(running.get(j).name(), data, threads, passes.get(j), gc, out);
                secondsPerRecord[j] = passes.get(j).stream().mapToDouble(p -> seconds(p.nanos()) / p.records()).toArray();
            }
            Pairing.report(id, threads, running.stream().map(ComparedSystem::name).toList(), secondsPerRecord)
                    .forEach(out::println);
            out.flush();
            return true;
        } catch (Exception | Error e) {
            out.printf(Locale.ROOT, "RESULT %s %s failed threads=%d reason=\"%s\"%n", current[0], id, threads, e);
            return false;
        } finally {
            runs.forEach(ComparedSystem.Run::close);
        }
    }

    /** Prints the {@code RESULT}, {@code DETAIL} and, where there are any, {@code STAGES} lines of {@code system}'s timed passes. */
    private static void report(String system, DataFiles data, int threads, List<Pass> passes, GcPauses gc, PrintStream out) {
        String id = data.dataset().id();
        // Per record, since a pass of a reader kept across passes ends with a whole batch.
        double seconds = seconds(median(passes.stream().mapToDouble(p -> (double) p.nanos() / p.records()).toArray())
                * data.records());
        out.printf(Locale.ROOT, "RESULT %s %s records_per_s=%.0f mb_per_s=%.1f seconds=%.3f records=%d threads=%d%n",
                system, id, data.records() / seconds, data.payloadBytes() / 1e6 / seconds, seconds, data.records(), threads);
        long[] first = passes.stream().mapToLong(Pass::firstBatchNanos).filter(n -> n >= 0).toArray();
        double[] alloc = passes.stream().mapToDouble(Pass::allocatedPerRecord).filter(a -> !Double.isNaN(a)).toArray();
        out.printf(Locale.ROOT, "DETAIL %s %s threads=%d first_batch_ms=%s alloc_bytes_per_record=%s gc_pauses=%d gc_pause_ms=%d"
                        + " gc_max_pause_ms=%d pass_seconds=%s%n",
                system, id, threads,
                first.length == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", median(first) / 1e6),
                alloc.length == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", median(alloc)),
                gc.count(), gc.totalMillis(), gc.maxMillis(),
                String.join(",", passes.stream().map(p -> String.format(Locale.ROOT, "%.3f", seconds(p.nanos()))).toList()));
        List<Stages> stages = passes.stream().map(Pass::stages).filter(Objects::nonNull).toList();
        if (!stages.isEmpty()) {
            out.printf(Locale.ROOT, "STAGES %s %s threads=%d build_ms=%s close_ms=%s parse_ms=%s load_ms=%s load_wait_ms=%s%n",
                    system, id, threads, medianMillis(stages, Stages::buildNanos), medianMillis(stages, Stages::closeNanos),
                    medianMillis(stages, Stages::parseNanos), medianMillis(stages, Stages::loadNanos),
                    medianMillis(stages, Stages::loadWaitNanos));
        }
        out.flush();
    }

    /** The median of {@code stage} over {@code stages} in milliseconds, or {@code n/a} where no pass measured it. */
    private static String medianMillis(List<Stages> stages, ToLongFunction<Stages> stage) {
        long[] nanos = stages.stream().mapToLong(stage).filter(n -> n >= 0).toArray();
        return nanos.length == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", median(nanos) / 1e6);
    }

    /** A pass delivers every record once; one that goes on reading across passes, less than a batch more. */
    private static Pass check(Pass pass, DataFiles data, ComparedSystem.Settings settings) {
        long extra = pass.records() - data.records();
        if (extra < 0 || extra >= (settings.reuse() ? settings.batchSize() : 1)) {
            throw new IllegalStateException("a pass delivered " + pass.records() + " records of " + data.records());
        }
        return pass;
    }

    private static double seconds(double nanos) {
        return nanos / 1e9;
    }

    /** The median; of an even count, the mean of the middle two. */
    static double median(long[] values) {
        return median(Arrays.stream(values).asDoubleStream().toArray());
    }

    /** The median; of an even count, the mean of the middle two. */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
