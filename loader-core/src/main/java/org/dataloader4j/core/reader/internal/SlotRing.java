package org.dataloader4j.core.reader.internal;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.TimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Disruptor ring of {@link Slot}s between a reader's threads, and every hand-off across it.
 *
 * <p>One producer, the load thread, claims and publishes slots; {@code W} parse workers take
 * them, worker {@code w} the slots of sequences {@code w, w + W, …}; the consumer takes them in
 * order and releases them. Each waits on a {@link SequenceBarrier} of the ring, all through one
 * {@link ParkingWaitStrategy}:
 * <ul>
 *   <li>a worker on the ring's cursor ({@link #awaitPublished});</li>
 *   <li>the consumer on the workers' sequences ({@link #awaitParsed}): after slot {@code s},
 *       worker {@code w} sets its sequence to {@code s + W - 1}, one less than its next slot, so
 *       the minimum over the workers is the last slot up to which every slot is parsed;</li>
 *   <li>the load thread on the consumer's release sequence, which also gates the ring
 *       ({@link #awaitFree}).</li>
 * </ul>
 * {@link #halt()} alerts every barrier, as the Disruptor's {@code BatchEventProcessor.halt()}
 * does; so do the end of the stream (for the workers past it and the load thread) and a failure
 * outside any slot (for everyone).
 */
final class SlotRing {
    /** How long a parked thread waits before it looks again, should a wake ever be lost. */
    static final Duration BACKSTOP = Duration.ofMillis(50);

    private final int size;
    private final ParkingWaitStrategy waits;
    private final RingBuffer<Slot> ring;
    private final Sequence released = new Sequence();
    private final Sequence[] done;
    private final SequenceBarrier published;
    private final SequenceBarrier parsed;
    private final SequenceBarrier free;
    /** The sequence of the first slot that ends the stream (its end or a failure); none yet: MAX_VALUE. */
    private final AtomicLong end = new AtomicLong(Long.MAX_VALUE);
    private volatile boolean halted;
    private volatile Throwable fatal;
    /** Set while the consumer waits for a slot, for the watchdog. */
    private volatile boolean consumerWaiting;

    /** A ring of {@code size} slots (a power of two) for {@code workers} parse workers. */
    SlotRing(int size, int workers) {
        this.size = size;
        // Each worker, the load thread and the consumer may wait at once.
        this.waits = new ParkingWaitStrategy(workers + 2, BACKSTOP);
        this.ring = RingBuffer.createSingleProducer(Slot::new, size, waits);
        ring.addGatingSequences(released);
        this.done = new Sequence[workers];
        for (int w = 0; w < workers; w++) {
            // Before its first slot, w, every slot of worker w's up to w - 1 (none) is parsed.
            done[w] = new Sequence(w - 1);
        }
        this.published = ring.newBarrier();
        this.parsed = ring.newBarrier(done);
        this.free = ring.newBarrier(released);
    }

    int size() {
        return size;
    }

    int workers() {
        return done.length;
    }

    Slot slot(long sequence) {
        return ring.get(sequence);
    }

    // ---- the load thread ----

    /**
     * Waits until slot {@code sequence} may be claimed: the consumer has released the slot it reuses.
     *
     * @return false if the ring was halted or the stream ended first, or the thread was interrupted
     */
    boolean awaitFree(long sequence) {
        try {
            free.waitFor(sequence - size);
            return true;
        } catch (AlertException | InterruptedException | TimeoutException e) {
            return false;
        }
    }

    /** Claims the next slot; {@link #awaitFree} made room, so this does not wait. */
    long claim() {
        return ring.next();
    }

    /** Publishes slot {@code sequence}, waking its worker if it waits. */
    void publish(long sequence) {
        ring.publish(sequence);
    }

    // ---- the parse workers ----

    /**
     * Waits until slot {@code sequence} is published.
     *
     * @return false if the ring was halted or failed, or the stream ends before {@code sequence}
     * @throws IllegalStateException if the thread is interrupted while the ring runs
     */
    boolean awaitPublished(long sequence) {
        try {
            published.waitFor(sequence);
            return true;
        } catch (AlertException e) {
            // Alerted by the end of the stream, the slots up to it are all published.
            return !halted && fatal == null && sequence <= end.get() && ring.getCursor() >= sequence;
        } catch (InterruptedException e) {
            if (!halted) {
                throw new IllegalStateException(Thread.currentThread().getName() + " was interrupted", e);
            }
            return false;
        } catch (TimeoutException e) {
            throw new IllegalStateException("the ring's waits have no timeout", e);
        }
    }

    /** Worker {@code worker}'s sequence: every slot of its up to this one is parsed. */
    Sequence done(int worker) {
        return done[worker];
    }

    /**
     * Hands slot {@code sequence} on from its worker; if the slot ends the stream ({@code last}:
     * its end, or a failure), the workers stop past it and so does the load thread, which has
     * nothing more to do.
     */
    void handOn(long sequence, boolean last) {
        if (last) {
            end.accumulateAndGet(sequence, Math::min);
            published.alert();
            free.alert();
        }
        done[(int) (sequence % done.length)].set(sequence + done.length - 1);
        waits.signalAllWhenBlocking();
    }

    // ---- the consumer ----

    /** Whether slot {@code sequence} is parsed (or ends the stream), without waiting. */
    boolean isParsed(long sequence) {
        return parsed.getCursor() >= sequence;
    }

    /**
     * Waits until slot {@code sequence} is parsed (or ends the stream).
     *
     * @throws AlertException       if the ring was halted or failed meanwhile
     * @throws InterruptedException if the calling thread is interrupted
     */
    void awaitParsed(long sequence) throws AlertException, InterruptedException {
        consumerWaiting = true;
        try {
            parsed.waitFor(sequence);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the ring's waits have no timeout", e);
        } finally {
            consumerWaiting = false;
        }
    }

    /** Hands slot {@code sequence} back to the load thread. */
    void release(long sequence) {
        released.set(sequence);
        waits.signalAllWhenBlocking();
    }

    // ---- stops and failures ----

    /** Ends every wait, now and from now on. */
    void halt() {
        halted = true;
        alertAll();
    }

    /** Records a failure outside any slot (a bug, not bad data) and ends every wait. */
    void fail(Throwable t) {
        fatal = t;
        alertAll();
    }

    private void alertAll() {
        published.alert();
        free.alert();
        parsed.alert();
    }

    /** The failure outside any slot, if one happened. */
    Throwable fatal() {
        return fatal;
    }

    // ---- for metrics and the watchdog ----

    /** The slots published and not yet released. */
    int occupancy() {
        long published = ring.getCursor() + 1;
        return (int) Math.max(0, Math.min(size, published - (released.get() + 1)));
    }

    /** The workers' sequences added up: it grows with every slot parsed. */
    long progress() {
        long sum = 0;
        for (Sequence s : done) {
            sum += s.get();
        }
        return sum;
    }

    /** Whether the ring had room or the consumer waited: a stall the watchdog reports. */
    boolean starved() {
        return consumerWaiting || ring.hasAvailableCapacity(1);
    }
}
