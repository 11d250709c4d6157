package org.dataloader4j.core.parallel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.dataloader4j.api.ParallelLoop;

/**
 * A {@link ParallelLoop} over {@code parallelism} threads: OneFlow's {@code MultiThreadLoop}.
 *
 * <p>The calling thread runs the first range itself and {@code parallelism - 1} named workers
 * ({@code <name>-1}, {@code <name>-2}, …) run the others, so a loop of parallelism 1 starts no
 * thread. A call with fewer rows than two ranges need runs inline. Ranges come from
 * {@link BalancedSplitter}: contiguous, the first {@code n % t} of them one row larger.
 *
 * <p>If ranges fail, the call rethrows the failure of the lowest range once every range has
 * ended, whatever the threads' timing: a body that handles its rows in order therefore reports
 * the lowest failing row, the same one a sequential loop would.
 *
 * <p>One caller at a time; {@link #close()} stops and joins the workers.
 */
public final class MultiThreadLoop implements ParallelLoop, AutoCloseable {
    private final String name;
    private final int parallelism;
    private final Worker[] workers;
    private final AtomicInteger pending = new AtomicInteger();
    /** The failure of each range of the current call; range i writes only slot i. */
    private final Throwable[] failures;
    private volatile Thread caller;
    private volatile boolean closed;

    /**
     * Starts {@code parallelism - 1} worker threads named {@code name-1} and up.
     *
     * @throws IllegalArgumentException if {@code parallelism < 1}
     */
    public MultiThreadLoop(String name, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be >= 1: parallelism=" + parallelism);
        }
        this.name = name;
        this.parallelism = parallelism;
        this.workers = new Worker[parallelism - 1];
        this.failures = new Throwable[parallelism];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new Worker();
        }
        for (int i = 0; i < workers.length; i++) {
            Thread t = Threads.daemon(workers[i], name + "-" + (i + 1));
            workers[i].thread = t;
            t.start();
        }
    }

    @Override
    public int parallelism() {
        return parallelism;
    }

    @Override
    public void forRanges(int n, int minRangeSize, RangeBody body) {
        if (closed) {
            throw new IllegalStateException("loop " + name + " is closed");
        }
        if (n < 0 || minRangeSize < 1) {
            throw new IllegalArgumentException("need n >= 0 and minRangeSize >= 1: n=" + n + " minRangeSize=" + minRangeSize);
        }
        int ranges = Math.min(parallelism, n / minRangeSize);
        if (ranges <= 1) {
            if (n > 0) {
                body.run(0, n);
            }
            return;
        }
        BalancedSplitter split = new BalancedSplitter(n, ranges);
        caller = Thread.currentThread();
        Arrays.fill(failures, null);
        pending.set(ranges - 1);
        for (int i = 1; i < ranges; i++) {
            workers[i - 1].assign(i, (int) split.start(i), (int) split.end(i), body);
        }
        try {
            body.run(0, (int) split.end(0));
        } catch (Throwable t) {
            failures[0] = t;
        }
        // The workers' writes to failures happen before their decrement of pending. An interrupt
        // does not end the wait (the ranges still run), nor may it make the park spin: it is
        // kept, and set again for the caller once every range is done.
        boolean interrupted = false;
        while (pending.get() != 0) {
            LockSupport.park(this);
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable t = null;
        for (int i = 0; i < ranges && t == null; i++) {
            t = failures[i];
        }
        if (t instanceof RuntimeException e) {
            throw e;
        } else if (t instanceof Error e) {
            throw e;
        } else if (t != null) {
            throw new IllegalStateException("a range of loop " + name + " failed", t);
        }
    }

    /** The worker threads, for diagnostics (the caller's thread runs the first range itself). */
    public List<Thread> threads() {
        List<Thread> threads = new ArrayList<>(workers.length);
        for (Worker w : workers) {
            threads.add(w.thread);
        }
        return threads;
    }

    /** Stops the workers and waits up to {@code timeout} for them to end; idempotent. */
    public boolean close(Duration timeout) {
        closed = true;
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean allStopped = true;
        for (Worker w : workers) {
            allStopped &= Threads.join(w.thread, deadline);
        }
        return allStopped;
    }

    /** Stops the workers and waits up to 5 s for them; idempotent. */
    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    private void rangeDone() {
        if (pending.decrementAndGet() == 0) {
            LockSupport.unpark(caller);
        }
    }

    /** One worker: waits for a range, runs it, reports back. */
    private final class Worker implements Runnable {
        Thread thread;
        private int range;
        private int start;
        private int end;
        /** Written last by the caller, so that a worker that reads it sees start and end. */
        private volatile RangeBody body;

        void assign(int range, int start, int end, RangeBody body) {
            this.range = range;
            this.start = start;
            this.end = end;
            this.body = body;
            LockSupport.unpark(thread);
        }

        @Override
        public void run() {
            while (true) {
                RangeBody b = body;
                if (b == null) {
                    // An assigned range is always finished, even after close(): its caller waits for it.
                    if (closed) {
                        return;
                    }
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(100));
                    continue;
                }
                try {
                    b.run(start, end);
                } catch (Throwable t) {
                    failures[range] = t;
                } finally {
                    body = null;
                    rangeDone();
                }
            }
        }
    }
}
