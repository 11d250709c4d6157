package org.dataloader4j.core.reader.internal;

import java.time.Duration;
import java.util.List;
import org.dataloader4j.api.DataLoaderException;
import org.dataloader4j.api.Parser;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.core.parallel.Threads;

/**
 * One parse worker: a thread that parses every {@code W}-th slot of the ring, in order, over a
 * {@link MultiThreadLoop} of its own, so that whole batches are parsed side by side with no
 * meeting per batch.
 *
 * <p>For each of its slots it waits until the slot is published, parses its samples into a set
 * of tensors from the pool (unless the slot holds the end or a load failure), and hands it on
 * to the consumer ({@link SlotRing#handOn}). A slot that ends the stream, the end of the data or
 * a failure, is handed on the same way, and the worker ends.
 *
 * <p>It looks for the pipeline's stop before each slot, so a stop waits for one batch at most; a
 * stop also interrupts the thread, so a parser that checks for interruption ends sooner. What it
 * throws once the pipeline is stopping is no failure of the data, and is dropped.
 *
 * <p>Its counters are written by its thread alone and read by any ({@code volatile}).
 *
 * @param <T> the sample type
 */
final class ParseWorker<T> implements Runnable {
    private final Pipeline<T> pipeline;
    private final SlotRing ring;
    private final int index;
    private final int stride;
    private final Parser<? super T> parser;
    private final MultiThreadLoop loop;
    private final Thread thread;

    private volatile long batchesParsed;
    private volatile long busyNanos;

    /** Worker {@code index} of the pipeline's, parsing over {@code threads} threads named after {@code name}. */
    ParseWorker(Pipeline<T> pipeline, int index, int threads, Parser<? super T> parser, String name) {
        this.pipeline = pipeline;
        this.ring = pipeline.ring();
        this.index = index;
        this.stride = ring.workers();
        this.parser = parser;
        this.loop = new MultiThreadLoop(name, threads);
        this.thread = Threads.daemon(this, name);
    }

    @Override
    public void run() {
        try {
            for (long next = index; ring.awaitPublished(next); next += stride) {
                Slot slot = ring.slot(next);
                // Decided before the hand-off: once it is handed on, the consumer may release the
                // slot and the load thread refill it.
                boolean last = slot.failure != null || slot.end || !parse(slot);
                if (!pipeline.running()) {
                    return;
                }
                ring.handOn(next, last);
                if (last) {
                    return;
                }
            }
        } catch (Throwable t) {
            if (pipeline.running()) {
                ring.fail(t);
            }
        } finally {
            pipeline.workerEnded();
        }
    }

    /** Parses {@code slot}'s samples into a set of tensors from the pool; false if it failed, the failure stored in the slot. */
    @SuppressWarnings("unchecked")
    private boolean parse(Slot slot) {
        long start = System.nanoTime();
        try {
            List<T> samples = (List<T>) slot.samples;
            slot.outputs = pipeline.outputs().take();
            parser.parse(samples, new SlotView(slot, samples.size(), pipeline.settings().capacity(), null), loop);
            batchesParsed++;
            return true;
        } catch (Throwable t) {
            // The JVM reports a fault reading a mapping whose file shrank after it was mapped as an
            // InternalError; name the likely cause rather than hand the caller a bare JVM error.
            slot.fail("parse", t instanceof InternalError
                    ? new DataLoaderException("the JVM failed to read input memory while batch " + slot.index
                            + " was parsed; a memory-mapped file that shrinks while being read does this", t)
                    : t);
            return false;
        } finally {
            busyNanos += System.nanoTime() - start;
        }
    }

    Thread thread() {
        return thread;
    }

    /** The loop's helper threads (the worker's own thread runs the first range). */
    List<Thread> helpers() {
        return loop.threads();
    }

    /** Stops the loop's helpers, waiting up to {@code timeout}; true if they ended. */
    boolean closeLoop(Duration timeout) {
        return loop.close(timeout);
    }

    long batchesParsed() {
        return batchesParsed;
    }

    long busyNanos() {
        return busyNanos;
    }
}
