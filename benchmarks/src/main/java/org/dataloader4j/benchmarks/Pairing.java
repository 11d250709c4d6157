package org.dataloader4j.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Several systems over one dataset in one JVM, pass by pass in turns ({@code Compare --paired
 * true}): each round runs one pass of every system, the first system of round {@code r} being
 * system {@code r mod n}, so that none always runs first after another's garbage or its cold
 * caches. Passes of one round are a second or so apart, so they see the same host; the ratio of
 * two systems within each round is the figure the host's phases disturb least. On a cloud VM the
 * speed of the same code can change by half for seconds at a time, so two systems measured
 * minutes apart, in JVMs of their own, can each land in a different phase.
 *
 * <p>The first system named is the one the others are set against: {@link #report} gives how
 * many times its records per second the others made, round by round.
 */
final class Pairing {
    private Pairing() {
    }

    /** One pass of system {@code system} (its index among the systems). */
    @FunctionalInterface
    interface PassOf {
        /** Runs it. */
        void run(int system) throws Exception;
    }

    /**
     * Runs rounds {@code from} to {@code to} (exclusive) of {@code systems} systems: in round
     * {@code r}, one pass of each, from system {@code r mod systems} on.
     */
    static void rounds(int from, int to, int systems, PassOf pass) throws Exception {
        for (int round = from; round < to; round++) {
            for (int k = 0; k < systems; k++) {
                pass.run((round + k) % systems);
            }
        }
    }

    /**
     * One line per system after the first, comparing the first system named with it
     * round by round, from each round's seconds per record of each system
     * ({@code secondsPerRecord[system][round]}):
     *
     * <pre>
     * PAIRED &lt;dataset&gt; threads=&lt;t&gt; a=&lt;first&gt; b=&lt;other&gt; rounds=&lt;n&gt; a_over_b=&lt;r&gt;
     *     a_over_b_quartiles=&lt;q1&gt;,&lt;q3&gt; a_faster=&lt;k&gt;/&lt;n&gt;
     * </pre>
     * (one line), where {@code a_over_b} is the median over the rounds of a's records per second
     * over b's in that round, with its quartiles, and {@code a_faster} the rounds in which a was
     * the faster.
     */
    static List<String> report(String dataset, int threads, List<String> names, double[][] secondsPerRecord) {
        List<String> lines = new ArrayList<>();
        if (names.size() < 2) {
            return lines;
        }
        double[] a = secondsPerRecord[0];
        for (int s = 1; s < names.size(); s++) {
            double[] b = secondsPerRecord[s];
            double[] ratios = new double[a.length];
            int faster = 0;
            for (int r = 0; r < a.length; r++) {
                ratios[r] = b[r] / a[r];
                faster += a[r] < b[r] ? 1 : 0;
            }
            Arrays.sort(ratios);
            lines.add(String.format(Locale.ROOT, "PAIRED %s threads=%d a=%s b=%s rounds=%d a_over_b=%.3f"
                            + " a_over_b_quartiles=%.3f,%.3f a_faster=%d/%d", dataset, threads, names.get(0), names.get(s),
                    ratios.length, Compare.median(ratios), quantile(ratios, 0.25), quantile(ratios, 0.75), faster,
                    ratios.length));
        }
        return lines;
    }

    /** The {@code q} quantile of {@code sorted}, which is in ascending order, interpolated between the two nearest values. */
    private static double quantile(double[] sorted, double q) {
        double at = q * (sorted.length - 1);
        int low = (int) Math.floor(at);
        int high = Math.min(low + 1, sorted.length - 1);
        return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
    }
}
