package org.dataloader4j.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Two settings of one system property taken in turns, pass by pass, in one JVM
 * ({@code Compare --alternate name=a,b}): arm A sets the property to {@code a}, arm B to {@code b}.
 * Passes go in pairs, A then B in even pairs and B then A in odd ones, so that a host whose speed
 * drifts within a run, or passes that keep getting faster, favour neither arm. Pairs of passes a
 * fraction of a second apart see the same host, where alternated runs of whole JVMs
 * ({@code run-ab.sh}) are minutes apart.
 *
 * <p>Only code that reads the property anew for each pass can differ between the arms: a reader
 * is built per pass (unless {@code --reuse true}), and a value read once, when a class is loaded,
 * stays as the first pass found it.
 *
 * @param property the system property
 * @param a        its value in arm A
 * @param b        its value in arm B
 */
public record Alternation(String property, String a, String b) {
    /** Checks the values. */
    public Alternation {
        if (property.isBlank()) {
            throw new IllegalArgumentException("--alternate needs a property name: name=a,b");
        }
    }

    /**
     * Parses {@code name=a,b}.
     *
     * @throws IllegalArgumentException if it is not of that form
     */
    public static Alternation parse(String value) {
        int eq = value.indexOf('=');
        int comma = value.indexOf(',', eq + 1);
        if (eq < 1 || comma < 0 || value.indexOf(',', comma + 1) >= 0) {
            throw new IllegalArgumentException("--alternate must be name=a,b: " + value);
        }
        return new Alternation(value.substring(0, eq), value.substring(eq + 1, comma), value.substring(comma + 1));
    }

    /** The option's value, as {@link #parse} reads it. */
    String option() {
        return property + "=" + a + "," + b;
    }

    /** Whether pass {@code i} (counted from 0) is arm B's: the second of an even pair, the first of an odd one. */
    static boolean isB(int i) {
        return (i & 1) != (i >> 1 & 1);
    }

    /** Sets the property for pass {@code i}. */
    void set(int i) {
        System.setProperty(property, isB(i) ? b : a);
    }

    /**
     * The report of {@code system} over {@code dataset} at {@code threads} from the timed passes'
     * times, in the order they ran, their first pass numbered {@code first} among all passes:
     * each arm's median pass, in how many pairs B's pass was the faster, and the median and
     * quartiles of B's time over A's within a pair (below 1: B faster).
     *
     * <pre>
     * ALTERNATE &lt;system&gt; &lt;dataset&gt; threads=&lt;t&gt; property=&lt;name&gt; a=&lt;a&gt; b=&lt;b&gt;
     *     pairs=&lt;n&gt; a_median_s=&lt;s&gt; b_median_s=&lt;s&gt; b_faster=&lt;k&gt;/&lt;n&gt; b_over_a=&lt;r&gt;
     *     b_over_a_quartiles=&lt;q1&gt;,&lt;q3&gt;
     * </pre>
     * (one line). A timed pass whose pair began among the warm-up passes is left out.
     */
    String report(String system, String dataset, int threads, int first, double[] seconds) {
        List<Double> aTimes = new ArrayList<>();
        List<Double> bTimes = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        int faster = 0;
        for (int k = (first + 1) / 2 * 2; k + 1 < first + seconds.length; k += 2) {
            double x = seconds[k - first];
            double y = seconds[k + 1 - first];
            double aSeconds = isB(k) ? y : x;
            double bSeconds = isB(k) ? x : y;
            aTimes.add(aSeconds);
            bTimes.add(bSeconds);
            ratios.add(bSeconds / aSeconds);
            faster += bSeconds < aSeconds ? 1 : 0;
        }
        if (ratios.isEmpty()) {
            return String.format(Locale.ROOT, "ALTERNATE %s %s threads=%d property=%s a=%s b=%s pairs=0", system, dataset,
                    threads, property, a, b);
        }
        double[] r = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return String.format(Locale.ROOT, "ALTERNATE %s %s threads=%d property=%s a=%s b=%s pairs=%d a_median_s=%.4f"
                        + " b_median_s=%.4f b_faster=%d/%d b_over_a=%.3f b_over_a_quartiles=%.3f,%.3f",
                system, dataset, threads, property, a, b, r.length, median(aTimes), median(bTimes), faster, r.length,
                Compare.median(r), quantile(r, 0.25), quantile(r, 0.75));
    }

    private static double median(List<Double> values) {
        return Compare.median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** The {@code q} quantile of {@code sorted}, which is in ascending order, interpolated between the two nearest values. */
    static double quantile(double[] sorted, double q) {
        double at = q * (sorted.length - 1);
        int low = (int) Math.floor(at);
        int high = Math.min(low + 1, sorted.length - 1);
        return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
    }
}
