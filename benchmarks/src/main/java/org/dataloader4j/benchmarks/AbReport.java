package org.dataloader4j.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The report of alternated {@link Compare} runs of two arms, A and B ({@code benchmarks/run-ab.sh}):
 * run {@code i} of A ({@code a-i.txt}) and run {@code i} of B ({@code b-i.txt}) make pair
 * {@code i}. For each system, dataset and thread count it gives each arm's median records/s and
 * in how many pairs B's was higher; the same for dataloader4j's time in the parser a pass
 * ({@code STAGES parse_ms}); and, within each run, dataloader4j's records/s over every other
 * system's on the same dataset and thread count, each arm's median and range over its runs. A
 * ratio within a run is the figure to read where the host's speed drifts.
 *
 * <pre>
 *   java -cp "$BENCH_CP" org.dataloader4j.benchmarks.AbReport DIR [A-LABEL B-LABEL]
 * </pre>
 */
public final class AbReport {
    private static final Pattern RESULT = Pattern.compile(
            "^RESULT (\\S+) (\\S+) records_per_s=(\\d+) .* threads=(\\d+)$");
    private static final Pattern STAGES = Pattern.compile("^STAGES (\\S+) (\\S+) threads=(\\d+) .*parse_ms=([\\d.]+) ");

    /** A system, a dataset and a thread count: one figure of a run. */
    record Key(String system, String dataset, int threads) {
        static final Comparator<Key> ORDER = Comparator.comparing(Key::dataset).thenComparingInt(Key::threads)
                .thenComparing(Key::system);

        @Override
        public String toString() {
            return system + " " + dataset + " threads=" + threads;
        }
    }

    /** One run's figures: records/s, and dataloader4j's parse time a pass, by key. */
    record Run(Map<Key, Double> recordsPerSecond, Map<Key, Double> parseMs) {
        /** The figures of a run's output; lines of other kinds, and failed or unavailable systems, are left out. */
        static Run of(List<String> lines) {
            Map<Key, Double> rates = new TreeMap<>(Key.ORDER);
            Map<Key, Double> parse = new TreeMap<>(Key.ORDER);
            for (String line : lines) {
                Matcher m = RESULT.matcher(line);
                if (m.find()) {
                    rates.put(new Key(m.group(1), m.group(2), Integer.parseInt(m.group(4))), Double.parseDouble(m.group(3)));
                }
                m = STAGES.matcher(line);
                if (m.find()) {
                    parse.put(new Key(m.group(1), m.group(2), Integer.parseInt(m.group(3))), Double.parseDouble(m.group(4)));
                }
            }
            return new Run(rates, parse);
        }
    }

    private AbReport() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1 && args.length != 3) {
            System.err.println("usage: AbReport <dir with a-1.txt, b-1.txt, ...> [A-label B-label]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        List<Run> a = runs(dir, "a");
        List<Run> b = runs(dir, "b");
        if (a.isEmpty() || b.isEmpty()) {
            System.err.println("AbReport: no pair of runs in " + dir + " (a-1.txt and b-1.txt)");
            System.exit(1);
        }
        for (String line : report(a, b, args.length == 3 ? args[1] : "a", args.length == 3 ? args[2] : "b")) {
            System.out.println(line);
        }
    }

    /** Runs {@code arm-1.txt}, {@code arm-2.txt}, … of {@code dir}, up to the first missing one. */
    static List<Run> runs(Path dir, String arm) throws IOException {
        List<Run> runs = new ArrayList<>();
        for (int i = 1; Files.exists(dir.resolve(arm + "-" + i + ".txt")); i++) {
            runs.add(Run.of(Files.readAllLines(dir.resolve(arm + "-" + i + ".txt"), StandardCharsets.UTF_8)));
        }
        return runs;
    }

    /** The report's lines, over the pairs both arms completed. */
    static List<String> report(List<Run> a, List<Run> b, String aLabel, String bLabel) {
        int pairs = Math.min(a.size(), b.size());
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "AB pairs=%d a=\"%s\" b=\"%s\"", pairs, aLabel, bLabel));
        compare(out, "records_per_s", a, b, pairs, Run::recordsPerSecond);
        compare(out, "parse_ms", a, b, pairs, Run::parseMs);
        TreeSet<Key> keys = new TreeSet<>(Key.ORDER);
        a.subList(0, pairs).forEach(r -> keys.addAll(r.recordsPerSecond().keySet()));
        for (Key d4j : keys) {
            if (!d4j.system().equals(Dataloader4jSystem.NAME)) {
                continue;
            }
            for (Key other : keys) {
                if (other.system().equals(d4j.system()) || !other.dataset().equals(d4j.dataset())
                        || other.threads() != d4j.threads()) {
                    continue;
                }
                List<Double> ra = ratios(a.subList(0, pairs), d4j, other);
                List<Double> rb = ratios(b.subList(0, pairs), d4j, other);
                if (!ra.isEmpty() && !rb.isEmpty()) {
                    out.add(String.format(Locale.ROOT, "AB ratio %s/%s %s threads=%d a=%.2f (%.2f-%.2f) b=%.2f (%.2f-%.2f) runs=%d,%d",
                            d4j.system(), other.system(), d4j.dataset(), d4j.threads(), median(ra), min(ra), max(ra),
                            median(rb), min(rb), max(rb), ra.size(), rb.size()));
                }
            }
        }
        return out;
    }

    private static void compare(List<String> out, String figure, List<Run> a, List<Run> b, int pairs,
                                Function<Run, Map<Key, Double>> of) {
        TreeSet<Key> keys = new TreeSet<>(Key.ORDER);
        for (int i = 0; i < pairs; i++) {
            keys.addAll(of.apply(a.get(i)).keySet());
            keys.addAll(of.apply(b.get(i)).keySet());
        }
        for (Key key : keys) {
            List<Double> va = new ArrayList<>();
            List<Double> vb = new ArrayList<>();
            int higher = 0;
            for (int i = 0; i < pairs; i++) {
                Double x = of.apply(a.get(i)).get(key);
                Double y = of.apply(b.get(i)).get(key);
                if (x != null && y != null) {
                    va.add(x);
                    vb.add(y);
                    higher += y > x ? 1 : 0;
                }
            }
            if (va.isEmpty()) {
                out.add("AB " + figure + " " + key + " in no pair of runs both");
                continue;
            }
            out.add(String.format(Locale.ROOT, "AB %s %s a=%s b=%s b_higher=%d/%d", figure, key, number(median(va)),
                    number(median(vb)), higher, va.size()));
        }
    }

    private static List<Double> ratios(List<Run> runs, Key d4j, Key other) {
        List<Double> ratios = new ArrayList<>();
        for (Run r : runs) {
            Double x = r.recordsPerSecond().get(d4j);
            Double y = r.recordsPerSecond().get(other);
            if (x != null && y != null && y > 0) {
                ratios.add(x / y);
            }
        }
        return ratios;
    }

    private static double median(List<Double> values) {
        return Compare.median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    /** Whole numbers as such, others with one decimal. */
    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v)
                : String.format(Locale.ROOT, "%.1f", v);
    }
}
