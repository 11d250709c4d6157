package org.dataloader4j.cli;

import java.io.Console;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Objects;
import org.dataloader4j.cli.internal.Progress;

/**
 * Where a command writes and what it may know of its surroundings: standard output for results,
 * standard error for progress and errors, the environment, and whether standard error is an
 * interactive terminal (progress bars are drawn only there). Tests pass their own.
 *
 * @param out         results
 * @param err         progress bars and error lines
 * @param env         the environment variables ({@code XDG_CACHE_HOME}, {@code HOME})
 * @param interactive whether {@code err} is a terminal that can redraw a line
 */
public record Terminal(PrintWriter out, PrintWriter err, Map<String, String> env, boolean interactive) {

    /** Checks and copies the arguments. */
    public Terminal {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        env = Map.copyOf(env);
    }

    /** A progress bar on {@link #err()} called {@code label}, full at {@code total}; drawn only if {@link #interactive()}. */
    Progress progress(String label, long total) {
        return Progress.start(err, interactive, label, total);
    }

    /**
     * The process's own: {@code System.out}, {@code System.err}, {@code System.getenv()};
     * interactive when the JVM is attached to a terminal. Since JDK 22 {@code System.console()}
     * is not null even when output is redirected, so {@link Console#isTerminal()} decides.
     */
    public static Terminal system() {
        Console console = System.console();
        return new Terminal(new PrintWriter(System.out, true), new PrintWriter(System.err, true), System.getenv(),
                console != null && console.isTerminal());
    }
}
