package org.dataloader4j.core.reader;

import java.time.Duration;
import java.util.Objects;
import org.dataloader4j.core.dataset.Checks;

/**
 * The settings of a {@link DataReader}; made by {@link DataReader.Builder}.
 *
 * @param name         prefix of the reader's thread names ({@code <name>-load}, {@code <name>-parse-W},
 *                     {@code <name>-parse-W-N})
 * @param batchSize    the most samples in one batch: the rows every slot's tensors hold
 * @param ringSize     the number of slots, a power of two: how far loading and parsing may run
 *                     ahead of the training loop, and, times the slot size, the memory bound
 * @param parseThreads the threads that parse: up to {@code ringSize / 2} of them each parse
 *                     whole batches, side by side; any more split those batches by rows
 * @param watchdog     how long without a new batch makes the reader report the stacks of its
 *                     threads, once per stall; {@link Duration#ZERO} for never
 * @param checkpointEvery how many batches apart the load thread asks the dataset for its
 *                     state; the reader's state in between is the last one and the batches
 *                     since, which a restore reads again (see {@link DataReader#state()})
 */
public record ReaderOptions(String name, int batchSize, int ringSize, int parseThreads, Duration watchdog,
                            int checkpointEvery) {

    /**
     * The default of {@code checkpointEvery}: the most batches a restore reads again, plus one.
     * A shuffle's state taken every 16 batches of 256 costs about 6 heap bytes per record.
     */
    public static final int DEFAULT_CHECKPOINT_EVERY = 16;

    /** Checks every setting, with {@code name=value} messages. */
    public ReaderOptions {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        checkBatchSize(batchSize);
        checkRingSize(ringSize);
        checkParseThreads(parseThreads);
        checkWatchdog(watchdog);
        checkCheckpointEvery(checkpointEvery);
    }

    /** Returns {@code checkpointEvery}, or throws if it is not {@code > 0}. */
    public static int checkCheckpointEvery(int checkpointEvery) {
        return Checks.positive("checkpointEvery", checkpointEvery);
    }

    /** Returns {@code watchdog}, or throws if it is negative. */
    public static Duration checkWatchdog(Duration watchdog) {
        if (watchdog.isNegative()) {
            throw new IllegalArgumentException("watchdog must not be negative: watchdog=" + watchdog);
        }
        return watchdog;
    }

    /** Returns {@code batchSize}, or throws if it is not {@code > 0}. */
    public static int checkBatchSize(int batchSize) {
        return Checks.positive("batchSize", batchSize);
    }

    /** Returns {@code ringSize}, or throws if it is not a power of two. */
    public static int checkRingSize(int ringSize) {
        if (ringSize < 1 || Integer.bitCount(ringSize) != 1) {
            throw new IllegalArgumentException("ringSize must be a power of two (1, 2, 4, 8, ...): ringSize=" + ringSize);
        }
        return ringSize;
    }

    /** Returns {@code parseThreads}, or throws if it is not {@code > 0}. */
    public static int checkParseThreads(int parseThreads) {
        return Checks.positive("parseThreads", parseThreads);
    }
}
