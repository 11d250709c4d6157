package org.dataloader4j.core.reader;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.dataloader4j.api.ByteSized;
import org.dataloader4j.api.DataLoaderException;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.core.parallel.Threads;

/**
 * The two background stages of a {@link DataReader} and the ring between them and the consumer.
 *
 * <ul>
 *   <li>The <b>load</b> thread pulls batches of samples from the dataset, claims the next slot
 *       (waiting while the ring is full: the backpressure), stores the samples and where the
 *       dataset stands after them (see {@link ReaderState}), and publishes.</li>
 *   <li>The <b>parse</b> thread waits for published slots, runs the parser on each over the
 *       {@link MultiThreadLoop}, then advances the parsed sequence and wakes the consumer.</li>
 * </ul>
 *
 * <p>A failure on either thread is stored in the slot at the position where it happened and
 * that stage stops; the consumer rethrows it when it reaches that slot. End of data is a slot
 * too. {@link #stop} halts both threads wherever they wait.
 *
 * <p>Each thread counts its own work (one writer per counter) for {@link #metrics}. With a
 * watchdog, a third thread, {@code <name>-watchdog}, reports the stacks of the pipeline's threads
 * once when no batch has been parsed for that long while the ring had room or the consumer waited.
 *
 * @param <T> the sample type
 */
final class Pipeline<T> {
    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final ReaderOptions options;
    private final Dataset<T> dataset;
    private final Parser<? super T> parser;
    private final RingBuffer<Slot> ring;
    private final SequenceBarrier published;
    private final Sequence parsed = new Sequence();
    private final Sequence consumed = new Sequence();
    private final MultiThreadLoop loop;
    private final Thread loadThread;
    private final Thread parseThread;
    private final Thread watchdogThread;
    private final Consumer<String> watchdogReport;
    private final LongSupplier corruptSkipped;
    private final long startNanos = System.nanoTime();
    /** The dataset's state before the first batch: the load thread's first checkpoint. */
    private final DatasetState start;

    // Counters, each written by one thread only (volatile so that metrics() may read them).
    private volatile long samples;
    private volatile long payloadBytes;
    private volatile long loadBusyNanos;
    private volatile long loadBlockedNanos;
    private volatile long batchesParsed;
    private volatile long parseBusyNanos;
    private volatile long stallNanos;
    private volatile long batchesRead;
    /** Set by the parse thread once the end or a failure has been handed on: nothing more comes. */
    private volatile boolean finished;

    /** False once the load thread should stop: on stop() or after a parse failure. */
    private volatile boolean running = true;
    private volatile boolean stopped;
    private volatile Thread consumerWaiting;
    /** A failure outside any slot (a bug, not bad data): ends every wait of the consumer. */
    private volatile Throwable fatal;

    Pipeline(ReaderOptions options, Dataset<T> dataset, DatasetState start, Parser<? super T> parser, List<TensorSpec> specs,
             Arena arena, Consumer<String> watchdogReport, LongSupplier corruptSkipped) {
        this.options = options;
        this.start = start;
        this.corruptSkipped = corruptSkipped;
        this.dataset = dataset;
        this.parser = parser;
        this.ring = RingBuffer.createSingleProducer(() -> new Slot(specs, arena), options.ringSize(), new BlockingWaitStrategy());
        this.ring.addGatingSequences(consumed);
        this.published = ring.newBarrier();
        this.loop = new MultiThreadLoop(options.name() + "-parse", options.parseThreads());
        this.loadThread = new Thread(this::load, options.name() + "-load");
        this.parseThread = new Thread(this::parse, options.name() + "-parse-0");
        loadThread.setDaemon(true);
        parseThread.setDaemon(true);
        this.watchdogReport = watchdogReport;
        this.watchdogThread = options.watchdog().isZero() ? null : new Thread(this::watch, options.name() + "-watchdog");
        if (watchdogThread != null) {
            watchdogThread.setDaemon(true);
        }
    }

    void start() {
        parseThread.start();
        loadThread.start();
        if (watchdogThread != null) {
            watchdogThread.start();
        }
    }

    Slot slot(long sequence) {
        return ring.get(sequence);
    }

    // ---- load thread ----

    private void load() {
        try {
            DatasetState checkpoint = start;
            int sinceCheckpoint = 0;
            // The list the next batch's samples go into. Each slot keeps its list: when a slot is
            // claimed again, its parse is long done, and its list becomes the next one to fill.
            List<T> samples = new ArrayList<>(options.batchSize());
            for (long index = 0; running; index++) {
                long epoch = 0;
                Throwable failure = null;
                long start = System.nanoTime();
                try {
                    samples.clear();
                    int n = dataset.nextInto(samples);
                    if (n > options.batchSize()) {
                        throw new IllegalStateException("the dataset yielded " + n
                                + " samples, more than the reader's batchSize=" + options.batchSize());
                    }
                    sinceCheckpoint++;
                    if (sinceCheckpoint == options.checkpointEvery() || samples.isEmpty()) {
                        checkpoint = dataset.state();
                        sinceCheckpoint = 0;
                    }
                    epoch = dataset.epoch();
                    count(samples);
                } catch (Throwable t) {
                    failure = t;
                }
                long loaded = System.nanoTime();
                loadBusyNanos += loaded - start;
                if (!awaitFreeSlot()) {
                    return;
                }
                loadBlockedNanos += System.nanoTime() - loaded;
                long sequence = ring.next();
                boolean end = failure == null && samples.isEmpty();
                Slot slot = ring.get(sequence);
                @SuppressWarnings("unchecked")
                List<T> free = (List<T>) slot.samples;
                slot.load(index, samples, checkpoint, sinceCheckpoint, epoch, end, failure);
                ring.publish(sequence);
                if (end || failure != null) {
                    return;
                }
                samples = free != null ? free : new ArrayList<>(options.batchSize());
            }
        } catch (Throwable t) {
            failFatally(t);
        }
    }

    private void count(List<T> batch) {
        long bytes = 0;
        for (T sample : batch) {
            if (sample instanceof ByteSized sized) {
                bytes += sized.byteSize();
            }
        }
        samples += batch.size();
        payloadBytes += bytes;
    }

    /** Waits until the consumer has released a slot; false if the pipeline stopped first. */
    private boolean awaitFreeSlot() {
        while (!ring.hasAvailableCapacity(1)) {
            // close() interrupts a load thread that missed its deadline: that is a stop too.
            if (!running || Thread.currentThread().isInterrupted()) {
                return false;
            }
            LockSupport.parkNanos(this, PARK_NANOS);
        }
        return running;
    }

    // ---- parse thread ----

    private void parse() {
        try {
            long next = 0;
            while (true) {
                long available = published.waitFor(next);
                for (; next <= available; next++) {
                    Slot slot = ring.get(next);
                    if (slot.failure == null && !slot.end) {
                        parseSlot(slot);
                    }
                    // Decided before publishing: once parsed is set, the consumer may release
                    // the slot and the load thread may refill it with a later batch.
                    boolean last = slot.failure != null || slot.end;
                    finished = last;
                    parsed.set(next);
                    wakeConsumer();
                    if (last) {
                        return;
                    }
                }
            }
        } catch (AlertException e) {
            // stop() was called: leave quietly
        } catch (Throwable t) {
            failFatally(t);
        }
    }

    @SuppressWarnings("unchecked")
    private void parseSlot(Slot slot) {
        long start = System.nanoTime();
        try {
            List<T> samples = (List<T>) slot.samples;
            parser.parse(samples, new SlotView(slot, samples.size(), options.batchSize(), null), loop);
            batchesParsed++;
        } catch (Throwable t) {
            // The JVM reports a fault reading a mapping whose file shrank after it was mapped as an
            // InternalError; name the likely cause rather than hand the caller a bare JVM error.
            slot.fail("parse", t instanceof InternalError
                    ? new DataLoaderException("the JVM failed to read input memory while batch " + slot.index
                            + " was parsed; a memory-mapped file that shrinks while being read does this", t)
                    : t);
            // The consumer stops at this slot, so nothing after it is needed.
            running = false;
            LockSupport.unpark(loadThread);
        } finally {
            parseBusyNanos += System.nanoTime() - start;
        }
    }

    // ---- consumer side ----

    /**
     * Waits until slot {@code sequence} is parsed.
     *
     * @throws IllegalStateException if the reader is closed meanwhile
     * @throws DataLoaderException   if the waiting thread is interrupted (its interrupt status
     *                               stays set; waiting again later is fine)
     */
    void awaitParsed(long sequence, String readerName) {
        if (parsed.get() >= sequence) {
            return;
        }
        consumerWaiting = Thread.currentThread();
        long start = System.nanoTime();
        try {
            while (parsed.get() < sequence) {
                if (fatal != null) {
                    throw new IllegalStateException("reader " + readerName + " failed", fatal);
                }
                if (stopped) {
                    throw new IllegalStateException("reader " + readerName + " is closed");
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new DataLoaderException("interrupted while reader " + readerName
                            + " waited for batch " + sequence, new InterruptedException());
                }
                LockSupport.parkNanos(this, PARK_NANOS);
            }
        } finally {
            consumerWaiting = null;
            stallNanos += System.nanoTime() - start;
        }
    }

    /** Hands slot {@code sequence} back to the load thread. */
    void release(long sequence) {
        ring.get(sequence).generation++;
        consumed.set(sequence);
        LockSupport.unpark(loadThread);
    }

    /** Counts a batch handed to the consumer; called by the consumer only. */
    void delivered() {
        batchesRead++;
    }

    /** What the threads have counted so far. */
    ReaderMetrics metrics() {
        long published = ring.getCursor() + 1;
        int occupancy = (int) Math.max(0, Math.min(options.ringSize(), published - (consumed.get() + 1)));
        return new ReaderMetrics(samples, payloadBytes, corruptSkipped.getAsLong(), batchesParsed, batchesRead, occupancy, options.ringSize(),
                Duration.ofNanos(stallNanos), Duration.ofNanos(loadBusyNanos), Duration.ofNanos(loadBlockedNanos),
                Duration.ofNanos(parseBusyNanos), Duration.ofNanos(System.nanoTime() - startNanos));
    }

    // ---- watchdog thread ----

    private void watch() {
        long timeout = options.watchdog().toNanos();
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(timeout / 4, TimeUnit.SECONDS.toNanos(1)));
        long lastParsed = parsed.get();
        long since = System.nanoTime();
        boolean reported = false;
        while (!stopped && !finished) {
            LockSupport.parkNanos(this, period);
            long now = System.nanoTime();
            long p = parsed.get();
            if (p != lastParsed) {
                lastParsed = p;
                since = now;
                reported = false;
            } else if (!reported && now - since >= timeout && !stopped && !finished
                    && (consumerWaiting != null || ring.hasAvailableCapacity(1))) {
                reported = true;
                watchdogReport.accept(stacks(Duration.ofNanos(now - since)));
            }
        }
    }

    private String stacks(Duration stalled) {
        StringBuilder sb = new StringBuilder("reader " + options.name() + ": no batch for " + stalled.toMillis()
                + " ms (watchdog " + options.watchdog().toMillis() + " ms); " + metrics() + "; thread stacks:");
        List<Thread> threads = new ArrayList<>(List.of(loadThread, parseThread));
        threads.addAll(loop.threads());
        for (Thread t : threads) {
            sb.append("\n\"").append(t.getName()).append("\" ").append(t.getState());
            for (StackTraceElement e : t.getStackTrace()) {
                sb.append("\n    at ").append(e);
            }
        }
        return sb.toString();
    }

    private void wakeConsumer() {
        Thread waiting = consumerWaiting;
        if (waiting != null) {
            LockSupport.unpark(waiting);
        }
    }

    private void failFatally(Throwable t) {
        fatal = t;
        running = false;
        wakeConsumer();
    }

    /**
     * Stops both stages and the parse workers, waiting up to {@code timeout} in all.
     *
     * @return true if every thread ended in time
     */
    boolean stop(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        running = false;
        stopped = true;
        published.alert();
        LockSupport.unpark(loadThread);
        wakeConsumer();
        if (watchdogThread != null) {
            LockSupport.unpark(watchdogThread);
        }
        boolean stopped = joinIfStarted(parseThread, deadline);
        stopped &= joinIfStarted(loadThread, deadline);
        if (watchdogThread != null) {
            stopped &= joinIfStarted(watchdogThread, deadline);
        }
        stopped &= loop.close(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        return stopped;
    }

    /** Makes every view of every slot invalid: their memory is about to be freed. */
    void invalidateSlots() {
        for (int i = 0; i < options.ringSize(); i++) {
            ring.get(i).generation++;
        }
    }

    /** True if the load thread has ended, so the dataset may be touched from another thread. */
    boolean loadStopped() {
        return !loadThread.isAlive();
    }

    private static boolean joinIfStarted(Thread t, long deadline) {
        if (t.getState() == Thread.State.NEW) {
            return true;
        }
        return Threads.join(t, deadline);
    }
}
