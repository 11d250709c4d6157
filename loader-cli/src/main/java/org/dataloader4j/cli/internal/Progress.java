package org.dataloader4j.cli.internal;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * A one-line progress bar on standard error, redrawn at most ten times a second:
 * {@code verify [########----------]  41%  part-00003}. It is drawn only on an interactive
 * terminal; elsewhere (a pipe, a log file, a test) it prints nothing, so that standard error
 * holds only errors. Called from one thread; starts none.
 */
public final class Progress implements AutoCloseable {
    private static final int WIDTH = 24;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintWriter err;
    private final boolean draw;
    private final String label;
    private final long total;
    private long lastDrawn = Long.MIN_VALUE;
    private int drawnLength;

    private Progress(PrintWriter err, boolean draw, String label, long total) {
        this.err = err;
        this.draw = draw;
        this.label = label;
        this.total = total;
    }

    /**
     * A bar called {@code label} that is full at {@code total} (0 or less: no bar, only the text),
     * drawn on {@code err} if it is an {@code interactive} terminal.
     */
    public static Progress start(PrintWriter err, boolean interactive, String label, long total) {
        return new Progress(err, interactive, label, total);
    }

    /** Redraws the bar at {@code done} of the total, followed by {@code text}, if a tenth of a second has passed. */
    public void update(long done, String text) {
        if (!draw) {
            return;
        }
        long now = System.nanoTime();
        if (lastDrawn != Long.MIN_VALUE && now - lastDrawn < REDRAW_NANOS) {
            return;
        }
        lastDrawn = now;
        StringBuilder line = new StringBuilder(label);
        if (total > 0) {
            double fraction = Math.min(1, Math.max(0, (double) done / total));
            int filled = (int) Math.round(fraction * WIDTH);
            line.append(" [").append("#".repeat(filled)).append("-".repeat(WIDTH - filled)).append("] ")
                    .append(String.format(Locale.ROOT, "%3.0f%%", 100 * fraction));
        }
        line.append("  ").append(text);
        int length = line.length();
        line.append(" ".repeat(Math.max(0, drawnLength - length)));
        drawnLength = length;
        err.print("\r" + line);
        err.flush();
    }

    /** Clears the bar's line, so that what is printed next starts on a clean line; the next update redraws it. */
    public void clear() {
        if (draw && drawnLength > 0) {
            err.print("\r" + " ".repeat(drawnLength) + "\r");
            err.flush();
            drawnLength = 0;
            lastDrawn = Long.MIN_VALUE;
        }
    }

    /** Clears the bar. */
    @Override
    public void close() {
        clear();
    }
}
