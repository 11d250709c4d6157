package org.dataloader4j.core.reader;

import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataLoaderException;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.OutputSet;
import org.dataloader4j.core.reader.internal.Delivery;
import org.dataloader4j.core.reader.internal.Pipeline;
import org.dataloader4j.core.reader.internal.ReaderState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a training loop: OneFlow's {@code DataReader}, with parsing moved off the training
 * thread.
 *
 * <p>A load thread drives the {@link Dataset} stack into a ring of {@link ReaderOptions#ringSize()}
 * slots; a parse stage fills preallocated off-heap tensors with each slot's batch, using the
 * {@link Parser}, split over {@link ReaderOptions#parseThreads()} threads; {@link #read()} hands
 * out the parsed batches in order. The tensors, one set per slot, are allocated once, when the
 * reader is built, from one shared arena that the reader owns and frees in {@link #close()}.
 *
 * <p>{@code read()}, {@code state()} and the batches are for one consuming thread;
 * {@link #close()} may be called from any thread.
 *
 * <pre>{@code
 * try (DataReader reader = DataReader.builder(dataset, parser).batchSize(256).build()) {
 *     for (Batch batch : reader) {
 *         train(batch.tensor("images"), batch.tensor("labels"));
 *     }
 * }
 * }</pre>
 */
public final class DataReader implements AutoCloseable, Iterable<Batch> {
    private static final Logger LOG = LoggerFactory.getLogger(DataReader.class);
    private static final AtomicInteger READERS = new AtomicInteger();
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final ReaderOptions options;
    private final Dataset<?> dataset;
    private final Arena arena;
    private final long offHeapBytes;
    private final Pipeline<?> pipeline;
    private final Delivery delivery;
    private final LongSupplier corruptSkipped;

    private <T> DataReader(ReaderOptions options, Dataset<T> dataset, Parser<? super T> parser, DatasetState resume,
                           Consumer<String> watchdogReport, LongSupplier corruptSkipped) {
        this.options = options;
        this.dataset = dataset;
        this.corruptSkipped = corruptSkipped;
        List<TensorSpec> specs = OutputSet.specsOf(parser, options.batchSize());
        long bytesPerSlot = 0;
        for (TensorSpec spec : specs) {
            bytesPerSlot = Math.addExact(bytesPerSlot, spec.byteSize());
        }
        this.offHeapBytes = Math.multiplyExact(bytesPerSlot, (long) options.ringSize());
        this.arena = Arena.ofShared();
        try {
            if (resume != null) {
                ReaderState.restore(dataset, resume);
            }
            DatasetState initial = dataset.state();
            Pipeline.Settings settings = new Pipeline.Settings(options.name(), options.batchSize(), options.ringSize(),
                    options.parseThreads(), options.watchdog(), options.checkpointEvery());
            this.pipeline = new Pipeline<>(settings, dataset, initial, parser, specs, arena, watchdogReport,
                    () -> metrics().toString());
            this.delivery = new Delivery(pipeline, initial);
            pipeline.start();
        } catch (Throwable t) {
            // A reader that fails to start owns nothing afterwards: free what it took.
            arena.close();
            dataset.close();
            throw t;
        }
        LOG.debug("reader {} started: {} slots of {} bytes, {} parse threads",
                options.name(), options.ringSize(), bytesPerSlot, options.parseThreads());
    }

    /** A builder for a reader that parses {@code dataset}'s samples with {@code parser}. */
    public static <T> Builder<T> builder(Dataset<T> dataset, Parser<? super T> parser) {
        return new Builder<>(dataset, parser);
    }

    /** The settings this reader runs with. */
    public ReaderOptions options() {
        return options;
    }

    /**
     * The next batch, waiting until it is parsed; {@code null} at the end of the data. Releases
     * the batch returned before: a batch is valid until the next {@code read()} or its
     * {@link Batch#close()}.
     *
     * @throws CorruptDataException  if the input of this batch is malformed: the exception names
     *                               the file, record and byte offset; every later call throws it
     *                               again
     * @throws DataLoaderException   if loading or parsing failed at this batch for another reason
     *                               (the failure is the cause); every later call throws it again.
     *                               Also if the calling thread is interrupted while it waits; the
     *                               interrupt status stays set and a later call waits for the
     *                               same batch
     * @throws IllegalStateException if the reader is closed
     */
    public Batch read() {
        ensureOpen();
        return delivery.next();
    }

    /**
     * The state as of the last batch {@link #read()} returned, not the load thread's position
     * (which runs ahead by up to the ring size): a reader built with
     * {@link Builder#restore(DatasetState)} of it continues with the next batch. Between the
     * dataset's checkpoints ({@link Builder#checkpointEvery}) it is
     * {@code replay{batches=n}/<the last checkpoint>}; see {@link ReaderState}.
     */
    public DatasetState state() {
        return delivery.state();
    }

    /**
     * What the reader has done so far: samples and bytes read, batches parsed and read, ring
     * occupancy, the time the caller waited inside {@link #read()} (input stall) and the busy time
     * of each stage. Callable from any thread, also after {@link #close()}.
     */
    public ReaderMetrics metrics() {
        Pipeline.Counts c = pipeline.counts();
        return new ReaderMetrics(c.samples(), c.payloadBytes(), corruptSkipped.getAsLong(), c.batchesParsed(),
                delivery.batchesRead(), c.ringOccupancy(), options.ringSize(), Duration.ofNanos(delivery.stallNanos()),
                Duration.ofNanos(c.loadBusyNanos()), Duration.ofNanos(c.loadBlockedNanos()),
                Duration.ofNanos(c.parseBusyNanos()), Duration.ofNanos(c.elapsedNanos()));
    }

    /** The off-heap bytes the reader's slots hold; 0 once closed. */
    public long offHeapBytes() {
        return isClosed() ? 0 : offHeapBytes;
    }

    /**
     * Iterates over the batches until the end of the data. Each batch is valid until the
     * iterator's next {@code hasNext()}; every iterator continues the same stream.
     */
    @Override
    public Iterator<Batch> iterator() {
        return new Iterator<>() {
            private Batch next;
            private boolean done;

            @Override
            public boolean hasNext() {
                if (next == null && !done) {
                    next = read();
                    done = next == null;
                }
                return next != null;
            }

            @Override
            public Batch next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("reader " + options.name() + " is at the end of the data");
                }
                Batch b = next;
                next = null;
                return b;
            }
        };
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return !pipeline.running();
    }

    /**
     * Stops the load and parse threads, closes the dataset and frees every slot's memory.
     * Idempotent; a batch still held becomes invalid. A parse worker stops before its next
     * batch, and at once if the parser checks for interruption; the whole stop waits at most 5 s,
     * after which a thread still running is interrupted and named in the log.
     */
    @Override
    public void close() {
        if (!pipeline.requestStop()) {
            return;
        }
        boolean stopped = pipeline.awaitStop(CLOSE_TIMEOUT);
        if (pipeline.loadStopped()) {
            dataset.close();
        } else {
            LOG.error("reader {}: the load thread is still inside the dataset; the dataset is left open", options.name());
        }
        pipeline.invalidateSlots();
        arena.close();
        if (!stopped) {
            LOG.error("reader {}: some threads did not stop within {}", options.name(), CLOSE_TIMEOUT);
        }
    }

    private void ensureOpen() {
        if (isClosed()) {
            throw new IllegalStateException("reader " + options.name() + " is closed");
        }
    }

    /**
     * Builds a {@link DataReader}; each setter checks its argument at once.
     *
     * @param <T> the sample type
     */
    public static final class Builder<T> {
        private final Dataset<T> dataset;
        private final Parser<? super T> parser;
        private String name = "reader-" + READERS.incrementAndGet();
        private int batchSize = -1;
        private int ringSize = 8;
        private int parseThreads = Runtime.getRuntime().availableProcessors();
        private DatasetState resume;
        private Duration watchdog = Duration.ZERO;
        private int checkpointEvery = ReaderOptions.DEFAULT_CHECKPOINT_EVERY;
        private Consumer<String> watchdogReport = report -> LOG.warn("{}", report);
        private LongSupplier corruptSkipped = () -> 0;

        private Builder(Dataset<T> dataset, Parser<? super T> parser) {
            this.dataset = Objects.requireNonNull(dataset, "dataset");
            this.parser = Objects.requireNonNull(parser, "parser");
        }

        /** Prefix of the thread names; default {@code reader-N}. */
        public Builder<T> name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /** The most samples in a batch (required): the rows every slot holds. */
        public Builder<T> batchSize(int batchSize) {
            this.batchSize = ReaderOptions.checkBatchSize(batchSize);
            return this;
        }

        /** The number of slots, a power of two; default 8. */
        public Builder<T> ringSize(int ringSize) {
            this.ringSize = ReaderOptions.checkRingSize(ringSize);
            return this;
        }

        /**
         * The threads that parse; default the number of processors. Up to {@code ringSize / 2}
         * parse workers each take whole batches, side by side (worker {@code W} is the thread
         * {@code <name>-parse-W}); the threads beyond those split each worker's batches by
         * rows ({@code <name>-parse-W-1}, …).
         */
        public Builder<T> parseThreads(int parseThreads) {
            this.parseThreads = ReaderOptions.checkParseThreads(parseThreads);
            return this;
        }

        /**
         * When no batch has been parsed for {@code timeout} while the ring had room or the caller
         * waited in {@link #read()}, logs (at WARN) the stacks of the reader's threads and its
         * {@link #metrics()}, once per stall; a thread named {@code <name>-watchdog} watches.
         * Default: off ({@link Duration#ZERO}).
         */
        public Builder<T> watchdog(Duration timeout) {
            this.watchdog = ReaderOptions.checkWatchdog(Objects.requireNonNull(timeout, "timeout"));
            return this;
        }

        /**
         * How many batches apart the load thread asks the dataset for its state; default
         * {@value ReaderOptions#DEFAULT_CHECKPOINT_EVERY}. Between two such checkpoints,
         * {@link DataReader#state()} is the last checkpoint and the number of batches since, and
         * a reader restored from it reads those batches again (without parsing them). 1 makes
         * every state the dataset's own, at the cost of taking it after every batch: for a
         * shuffle, a copy of a location per buffered sample.
         */
        public Builder<T> checkpointEvery(int batches) {
            this.checkpointEvery = ReaderOptions.checkCheckpointEvery(batches);
            return this;
        }

        /** As {@link #watchdog(Duration)}, handing each report to {@code report} instead of the log. */
        public Builder<T> watchdog(Duration timeout, Consumer<String> report) {
            this.watchdogReport = Objects.requireNonNull(report, "report");
            return watchdog(timeout);
        }

        /**
         * Where {@link #metrics()} reads the number of corrupt records skipped: the
         * {@code skipped()} of the stack's {@code SkipCorruptDataset}, read from any thread.
         * Default: none skipped.
         */
        public Builder<T> corruptSkipped(LongSupplier count) {
            this.corruptSkipped = Objects.requireNonNull(count, "count");
            return this;
        }

        /**
         * Restores the dataset to {@code state} (from {@link DataReader#state()}, or a dataset's
         * own state) before reading.
         */
        public Builder<T> restore(DatasetState state) {
            this.resume = Objects.requireNonNull(state, "state");
            return this;
        }

        /**
         * Allocates the slots and starts the threads.
         *
         * @throws IllegalArgumentException if the batch size is not set or the parser's outputs
         *                                  do not fit it
         */
        public DataReader build() {
            if (batchSize < 0) {
                throw new IllegalArgumentException("batchSize must be set");
            }
            return new DataReader(new ReaderOptions(name, batchSize, ringSize, parseThreads, watchdog, checkpointEvery), dataset, parser, resume,
                    watchdogReport, corruptSkipped);
        }
    }

    /** The name and settings. */
    @Override
    public String toString() {
        return "DataReader[" + options + "]";
    }
}
