package org.dataloader4j.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.dataloader4j.core.parallel.BalancedSplitter;

/**
 * Runs one named thread per share of the files, each over a contiguous, balanced run of them
 * (as dataloader4j shards files among ranks), and adds up what they count: how the peers without
 * a runtime of their own use several threads.
 */
final class FileShares {
    private FileShares() {
    }

    /** What one thread did over its files. */
    record Share(long records, long allocatedBytes, double sink) {
    }

    /** The work of one thread over its files. */
    @FunctionalInterface
    interface Work {
        Share run(List<Path> files) throws Exception;
    }

    /**
     * Runs {@code work} on {@code threads} threads named {@code name-0} and up and waits for them.
     * Returns a pass of all records; its allocation is what the threads allocated over all of them.
     */
    static Pass run(List<Path> files, int threads, String name, Work work) throws Exception {
        if (threads > files.size()) {
            throw new IllegalArgumentException("need a file per thread: threads=" + threads + " files=" + files.size());
        }
        BalancedSplitter split = new BalancedSplitter(files.size(), threads);
        Share[] shares = new Share[threads];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> started = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            int i = t;
            List<Path> mine = files.subList((int) split.start(i), (int) split.end(i));
            Thread thread = new Thread(() -> {
                try {
                    shares[i] = work.run(mine);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, name + "-" + i);
            thread.setDaemon(true);
            thread.start();
            started.add(thread);
        }
        for (Thread thread : started) {
            thread.join();
        }
        long nanos = System.nanoTime() - start;
        if (failure.get() != null) {
            throw new IllegalStateException(name + " failed: " + failure.get(), failure.get());
        }
        long records = 0;
        long allocated = 0;
        double sink = 0;
        for (Share s : shares) {
            records += s.records;
            allocated += s.allocatedBytes;
            sink += s.sink;
        }
        Sink.consume(sink);
        return new Pass(records, nanos, -1, allocated, records);
    }
}
