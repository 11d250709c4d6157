package org.dataloader4j.benchmarks;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * The CPU time of every thread this process has run, those that have ended included: Linux's
 * {@code clock_gettime(CLOCK_PROCESS_CPUTIME_ID)}, to the nanosecond. The JDK's own
 * {@code OperatingSystemMXBean.getProcessCpuTime} counts in the kernel's clock ticks there
 * (10 ms), too coarse for a pass of tens of milliseconds, and {@code ThreadMXBean} loses a
 * thread's time when it ends, as a reader's threads do at the end of each pass.
 *
 * <p>The kernel brings a thread's time up to date when it stops running and at its ticks, so a
 * thread that is running on another core when this is read is counted up to a tick (1–10 ms)
 * short; that time then falls into the next reading. Over a pass whose threads have all ended,
 * only the threads that outlive it (the JIT compiler's, the collector's) can shift a tick.
 */
final class ProcessCpu {
    /** Linux's {@code CLOCK_PROCESS_CPUTIME_ID}. */
    private static final int CLOCK_PROCESS_CPUTIME_ID = 2;
    /** {@code clock_gettime}, or null where this is not Linux or native calls are not allowed. */
    private static final MethodHandle CLOCK_GETTIME = clockGettime();

    private ProcessCpu() {
    }

    /** The process's CPU time so far in nanoseconds, or -1 where it cannot be read here. */
    static long nanos() {
        if (CLOCK_GETTIME == null) {
            return -1;
        }
        try (Arena arena = Arena.ofConfined()) {
            // struct timespec: two longs on a 64-bit Linux, seconds and nanoseconds.
            MemorySegment timespec = arena.allocate(ValueLayout.JAVA_LONG, 2);
            int rc = (int) CLOCK_GETTIME.invokeExact(CLOCK_PROCESS_CPUTIME_ID, timespec);
            if (rc != 0) {
                return -1;
            }
            return timespec.getAtIndex(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L
                    + timespec.getAtIndex(ValueLayout.JAVA_LONG, 1);
        } catch (Throwable t) {
            return -1;
        }
    }

    @SuppressWarnings("restricted")
    private static MethodHandle clockGettime() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
                || ValueLayout.ADDRESS.byteSize() != 8) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("clock_gettime")
                    .map(f -> linker.downcallHandle(f, FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                            ValueLayout.ADDRESS)))
                    .orElse(null);
        } catch (RuntimeException e) {
            // Native access denied (--enable-native-access names other modules): no CPU time.
            return null;
        }
    }
}
