package org.dataloader4j.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Heap bytes allocated by chosen threads, from {@code com.sun.management.ThreadMXBean}: what a
 * pipeline's threads allocate per record in steady state.
 */
public final class ThreadAllocation {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private ThreadAllocation() {
    }

    /** The ids of the live threads whose names start with {@code prefix}, and of the calling thread. */
    public static long[] threadsNamed(String prefix) {
        List<Long> ids = new ArrayList<>();
        ids.add(Thread.currentThread().threadId());
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds(), 0)) {
            if (info != null && info.getThreadName().startsWith(prefix)) {
                ids.add(info.getThreadId());
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    /** The bytes the threads {@code ids} have allocated so far, or -1 if one of them has ended. */
    public static long allocated(long[] ids) {
        long total = 0;
        for (long bytes : THREADS.getThreadAllocatedBytes(ids)) {
            if (bytes < 0) {
                return -1;
            }
            total += bytes;
        }
        return total;
    }

    /** The bytes the calling thread has allocated so far. */
    public static long allocatedByCurrentThread() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
