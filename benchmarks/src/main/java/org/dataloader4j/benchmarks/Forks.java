package org.dataloader4j.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs a benchmark's main class in a JVM of its own, as {@link Compare} and {@link ImageCompare} do for each system. */
final class Forks {
    private Forks() {
    }

    /**
     * What a forked JVM did.
     *
     * @param pid      its process id
     * @param exit     its exit status
     * @param reported whether it printed a {@code RESULT} line
     */
    record Outcome(long pid, int exit, boolean reported) {
    }

    /**
     * Runs {@code main} with {@code args} in a new JVM with this one's options and class path, and
     * copies the lines of its standard output that start with one of {@code kept} (each with its
     * space, such as {@code "RESULT "}) to {@code out}; its standard error is this one's. The child
     * is stopped if this JVM stops first.
     */
    static Outcome run(Class<?> main, List<String> args, List<String> kept, PrintStream out)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(args);
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Thread reaper = new Thread(child::destroyForcibly, "fork-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        boolean reported = false;
        int exit;
        try (BufferedReader lines = child.inputReader(StandardCharsets.UTF_8)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                for (String prefix : kept) {
                    if (line.startsWith(prefix)) {
                        out.println(line);
                        out.flush();
                        reported |= line.startsWith("RESULT ");
                        break;
                    }
                }
            }
            exit = child.waitFor();
        } finally {
            child.destroyForcibly();
            Runtime.getRuntime().removeShutdownHook(reaper);
        }
        return new Outcome(child.pid(), exit, reported);
    }
}
