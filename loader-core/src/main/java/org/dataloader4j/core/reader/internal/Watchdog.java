package org.dataloader4j.core.reader.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.dataloader4j.core.parallel.Threads;

/**
 * Watches a pipeline for stalls: when no batch has been parsed for {@code timeout} while the ring
 * had room or the consumer waited, reports once (until the next batch) the stacks of the
 * pipeline's threads and its metrics, so a stuck file system or a parser in an endless loop shows
 * up with the frame it is stuck in. Runs on its own thread, {@code <name>-watchdog}, looking a
 * quarter of the timeout apart (at most a second), until the pipeline stops or the stream ends.
 */
final class Watchdog implements Runnable {
    private final Pipeline<?> pipeline;
    private final Duration timeout;
    private final Consumer<String> report;
    private final Supplier<String> metrics;
    private final Thread thread;

    Watchdog(Pipeline<?> pipeline, Duration timeout, Consumer<String> report, Supplier<String> metrics, String name) {
        this.pipeline = pipeline;
        this.timeout = timeout;
        this.report = report;
        this.metrics = metrics;
        this.thread = Threads.daemon(this, name);
    }

    @Override
    public void run() {
        long limit = timeout.toNanos();
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(limit / 4, TimeUnit.SECONDS.toNanos(1)));
        long lastProgress = pipeline.ring().progress();
        long since = System.nanoTime();
        boolean reported = false;
        while (pipeline.running() && !pipeline.finished()) {
            LockSupport.parkNanos(this, period);
            long now = System.nanoTime();
            long progress = pipeline.ring().progress();
            if (progress != lastProgress) {
                lastProgress = progress;
                since = now;
                reported = false;
            } else if (!reported && now - since >= limit && pipeline.running() && !pipeline.finished()
                    && pipeline.ring().starved()) {
                reported = true;
                report.accept(stacks(Duration.ofNanos(now - since)));
            }
        }
    }

    private String stacks(Duration stalled) {
        StringBuilder sb = new StringBuilder("reader " + pipeline.settings().name() + ": no batch for " + stalled.toMillis()
                + " ms (watchdog " + timeout.toMillis() + " ms); " + metrics.get() + "; thread stacks:");
        for (Thread t : pipeline.threads()) {
            sb.append("\n\"").append(t.getName()).append("\" ").append(t.getState());
            for (StackTraceElement e : t.getStackTrace()) {
                sb.append("\n    at ").append(e);
            }
        }
        return sb.toString();
    }

    Thread thread() {
        return thread;
    }

    /** Ends the thread's wait, so that it sees the pipeline stopped. */
    void wake() {
        LockSupport.unpark(thread);
    }
}
