package org.dataloader4j.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a JFR recording's execution samples fall, thread by thread: each thread's share of all
 * samples, then its hottest methods (the sampled stack's top Java frame). Threads that differ
 * only in a trailing number ({@code d4j-compare-parse-0}, {@code -parse-1}) count as one, so a
 * reader's load thread, its parse workers and its consumer read as three lines.
 *
 * <pre>
 *   java -cp "$BENCH_CP" org.dataloader4j.benchmarks.JfrProfile compare.jfr [methods per thread, default 8]
 * </pre>
 *
 * <p>JFR samples only threads running Java code, at most a few per period: a thread parked or in
 * a system call is not in the count, and time the kernel spends on a sampled thread's page
 * faults counts for the method that faulted.
 */
public final class JfrProfile {
    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";

    /** One execution sample: its thread's name and its top frame's method, {@code Type.method}. */
    record Sample(String thread, String method) {
    }

    /** A thread group's samples and its methods' counts, most samples first. */
    record Group(String name, long samples, List<Map.Entry<String, Long>> methods) {
    }

    private JfrProfile() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: JfrProfile <recording.jfr> [methods per thread]");
            System.exit(2);
        }
        int top = args.length == 2 ? Integer.parseInt(args[1]) : 8;
        List<Sample> samples = read(Path.of(args[0]));
        print(samples.size(), summarize(samples), top, System.out);
    }

    /** The execution samples of {@code recording}; those without a Java frame are left out. */
    static List<Sample> read(Path recording) throws IOException {
        List<Sample> samples = new ArrayList<>();
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (!e.getEventType().getName().equals(EXECUTION_SAMPLE)) {
                    continue;
                }
                RecordedThread thread = e.getThread("sampledThread");
                RecordedStackTrace stack = e.getStackTrace();
                if (thread == null || stack == null || stack.getFrames().isEmpty()) {
                    continue;
                }
                RecordedFrame frame = stack.getFrames().getFirst();
                RecordedMethod m = frame.getMethod();
                String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
                samples.add(new Sample(name, m.getType().getName() + "." + m.getName()));
            }
        }
        return samples;
    }

    /** {@code thread} without a trailing number: {@code x-parse-1} is {@code x-parse-N}. */
    static String group(String thread) {
        return thread.replaceFirst("-\\d+$", "-N");
    }

    /** The samples by thread group, most samples first; each group's methods, most samples first. */
    static List<Group> summarize(List<Sample> samples) {
        Map<String, Map<String, Long>> byGroup = new HashMap<>();
        for (Sample s : samples) {
            byGroup.computeIfAbsent(group(s.thread()), g -> new HashMap<>()).merge(s.method(), 1L, Long::sum);
        }
        List<Group> groups = new ArrayList<>();
        byGroup.forEach((name, methods) -> {
            List<Map.Entry<String, Long>> sorted = new ArrayList<>(methods.entrySet());
            sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
            groups.add(new Group(name, sorted.stream().mapToLong(Map.Entry::getValue).sum(), List.copyOf(sorted)));
        });
        groups.sort(Comparator.comparingLong(Group::samples).reversed().thenComparing(Group::name));
        return groups;
    }

    /** Writes each group's share of {@code total} samples, and of its {@code top} hottest methods. */
    static void print(long total, List<Group> groups, int top, PrintStream out) {
        out.printf(Locale.ROOT, "%d execution samples%n", total);
        for (Group g : groups) {
            out.printf(Locale.ROOT, "%5.1f %%  %s%n", percent(g.samples(), total), g.name());
            for (Map.Entry<String, Long> m : g.methods().subList(0, Math.min(top, g.methods().size()))) {
                out.printf(Locale.ROOT, "    %5.1f %%  %s%n", percent(m.getValue(), total), m.getKey());
            }
        }
    }

    private static double percent(long part, long total) {
        return total == 0 ? 0 : 100.0 * part / total;
    }
}
