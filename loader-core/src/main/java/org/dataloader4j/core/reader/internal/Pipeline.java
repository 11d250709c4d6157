package org.dataloader4j.core.reader.internal;

import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.parallel.Threads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reader's background stages, wired to one {@link SlotRing}, and their stop: the
 * {@link LoadLoop} on thread {@code <name>-load}, {@code W} {@link ParseWorker}s on
 * {@code <name>-parse-w}, and with a watchdog the {@link Watchdog}. The consumer's side is a
 * {@link Delivery}.
 *
 * <p>The lifecycle is one field: {@code RUNNING → STOPPING → STOPPED}, moved by
 * compare-and-exchange as the Disruptor's {@code BatchEventProcessor} moves its own, so exactly
 * one caller stops the pipeline.
 *
 * @param <T> the sample type
 */
public final class Pipeline<T> {
    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);
    /**
     * What a pipeline is built with.
     *
     * @param name            the prefix of its threads' names
     * @param capacity        the most samples in a batch: the rows of every slot
     * @param ringSize        the slots, a power of two
     * @param parseThreads    the threads that parse, workers and their helpers together
     * @param watchdog        how long without a parsed batch before the watchdog reports; zero for none
     * @param checkpointEvery how many batches apart the load thread takes the dataset's state
     * @param firstStep       the step of the first batch ({@code Batch.index()}): 0, or where a restored state stopped
     */
    public record Settings(String name, int capacity, int ringSize, int parseThreads, Duration watchdog,
                           int checkpointEvery, long firstStep) {
    }

    private static final int RUNNING = 0;
    private static final int STOPPING = 1;
    private static final int STOPPED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Pipeline.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Settings settings;
    private final Dataset<T> dataset;
    private final AtomicBoolean datasetClosed = new AtomicBoolean();
    /** The parse worker closing the dataset at the end of the data, which {@link #awaitStop} leaves uninterrupted; guarded by this. */
    private Thread datasetCloser;
    private final SlotRing ring;
    private final OutputPool outputs;
    private final LoadLoop<T> load;
    private final Thread loadThread;
    private final List<ParseWorker<T>> workers;
    private final Watchdog watchdog;
    private final AtomicInteger liveWorkers;
    private final long startNanos = System.nanoTime();
    @SuppressWarnings("unused") // through STATE
    private volatile int state = RUNNING;

    /**
     * A pipeline that loads {@code dataset} (standing at {@code initialState}) and parses it with
     * {@code parser} into tensors of {@code specs} allocated from {@code arena}; nothing runs
     * before {@link #start()}. The watchdog, if any, hands its reports, with {@code metrics}' text,
     * to {@code watchdogReport}.
     */
    public Pipeline(Settings settings, Dataset<T> dataset, DatasetState initialState, Parser<? super T> parser,
                    List<TensorSpec> specs, Arena arena, Consumer<String> watchdogReport, Supplier<String> metrics) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.dataset = dataset;
        int count = parseWorkers(settings.parseThreads(), settings.ringSize());
        this.ring = new SlotRing(settings.ringSize(), count);
        this.outputs = new OutputPool(specs, arena, settings.ringSize());
        List<ParseWorker<T>> all = new ArrayList<>(count);
        for (int w = 0; w < count; w++) {
            // The threads left over from one per worker split each worker's batches by rows.
            int threads = settings.parseThreads() / count + (w < settings.parseThreads() % count ? 1 : 0);
            all.add(new ParseWorker<>(this, w, threads, parser, settings.name() + "-parse-" + w));
        }
        this.workers = List.copyOf(all);
        this.liveWorkers = new AtomicInteger(count);
        this.load = new LoadLoop<>(ring, dataset, initialState, settings.firstStep(), settings.capacity(),
                settings.checkpointEvery());
        this.loadThread = Threads.daemon(load, settings.name() + "-load");
        this.watchdog = settings.watchdog().isZero() ? null
                : new Watchdog(this, settings.watchdog(), watchdogReport, metrics, settings.name() + "-watchdog");
    }

    /**
     * How many parse workers take whole batches: one per parse thread, but at most half the ring,
     * so that the load thread fills slots while each worker parses one.
     */
    static int parseWorkers(int parseThreads, int ringSize) {
        return Math.max(1, Math.min(parseThreads, ringSize / 2));
    }

    /** Starts the threads. */
    public void start() {
        for (ParseWorker<T> w : workers) {
            w.thread().start();
        }
        loadThread.start();
        if (watchdog != null) {
            watchdog.thread().start();
        }
    }

    Settings settings() {
        return settings;
    }

    SlotRing ring() {
        return ring;
    }

    OutputPool outputs() {
        return outputs;
    }

    /** Hands slot {@code sequence} back to the load thread and its tensors to the pool, invalidating its views. */
    void release(long sequence) {
        Slot slot = ring.slot(sequence);
        slot.generation++;
        if (slot.outputs != null) {
            outputs.give(slot.outputs);
            slot.outputs = null;
        }
        ring.release(sequence);
    }

    /**
     * Called by each parse worker as it ends. The last one to end after the load thread published
     * the end of the data (or its failure) closes the dataset: nothing reads it any more, so a
     * reader of record files unmaps them here, off the consumer's path, rather than in
     * {@code close()}.
     */
    void workerEnded() {
        if (liveWorkers.decrementAndGet() == 0 && load.finished()) {
            synchronized (this) {
                // Decided under the lock awaitStop interrupts the workers under: a worker that
                // closes the dataset is not interrupted by a close() of the reader meanwhile, which
                // would cut short the dataset's own waits (for its threads, a remote store's clients).
                if (!running()) {
                    return;
                }
                datasetCloser = Thread.currentThread();
            }
            boolean interrupted = Thread.interrupted();
            try {
                closeDataset();
            } catch (RuntimeException e) {
                LOG.warn("reader {}: closing the dataset at the end of the data failed", settings.name(), e);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * Closes the dataset, once: at the end of the data (see {@link #workerEnded}) or, for a reader
     * closed before, by its {@code close()} once the load thread has stopped.
     */
    public void closeDataset() {
        if (datasetClosed.compareAndSet(false, true)) {
            dataset.close();
        }
    }

    // ---- lifecycle ----

    /** Whether the pipeline runs: not stopping or stopped. */
    public boolean running() {
        return (int) STATE.getVolatile(this) == RUNNING;
    }

    /** Whether every parse worker has ended: nothing more will be parsed. */
    boolean finished() {
        return liveWorkers.get() == 0;
    }

    /**
     * Moves the pipeline from running to stopping; true for the one call that does, false for
     * every other (the pipeline was already stopping or stopped). The caller that gets true then
     * calls {@link #awaitStop}.
     */
    public boolean requestStop() {
        return (int) STATE.compareAndExchange(this, RUNNING, STOPPING) == RUNNING;
    }

    /**
     * Stops every thread of a pipeline that {@link #requestStop() is stopping}: halts the ring
     * (every wait ends), interrupts the parse workers (a parser that checks for interruption
     * stops at once; any other at the end of its batch, as a worker looks for the stop before each
     * slot) but the one closing the dataset at the end of the data, and joins each thread until
     * {@code timeout} has passed in all; a thread still running then is interrupted and named in
     * the log.
     *
     * @return true if every thread ended in time
     */
    public boolean awaitStop(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        ring.halt();
        synchronized (this) {
            for (ParseWorker<T> w : workers) {
                if (w.thread() != datasetCloser) {
                    w.thread().interrupt();
                }
            }
        }
        boolean stopped = true;
        for (ParseWorker<T> w : workers) {
            stopped &= Threads.joinIfStarted(w.thread(), deadline);
        }
        stopped &= Threads.joinIfStarted(loadThread, deadline);
        if (watchdog != null) {
            watchdog.wake();
            stopped &= Threads.joinIfStarted(watchdog.thread(), deadline);
        }
        for (ParseWorker<T> w : workers) {
            stopped &= w.closeLoop(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        }
        STATE.setVolatile(this, STOPPED);
        return stopped;
    }

    /** Whether the load thread has ended, so the dataset may be touched from another thread. */
    public boolean loadStopped() {
        return !loadThread.isAlive();
    }

    /** Makes every view of every slot invalid: their memory is about to be freed. */
    public void invalidateSlots() {
        for (int i = 0; i < settings.ringSize(); i++) {
            ring.slot(i).generation++;
        }
    }

    // ---- what the threads counted ----

    /**
     * What the pipeline's threads have counted, each value read at about the same moment.
     *
     * @param samples        the samples the load thread took from the dataset
     * @param payloadBytes   their bytes in their files, for samples that know them
     * @param loadBusyNanos  the load thread's time in the dataset
     * @param loadBlockedNanos the load thread's time waiting for a free slot
     * @param batchesParsed  the batches the parse workers finished
     * @param parseBusyNanos the workers' mean time in the parser
     * @param ringOccupancy  the slots published and not yet released
     * @param elapsedNanos   the time since the pipeline was built
     */
    public record Counts(long samples, long payloadBytes, long loadBusyNanos, long loadBlockedNanos, long batchesParsed,
                         long parseBusyNanos, int ringOccupancy, long elapsedNanos) {
    }

    /** What the threads have counted so far; callable from any thread. */
    public Counts counts() {
        long parsed = 0;
        long busy = 0;
        for (ParseWorker<T> w : workers) {
            parsed += w.batchesParsed();
            busy += w.busyNanos();
        }
        return new Counts(load.samples(), load.payloadBytes(), load.busyNanos(), load.blockedNanos(), parsed,
                busy / workers.size(), ring.occupancy(), System.nanoTime() - startNanos);
    }

    /** The pipeline's threads, for the watchdog's report. */
    List<Thread> threads() {
        List<Thread> threads = new ArrayList<>(List.of(loadThread));
        for (ParseWorker<T> w : workers) {
            threads.add(w.thread());
            threads.addAll(w.helpers());
        }
        return threads;
    }
}
