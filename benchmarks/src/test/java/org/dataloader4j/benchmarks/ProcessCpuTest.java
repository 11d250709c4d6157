package org.dataloader4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ProcessCpu: the process's CPU time counts a thread that has ended, as a reader's threads end with
 * each pass; where it cannot be read, it says so with -1.
 */
class ProcessCpuTest {
    @Test
    @Timeout(60)
    void countsTheCpuTimeOfAThreadThatHasEnded() throws Exception {
        long before = ProcessCpu.nanos();
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            assertEquals(-1, before, "read where only Linux's clock is known");
            return;
        }
        assertTrue(before > 0, "this JVM has run for some CPU time");
        long[] spent = new long[1];
        Thread burner = new Thread(() -> {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long start = threads.getCurrentThreadCpuTime();
            long now = start;
            while (now - start < 50_000_000) {
                now = threads.getCurrentThreadCpuTime();
            }
            spent[0] = now - start;
        }, "process-cpu-test-burner");
        burner.start();
        burner.join();
        long after = ProcessCpu.nanos();
        // Every nanosecond the ended thread ran falls between the two readings; other threads'
        // time only adds to the difference.
        assertTrue(after - before >= spent[0], (after - before) + " ns of the process against " + spent[0]
                + " ns of one of its threads");
    }
}
