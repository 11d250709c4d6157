package org.dataloader4j.core.reader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The wake protocol, with the backstop park turned off: a lost wake leaves a thread parked for
 * good, and the test fails by its timeout.
 */
class ParkingWaitStrategyTest {
    /** Parks until woken: no backstop hides a lost wake. */
    private static final Duration NO_BACKSTOP = Duration.ZERO;

    /** A slot of the test ring: the value its producer wrote, and what its worker made of it. */
    private static final class Cell {
        long value;
        long parsed;
    }

    /**
     * The pipeline's three waits, wired as the reader wires them, over many tight hand-offs: a
     * producer publishes into a small ring, {@code workers} threads take every {@code workers}-th
     * slot, and a consumer waits for each slot in order and releases it, which gates the
     * producer. Every thread parks whenever it must wait.
     */
    @ParameterizedTest(name = "ring {0}, {1} workers")
    @CsvSource({"1, 1", "2, 1", "2, 2", "4, 3", "8, 4"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void noWakeIsLostAcrossManyHandOffs(int ringSize, int workers) throws Exception {
        long total = 100_000;
        ParkingWaitStrategy waits = new ParkingWaitStrategy(workers + 2, NO_BACKSTOP);
        RingBuffer<Cell> ring = RingBuffer.createSingleProducer(Cell::new, ringSize, waits);
        Sequence released = new Sequence();
        ring.addGatingSequences(released);
        SequenceBarrier published = ring.newBarrier();
        SequenceBarrier free = ring.newBarrier(released);
        Sequence[] done = new Sequence[workers];
        for (int w = 0; w < workers; w++) {
            done[w] = new Sequence(w - 1);
        }
        SequenceBarrier parsed = ring.newBarrier(done);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        threads.add(thread("producer", failure, () -> {
            for (long s = 0; s < total; s++) {
                free.waitFor(s - ringSize);
                long claimed = ring.next();
                ring.get(claimed).value = claimed * 3;
                ring.publish(claimed);
            }
        }));
        for (int w = 0; w < workers; w++) {
            int index = w;
            threads.add(thread("worker-" + w, failure, () -> {
                for (long s = index; s < total; s += workers) {
                    published.waitFor(s);
                    Cell cell = ring.get(s);
                    cell.parsed = cell.value + 1;
                    done[index].set(s + workers - 1);
                    waits.signalAllWhenBlocking();
                }
            }));
        }
        threads.forEach(Thread::start);
        for (long s = 0; s < total; s++) {
            parsed.waitFor(s);
            assertEquals(s * 3 + 1, ring.get(s).parsed, "slot " + s);
            released.set(s);
            waits.signalAllWhenBlocking();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(null, failure.get());
    }

    @Test
    @Timeout(10)
    void anAlertWakesAParkedWaiter() throws Exception {
        ParkingWaitStrategy waits = new ParkingWaitStrategy(2, NO_BACKSTOP);
        RingBuffer<Cell> ring = RingBuffer.createSingleProducer(Cell::new, 4, waits);
        SequenceBarrier published = ring.newBarrier();
        CompletableFuture<Throwable> woken = CompletableFuture.supplyAsync(() -> {
            try {
                published.waitFor(0);
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        awaitParked(woken);
        published.alert();
        assertInstanceOf(AlertException.class, woken.get());
    }

    @Test
    @Timeout(10)
    void anInterruptEndsTheWait() throws Exception {
        ParkingWaitStrategy waits = new ParkingWaitStrategy(2, NO_BACKSTOP);
        RingBuffer<Cell> ring = RingBuffer.createSingleProducer(Cell::new, 4, waits);
        SequenceBarrier published = ring.newBarrier();
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                published.waitFor(0);
            } catch (Throwable t) {
                ended.set(t);
            }
        }, "interrupted-waiter");
        waiter.start();
        while (waiter.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        waiter.interrupt();
        waiter.join();
        assertInstanceOf(InterruptedException.class, ended.get());
    }

    @Test
    @Timeout(10)
    void aWaiterPastTheLimitStillGetsItsSlot() throws Exception {
        // One registration for two waiters: the second polls, and both see the publish.
        ParkingWaitStrategy waits = new ParkingWaitStrategy(1, NO_BACKSTOP);
        RingBuffer<Cell> ring = RingBuffer.createSingleProducer(Cell::new, 4, waits);
        SequenceBarrier published = ring.newBarrier();
        CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> waitFor(published, 0));
        CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> waitFor(published, 0));
        LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        ring.publish(ring.next());
        assertTrue(first.get() >= 0 && second.get() >= 0);
    }

    private static long waitFor(SequenceBarrier barrier, long sequence) {
        try {
            return barrier.waitFor(sequence);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits until the future's thread has parked: the wait has begun. */
    private static void awaitParked(CompletableFuture<?> future) {
        while (!future.isDone() && Thread.getAllStackTraces().entrySet().stream()
                .noneMatch(e -> e.getKey().getState() == Thread.State.WAITING
                        && LockSupport.getBlocker(e.getKey()) instanceof ParkingWaitStrategy)) {
            Thread.onSpinWait();
        }
    }

    /** A daemon thread running {@code body}, keeping its first failure in {@code failure}. */
    private static Thread thread(String name, AtomicReference<Throwable> failure, ThrowingRunnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "wait-test-" + name);
        t.setDaemon(true);
        return t;
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
