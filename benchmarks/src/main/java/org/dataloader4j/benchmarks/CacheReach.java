package org.dataloader4j.benchmarks;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Whether a cache line one thread has just read is any nearer to another thread than memory is:
 * the question behind reading records ahead on the load thread for the parse workers.
 *
 * <p>For each buffer size, a buffer's cache lines are linked into one cycle in a random order,
 * and a thread follows it, one dependent load per line, so the time per line is the latency of
 * wherever the line was. The cycle is followed three ways:
 * <ul>
 *   <li>{@code memory}: after reading 256 MB of other memory, which evicts the buffer;</li>
 *   <li>{@code same thread}: by the thread that has just read the whole buffer;</li>
 *   <li>{@code other thread}: by a second thread, while the one that has just read the buffer
 *       spins, so that on a two-core machine the second runs on the other core.</li>
 * </ul>
 * Each line gives the median of the rounds, in nanoseconds per line.
 *
 * <pre>
 *   java -cp "$BENCH_CP" org.dataloader4j.benchmarks.CacheReach [megabytes ...] (default 1 4 16)
 * </pre>
 */
public final class CacheReach {
    /** The ints in one 64-byte cache line: a link to a line points at its first int. */
    static final int LINE_INTS = 64 / Integer.BYTES;
    private static final int EVICT_BYTES = 256 << 20;
    private static final int ROUNDS = 7;
    /** Written, never read: gives the loads a use, so the compiler keeps them. */
    private static volatile long sink;

    /** One buffer size's medians, in nanoseconds per line. */
    record Reach(int megabytes, double memory, double sameThread, double otherThread) {
    }

    private CacheReach() {
    }

    public static void main(String[] args) throws InterruptedException {
        int[] sizes = args.length == 0 ? new int[] {1, 4, 16} : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        int[] evict = new int[EVICT_BYTES / Integer.BYTES];
        for (int mb : sizes) {
            print(measure(mb, evict, ROUNDS), System.out);
        }
    }

    /** The medians of {@code rounds} rounds over a buffer of {@code megabytes}, evicting with {@code evict}. */
    static Reach measure(int megabytes, int[] evict, int rounds) throws InterruptedException {
        int[] cycle = cycle(megabytes * (1 << 20) / 64, new SplittableRandom(megabytes));
        double[] memory = new double[rounds];
        double[] same = new double[rounds];
        double[] other = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            readAll(evict);
            memory[r] = follow(cycle);
            readAll(cycle);
            same[r] = follow(cycle);
            readAll(evict);
            readAll(cycle);
            other[r] = followOnAnotherThread(cycle);
        }
        return new Reach(megabytes, median(memory), median(same), median(other));
    }

    /** {@code lines} cache lines, each holding the index of the next line's first int, in one random cycle. */
    static int[] cycle(int lines, SplittableRandom random) {
        int[] order = new int[lines];
        for (int i = 0; i < lines; i++) {
            order[i] = i;
        }
        for (int i = lines - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] cycle = new int[lines * LINE_INTS];
        for (int i = 0; i < lines; i++) {
            cycle[order[i] * LINE_INTS] = order[(i + 1) % lines] * LINE_INTS;
        }
        return cycle;
    }

    /** Follows the whole cycle from line 0; returns nanoseconds per line. */
    static double follow(int[] cycle) {
        int lines = cycle.length / LINE_INTS;
        long t0 = System.nanoTime();
        int at = 0;
        for (int i = 0; i < lines; i++) {
            at = cycle[at];
        }
        long t = System.nanoTime() - t0;
        sink = at;
        return (double) t / lines;
    }

    /** {@link #follow} on a new thread, while this thread spins until it is done. */
    private static double followOnAnotherThread(int[] cycle) throws InterruptedException {
        double[] result = new double[1];
        Thread reader = Thread.ofPlatform().name("cache-reach-other").start(() -> result[0] = follow(cycle));
        long spins = 0;
        while (reader.isAlive()) {
            spins++;
        }
        reader.join();
        sink = spins;
        return result[0];
    }

    /** Reads one int of every cache line of {@code a}, front to back. */
    private static void readAll(int[] a) {
        long sum = 0;
        for (int i = 0; i < a.length; i += LINE_INTS) {
            sum += a[i];
        }
        sink = sum;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    static void print(Reach r, PrintStream out) {
        out.printf(Locale.ROOT, "REACH %d MB: memory %.1f ns/line, same thread %.1f, other thread %.1f%n",
                r.megabytes(), r.memory(), r.sameThread(), r.otherThread());
    }
}
