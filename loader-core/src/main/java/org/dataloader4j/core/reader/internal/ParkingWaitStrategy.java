package org.dataloader4j.core.reader.internal;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The pipeline's one {@link WaitStrategy}: how its threads wait for one another, and how each
 * hand-off wakes exactly the thread that can go on.
 *
 * <p>Every wait of the pipeline is a {@link SequenceBarrier#waitFor} on the ring: a parse worker
 * for the load thread to publish its next slot, the consumer for the workers to parse the next
 * one, the load thread for the consumer to release one. A thread that must wait registers
 * itself, with the sequence it waits for and what it waits on, and parks. Each hand-off sets a
 * sequence and then calls {@link #signalAllWhenBlocking()} (the ring's publish does so itself),
 * which unparks only the registered threads whose wait is over (or whose barrier is alerted). The
 * Disruptor's blocking strategy would instead take a lock on every publish and wake every waiter,
 * most only to park again: on two cores that took CPU from the threads doing the work.
 *
 * <p>No wake is lost: a waiter writes its registration, then a full fence, then reads the
 * sequence; a signaller writes the sequence, then a full fence, then reads the registrations.
 * With both fences, one of the two sees the other's write: either the waiter sees the new value
 * and does not park, or the signaller sees the waiter and unparks it (an unpark before the park
 * makes the park return at once). A park is bounded by a backstop, a second line of defence,
 * not a poll; {@code ParkingWaitStrategyTest} runs without it.
 *
 * <p>Thread-safe; holds at most {@code maxWaiters} registrations at once. A waiter beyond that
 * (which the pipeline never has) waits by parking a millisecond at a time.
 */
final class ParkingWaitStrategy implements WaitStrategy {
    /** How long a waiter beyond {@code maxWaiters} parks between looks. */
    private static final long POLL_NANOS = Duration.ofMillis(1).toNanos();

    /** A parked thread: it waits until {@code dependent} reaches {@code sequence}, or its barrier is alerted. */
    private record Waiter(Thread thread, long sequence, Sequence dependent, SequenceBarrier barrier) {
        boolean canGoOn() {
            return dependent.get() >= sequence || barrier.isAlerted();
        }
    }

    private final long backstopNanos;
    private final AtomicReferenceArray<Waiter> waiters;

    /**
     * A strategy for up to {@code maxWaiters} threads waiting at once, each park bounded by
     * {@code backstop}; {@link Duration#ZERO} parks until woken.
     */
    ParkingWaitStrategy(int maxWaiters, Duration backstop) {
        this.waiters = new AtomicReferenceArray<>(maxWaiters);
        this.backstopNanos = backstop.toNanos();
    }

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependent, SequenceBarrier barrier)
            throws AlertException, InterruptedException {
        long available = dependent.get();
        if (available >= sequence) {
            return available;
        }
        Waiter me = new Waiter(Thread.currentThread(), sequence, dependent, barrier);
        int slot = register(me);
        try {
            // The fence of the protocol, waiter's side: the registration before the read below.
            VarHandle.fullFence();
            while ((available = dependent.get()) < sequence) {
                barrier.checkAlert();
                if (Thread.interrupted()) {
                    throw new InterruptedException(me.thread().getName() + " was interrupted waiting for sequence " + sequence);
                }
                if (slot < 0) {
                    LockSupport.parkNanos(this, POLL_NANOS);
                } else if (backstopNanos > 0) {
                    LockSupport.parkNanos(this, backstopNanos);
                } else {
                    LockSupport.park(this);
                }
            }
            return available;
        } finally {
            if (slot >= 0) {
                waiters.set(slot, null);
            }
        }
    }

    /** The slot {@code me} now holds, or -1 if every slot is taken. */
    private int register(Waiter me) {
        for (int i = 0; i < waiters.length(); i++) {
            if (waiters.get(i) == null && waiters.compareAndSet(i, null, me)) {
                return i;
            }
        }
        return -1;
    }

    /** Unparks each registered thread whose wait is over or whose barrier is alerted. */
    @Override
    public void signalAllWhenBlocking() {
        // The fence of the protocol, signaller's side: the caller's sequence write before the
        // reads of the registrations.
        VarHandle.fullFence();
        for (int i = 0; i < waiters.length(); i++) {
            Waiter w = waiters.get(i);
            if (w != null && w.canGoOn()) {
                LockSupport.unpark(w.thread());
            }
        }
    }
}
