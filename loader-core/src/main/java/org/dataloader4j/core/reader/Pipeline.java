package org.dataloader4j.core.reader;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;
import java.lang.foreign.Arena;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
 *       (waiting while the ring is full: the backpressure), hands the samples of the batch the
 *       slot held back to the dataset ({@link Dataset#recycle}), stores the new samples and
 *       where the dataset stands after them (see {@link ReaderState}), and publishes.</li>
 *   <li>The <b>parse workers</b> ({@link #parseWorkers}) take the published slots in turn,
 *       worker {@code w} of {@code W} those of sequences {@code w, w + W, …}: each runs the
 *       parser on its slot over its own {@link MultiThreadLoop}, then advances its parsed
 *       sequence and wakes the consumer. Whole batches are parsed side by side, with no meeting
 *       per batch; the parse threads left over split each worker's batches by rows. A worker
 *       with nothing published parks, and the load thread wakes only the worker whose slot it
 *       published: one wake per batch, where a shared lock and condition would wake them all.</li>
 * </ul>
 *
 * <p>A failure on the load thread or a parse worker is stored in the slot at the position where
 * it happened and the stage stops there (the other parse workers finish the slots before it);
 * the consumer rethrows it when it reaches that slot. End of data is a slot too. {@link #stop}
 * halts every thread wherever it waits.
 *
 * <p>Each thread counts its own work (one writer per counter) for {@link #metrics}. With a
 * watchdog, a third thread, {@code <name>-watchdog}, reports the stacks of the pipeline's threads
 * once when no batch has been parsed for that long while the ring had room or the consumer waited.
 *
 * @param <T> the sample type
 */
final class Pipeline<T> {
    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * The ring's wait strategy, which nothing waits on: the parse workers wait on their own
     * ({@link ParseWorker#awaitPublished}), so that publishing needs no lock.
     */
    private static final WaitStrategy WORKERS_WAIT_ON_THEIR_OWN = new WaitStrategy() {
        @Override
        public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier) {
            throw new UnsupportedOperationException("parse workers wait on their own");
        }

        @Override
        public void signalAllWhenBlocking() {
        }
    };

    private final ReaderOptions options;
    private final Dataset<T> dataset;
    private final Parser<? super T> parser;
    private final RingBuffer<Slot> ring;
    /** The slots' tensors, taken by the parse workers and given back on release. */
    private final OutputPool outputPool;
    private final Sequence consumed = new Sequence();
    private final Thread loadThread;
    /** The parse workers: worker {@code w} parses the slots of sequences {@code w, w + W, w + 2W, …}. */
    private final List<ParseWorker> workers;
    private final Thread watchdogThread;
    private final Consumer<String> watchdogReport;
    private final LongSupplier corruptSkipped;
    private final long startNanos = System.nanoTime();
    /** The dataset's state before the first batch: the load thread's first checkpoint. */
    private final DatasetState initialState;

    // Counters, each written by one thread only (volatile so that metrics() may read them).
    private volatile long samples;
    private volatile long payloadBytes;
    private volatile long loadBusyNanos;
    private volatile long loadBlockedNanos;
    private volatile long stallNanos;
    private volatile long batchesRead;
    /** Parse workers not yet ended; none once the end or a failure has been handed on and parsed up to. */
    private final AtomicInteger liveWorkers = new AtomicInteger();
    /** The sequence of the first slot that ends the stream (its end or a failure); none yet: MAX_VALUE. */
    private final AtomicLong lastSequence = new AtomicLong(Long.MAX_VALUE);

    /** False once the load thread should stop: on stop() or after a parse failure. */
    private volatile boolean running = true;
    private volatile boolean stopped;
    private volatile Thread consumerWaiting;
    /** A failure outside any slot (a bug, not bad data): ends every wait of the consumer. */
    private volatile Throwable fatal;

    Pipeline(ReaderOptions options, Dataset<T> dataset, DatasetState initialState, Parser<? super T> parser, List<TensorSpec> specs,
             Arena arena, Consumer<String> watchdogReport, LongSupplier corruptSkipped) {
        this.options = options;
        this.initialState = initialState;
        this.corruptSkipped = corruptSkipped;
        this.dataset = dataset;
        this.parser = parser;
        this.ring = RingBuffer.createSingleProducer(Slot::new, options.ringSize(), WORKERS_WAIT_ON_THEIR_OWN);
        this.outputPool = new OutputPool(specs, arena, options.ringSize());
        this.ring.addGatingSequences(consumed);
        int count = parseWorkers(options);
        List<ParseWorker> all = new ArrayList<>(count);
        for (int w = 0; w < count; w++) {
            // The threads left over from one per worker split each worker's batches.
            int threads = options.parseThreads() / count + (w < options.parseThreads() % count ? 1 : 0);
            all.add(new ParseWorker(w, threads));
        }
        this.workers = List.copyOf(all);
        liveWorkers.set(count);
        this.loadThread = new Thread(this::load, options.name() + "-load");
        loadThread.setDaemon(true);
        this.watchdogReport = watchdogReport;
        this.watchdogThread = options.watchdog().isZero() ? null : new Thread(this::watch, options.name() + "-watchdog");
        if (watchdogThread != null) {
            watchdogThread.setDaemon(true);
        }
    }

    /**
     * How many parse workers take whole batches: one per parse thread, but at most half the
     * ring, so that the load thread can fill slots ahead while each worker parses one.
     */
    static int parseWorkers(ReaderOptions options) {
        return Math.max(1, Math.min(options.parseThreads(), options.ringSize() / 2));
    }

    void start() {
        for (ParseWorker w : workers) {
            w.thread.start();
        }
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
            DatasetState checkpoint = initialState;
            int sinceCheckpoint = 0;
            // The list the next batch's samples go into. Each slot keeps its list: when a slot is
            // claimed again, its batch is parsed and released, so its samples go back to the
            // dataset and its list becomes the next one to fill.
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
                workers.get((int) (sequence % workers.size())).wake();
                if (end || failure != null) {
                    return;
                }
                if (free != null) {
                    dataset.recycle(free);
                    samples = free;
                } else {
                    samples = new ArrayList<>(options.batchSize());
                }
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

    // ---- parse workers ----

    /**
     * One parse worker: a thread that parses every {@code W}-th slot, in order, over its own
     * {@link MultiThreadLoop}, and its counters (each written by its thread only).
     */
    private final class ParseWorker {
        final int index;
        final Thread thread;
        final MultiThreadLoop loop;
        /** Set while this worker parks for its next slot, so that a publisher knows to wake it. */
        private volatile boolean waiting;
        /** The last sequence this worker has parsed (or passed on, for an end or a failure). */
        final Sequence parsed = new Sequence();
        volatile long batchesParsed;
        volatile long parseBusyNanos;

        ParseWorker(int index, int threads) {
            this.index = index;
            String name = options.name() + "-parse-" + index;
            this.loop = new MultiThreadLoop(name, threads);
            this.thread = new Thread(this::run, name);
            thread.setDaemon(true);
        }

        private void run() {
            try {
                long next = index;
                // Once another worker has handed on the end or a failure, the slots up to the
                // last one are published and the rest never will be: the loop ends past it.
                while (next <= lastSequence.get()) {
                    if (!awaitPublished(next)) {
                        if (stopped) {
                            return;
                        }
                        continue;
                    }
                    Slot slot = ring.get(next);
                    if (slot.failure == null && !slot.end) {
                        parseSlot(slot, this);
                    }
                    // Decided before publishing: once parsed is set, the consumer may release
                    // the slot and the load thread may refill it with a later batch.
                    boolean last = slot.failure != null || slot.end;
                    if (last) {
                        lastSequence.accumulateAndGet(next, Math::min);
                    }
                    parsed.set(next);
                    wakeConsumer();
                    if (last) {
                        for (ParseWorker w : workers) {
                            w.wake();
                        }
                        return;
                    }
                    next += workers.size();
                }
            } catch (Throwable t) {
                failFatally(t);
            } finally {
                liveWorkers.decrementAndGet();
            }
        }

        /**
         * Waits until slot {@code sequence} is published; false if it gave up first, because
         * the pipeline stopped or the stream ends before {@code sequence}. The publisher reads
         * {@link #waiting} after publishing ({@link #wake}), and this thread reads the cursor
         * after setting it, each with a full fence between, so one of the two sees the other: no
         * wake is lost, and the timed park is only a bound.
         */
        private boolean awaitPublished(long sequence) {
            while (ring.getCursor() < sequence) {
                if (stopped || lastSequence.get() < sequence) {
                    return false;
                }
                if (Thread.currentThread().isInterrupted()) {
                    // Only stop() interrupts a worker (through its join), and that is handled above.
                    throw new IllegalStateException(thread.getName() + " was interrupted while it waited for batch " + sequence);
                }
                waiting = true;
                VarHandle.fullFence();
                if (ring.getCursor() < sequence && !stopped && lastSequence.get() >= sequence) {
                    LockSupport.parkNanos(Pipeline.this, PARK_NANOS);
                }
                waiting = false;
            }
            return true;
        }

        /** Wakes this worker if it is parked for its next slot; called after publishing or ending. */
        void wake() {
            // The cursor's release store must not pass the read of waiting (awaitPublished).
            VarHandle.fullFence();
            if (waiting) {
                LockSupport.unpark(thread);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void parseSlot(Slot slot, ParseWorker worker) {
        long start = System.nanoTime();
        try {
            List<T> samples = (List<T>) slot.samples;
            slot.outputs = outputPool.take();
            parser.parse(samples, new SlotView(slot, samples.size(), options.batchSize(), null), worker.loop);
            worker.batchesParsed++;
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
            worker.parseBusyNanos += System.nanoTime() - start;
        }
    }

    /** Whether every parse worker has ended: nothing more comes. */
    private boolean finished() {
        return liveWorkers.get() == 0;
    }

    /** Whether slot {@code sequence} has been parsed (or passed on). */
    private boolean isParsed(long sequence) {
        return workers.get((int) (sequence % workers.size())).parsed.get() >= sequence;
    }

    /** The batches parsed so far by every worker, and so the sum of their progress. */
    private long parsedProgress() {
        long sum = 0;
        for (ParseWorker w : workers) {
            sum += w.parsed.get();
        }
        return sum;
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
        if (isParsed(sequence)) {
            return;
        }
        consumerWaiting = Thread.currentThread();
        long start = System.nanoTime();
        try {
            while (!isParsed(sequence)) {
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

    /** Hands slot {@code sequence} back to the load thread, and its tensors to the pool. */
    void release(long sequence) {
        Slot slot = ring.get(sequence);
        slot.generation++;
        if (slot.outputs != null) {
            outputPool.give(slot.outputs);
            slot.outputs = null;
        }
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
        long batchesParsed = 0;
        long parseBusyNanos = 0;
        for (ParseWorker w : workers) {
            batchesParsed += w.batchesParsed;
            parseBusyNanos += w.parseBusyNanos;
        }
        // The mean over the workers: the share of the read loop the parse stage was busy.
        return new ReaderMetrics(samples, payloadBytes, corruptSkipped.getAsLong(), batchesParsed, batchesRead, occupancy, options.ringSize(),
                Duration.ofNanos(stallNanos), Duration.ofNanos(loadBusyNanos), Duration.ofNanos(loadBlockedNanos),
                Duration.ofNanos(parseBusyNanos / workers.size()), Duration.ofNanos(System.nanoTime() - startNanos));
    }

    // ---- watchdog thread ----

    private void watch() {
        long timeout = options.watchdog().toNanos();
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(timeout / 4, TimeUnit.SECONDS.toNanos(1)));
        long lastParsed = parsedProgress();
        long since = System.nanoTime();
        boolean reported = false;
        while (!stopped && !finished()) {
            LockSupport.parkNanos(this, period);
            long now = System.nanoTime();
            long p = parsedProgress();
            if (p != lastParsed) {
                lastParsed = p;
                since = now;
                reported = false;
            } else if (!reported && now - since >= timeout && !stopped && !finished()
                    && (consumerWaiting != null || ring.hasAvailableCapacity(1))) {
                reported = true;
                watchdogReport.accept(stacks(Duration.ofNanos(now - since)));
            }
        }
    }

    private String stacks(Duration stalled) {
        StringBuilder sb = new StringBuilder("reader " + options.name() + ": no batch for " + stalled.toMillis()
                + " ms (watchdog " + options.watchdog().toMillis() + " ms); " + metrics() + "; thread stacks:");
        List<Thread> threads = new ArrayList<>(List.of(loadThread));
        for (ParseWorker w : workers) {
            threads.add(w.thread);
            threads.addAll(w.loop.threads());
        }
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
        for (ParseWorker w : workers) {
            LockSupport.unpark(w.thread);
        }
        LockSupport.unpark(loadThread);
        wakeConsumer();
        if (watchdogThread != null) {
            LockSupport.unpark(watchdogThread);
        }
        boolean stopped = true;
        for (ParseWorker w : workers) {
            stopped &= joinIfStarted(w.thread, deadline);
        }
        stopped &= joinIfStarted(loadThread, deadline);
        if (watchdogThread != null) {
            stopped &= joinIfStarted(watchdogThread, deadline);
        }
        for (ParseWorker w : workers) {
            stopped &= w.loop.close(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        }
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
