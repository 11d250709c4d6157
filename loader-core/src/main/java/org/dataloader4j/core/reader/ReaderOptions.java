package org.dataloader4j.core.reader;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.dataset.Checks;

/**
 * How a {@link DataReader} runs: its threads, its ring, its watchdog and where it starts. The one
 * set of reader settings, given to {@link DataReader#of(org.dataloader4j.api.Dataset,
 * org.dataloader4j.api.Parser, ReaderOptions)} and to the part-file readers' builders alike;
 * made by {@link #builder()}, which checks each setting as it is given. The batch size is not
 * among them: a reader takes it from the dataset that batches
 * ({@link org.dataloader4j.core.dataset.BatchingDataset}).
 *
 * @param name            prefix of the reader's thread names ({@code <name>-load},
 *                        {@code <name>-parse-W}, {@code <name>-parse-W-N})
 * @param ringSize        the number of slots, a power of two: how far loading and parsing may run
 *                        ahead of the training loop, and, times the slot size, the memory bound
 * @param parseThreads    the threads that parse: up to {@code ringSize / 2} of them each parse
 *                        whole batches, side by side; any more split those batches by rows
 * @param watchdog        how long without a new batch makes the reader report the stacks of its
 *                        threads, once per stall; {@link Duration#ZERO} for never
 * @param watchdogReport  where the watchdog's reports go; null for the log, at WARN
 * @param checkpointEvery how many batches apart the load thread asks the dataset for its
 *                        state; the reader's state in between is the last one and the batches
 *                        since, which a restore reads again (see {@link DataReader#state()})
 * @param restore         the state to start from, taken from {@link DataReader#state()} of a
 *                        reader over the same data, or a dataset's own; null to start at the
 *                        beginning
 */
public record ReaderOptions(String name, int ringSize, int parseThreads, Duration watchdog,
                            Consumer<String> watchdogReport, int checkpointEvery, DatasetState restore) {

    /** The default of {@code ringSize}. */
    public static final int DEFAULT_RING_SIZE = 8;

    /**
     * The default of {@code checkpointEvery}: the most batches a restore reads again, plus one.
     * A shuffle's state taken every 16 batches of 256 costs about 6 heap bytes per record.
     */
    public static final int DEFAULT_CHECKPOINT_EVERY = 16;

    private static final AtomicInteger READERS = new AtomicInteger();

    /** Checks every setting, with {@code name=value} messages. */
    public ReaderOptions {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        checkRingSize(ringSize);
        Checks.positive("parseThreads", parseThreads);
        checkWatchdog(watchdog);
        Checks.positive("checkpointEvery", checkpointEvery);
    }

    /** The defaults, with a name of its own ({@code reader-N}). */
    public static ReaderOptions defaults() {
        return builder().build();
    }

    /**
     * A builder starting from the defaults: a name of its own ({@code reader-N}), a ring of
     * {@value #DEFAULT_RING_SIZE} slots, one parse thread per processor, no watchdog, a checkpoint
     * every {@value #DEFAULT_CHECKPOINT_EVERY} batches, and the start of the data.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.name = name;
        b.ringSize = ringSize;
        b.parseThreads = parseThreads;
        b.watchdog = watchdog;
        b.watchdogReport = watchdogReport;
        b.checkpointEvery = checkpointEvery;
        b.restore = restore;
        return b;
    }

    private static int checkRingSize(int ringSize) {
        if (ringSize < 1 || Integer.bitCount(ringSize) != 1) {
            throw new IllegalArgumentException("ringSize must be a power of two (1, 2, 4, 8, ...): ringSize=" + ringSize);
        }
        return ringSize;
    }

    private static Duration checkWatchdog(Duration watchdog) {
        if (Objects.requireNonNull(watchdog, "watchdog").isNegative()) {
            throw new IllegalArgumentException("watchdog must not be negative: watchdog=" + watchdog);
        }
        return watchdog;
    }

    /** Builds {@link ReaderOptions}; each setter checks its value at once. Not thread-safe. */
    public static final class Builder {
        private String name;
        private int ringSize = DEFAULT_RING_SIZE;
        private int parseThreads = Runtime.getRuntime().availableProcessors();
        private Duration watchdog = Duration.ZERO;
        private Consumer<String> watchdogReport;
        private int checkpointEvery = DEFAULT_CHECKPOINT_EVERY;
        private DatasetState restore;

        private Builder() {
        }

        /** Prefix of the reader's thread names; by default {@code reader-N}, N counting the readers of this JVM. */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /** The number of slots, a power of two; default {@value ReaderOptions#DEFAULT_RING_SIZE}. */
        public Builder ringSize(int ringSize) {
            this.ringSize = checkRingSize(ringSize);
            return this;
        }

        /**
         * The threads that parse; default the number of processors. Up to {@code ringSize / 2}
         * parse workers each take whole batches, side by side (worker {@code W} is the thread
         * {@code <name>-parse-W}); the threads beyond those split each worker's batches by rows
         * ({@code <name>-parse-W-1}, …).
         */
        public Builder parseThreads(int parseThreads) {
            this.parseThreads = Checks.positive("parseThreads", parseThreads);
            return this;
        }

        /**
         * When no batch has been parsed for {@code timeout} while the ring had room or the caller
         * waited in {@link DataReader#read()}, the reader logs (at WARN) the stacks of its threads
         * and its {@link DataReader#metrics()}, once per stall; a thread named
         * {@code <name>-watchdog} watches. Default: off ({@link Duration#ZERO}).
         */
        public Builder watchdog(Duration timeout) {
            this.watchdog = checkWatchdog(timeout);
            return this;
        }

        /** As {@link #watchdog(Duration)}, handing each report to {@code report} instead of the log. */
        public Builder watchdog(Duration timeout, Consumer<String> report) {
            this.watchdogReport = Objects.requireNonNull(report, "report");
            return watchdog(timeout);
        }

        /**
         * How many batches apart the load thread asks the dataset for its state; default
         * {@value ReaderOptions#DEFAULT_CHECKPOINT_EVERY}. Between two such checkpoints,
         * {@link DataReader#state()} is the last checkpoint and the number of batches since, and
         * a reader restored from it reads those batches again (without parsing them). 1 makes
         * every state the dataset's own, at the cost of taking it after every batch: for a
         * shuffle, a copy of a location per buffered sample.
         */
        public Builder checkpointEvery(int batches) {
            this.checkpointEvery = Checks.positive("checkpointEvery", batches);
            return this;
        }

        /**
         * Starts the reader at {@code state}, taken from {@link DataReader#state()} of a reader
         * over the same data (or a dataset's own state): it continues with the batch after the
         * one the state was taken at.
         */
        public Builder restore(DatasetState state) {
            this.restore = Objects.requireNonNull(state, "state");
            return this;
        }

        /** The options. */
        public ReaderOptions build() {
            return new ReaderOptions(name != null ? name : "reader-" + READERS.incrementAndGet(), ringSize, parseThreads,
                    watchdog, watchdogReport, checkpointEvery, restore);
        }
    }
}
