package org.dataloader4j.core.parallel;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Stopping the runtime's threads within a deadline. */
public final class Threads {
    private static final Logger LOG = LoggerFactory.getLogger(Threads.class);

    private Threads() {
    }

    /** A daemon thread named {@code name} that runs {@code work}, not yet started. */
    public static Thread daemon(Runnable work, String name) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        return t;
    }

    /** {@link #join}, or true at once for a thread never started. */
    public static boolean joinIfStarted(Thread t, long deadlineNanos) {
        return t.getState() == Thread.State.NEW || join(t, deadlineNanos);
    }

    /**
     * Waits for {@code t} to end until {@code deadlineNanos} (a {@link System#nanoTime()} value),
     * then interrupts it and waits a little more.
     *
     * @return true if the thread ended; false, after logging its name, if it did not
     */
    public static boolean join(Thread t, long deadlineNanos) {
        try {
            t.join(Duration.ofNanos(Math.max(1, deadlineNanos - System.nanoTime())));
            if (t.isAlive()) {
                t.interrupt();
                t.join(Duration.ofMillis(100));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (t.isAlive()) {
            LOG.error("thread {} did not stop in time", t.getName());
            return false;
        }
        return true;
    }
}
