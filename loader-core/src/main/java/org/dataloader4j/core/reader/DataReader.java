package org.dataloader4j.core.reader;

import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.OptionalLong;
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
import org.dataloader4j.core.dataset.BatchingDataset;
import org.dataloader4j.core.dataset.ForwardingDataset;
import org.dataloader4j.core.dataset.SkipCorruptDataset;
import org.dataloader4j.core.reader.internal.Delivery;
import org.dataloader4j.core.reader.internal.Pipeline;
import org.dataloader4j.core.reader.internal.ReaderState;
import org.dataloader4j.core.reader.internal.SkipBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a training loop: OneFlow's {@code DataReader}, with parsing moved off the training
 * thread.
 *
 * <p>A load thread drives the {@link Dataset} stack into a ring of {@link ReaderOptions#ringSize()}
 * slots; a parse stage fills preallocated off-heap tensors with each slot's batch, using the
 * {@link Parser}, split over {@link ReaderOptions#parseThreads()} threads; {@link #read()} hands
 * out the parsed batches in order. Each slot holds {@link #capacity()} rows: the batch size of
 * the {@link BatchingDataset} it reads (one row for any other dataset). The tensors, one set per
 * slot, are allocated once, when the reader is opened, from one shared arena that the reader
 * owns and frees in {@link #close()}.
 *
 * <p>{@code read()}, {@code state()} and the batches are for one consuming thread;
 * {@link #close()} may be called from any thread.
 *
 * <pre>{@code
 * try (DataReader reader = DataReader.of(new BatchDataset<>(dataset, 256, false), parser)) {
 *     for (Batch batch : reader) {
 *         train(batch.tensor("images"), batch.tensor("labels"));
 *     }
 * }
 * }</pre>
 *
 * <p>Longer than most classes here: it is the one public face of the runtime, whose every method a
 * training loop may call, each with its contract written out; the work is in {@code internal}.
 */
public final class DataReader implements AutoCloseable, Iterable<Batch> {
    private static final Logger LOG = LoggerFactory.getLogger(DataReader.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final ReaderOptions options;
    private final int capacity;
    private final Dataset<?> dataset;
    /** The parser, closed with the reader if it holds resources of its own. */
    private final Parser<?> parser;
    private final Arena arena;
    private final long offHeapBytes;
    private final Pipeline<?> pipeline;
    private final Delivery delivery;
    private final LongSupplier corruptSkipped;
    private final OptionalLong samplesPerEpoch;
    private final OptionalLong stepsPerEpoch;

    private <T> DataReader(Dataset<T> dataset, Parser<? super T> parser, ReaderOptions options, SkipBudget skips) {
        this.options = options;
        this.dataset = dataset;
        this.parser = parser;
        this.capacity = dataset instanceof BatchingDataset<?> batching ? batching.batchSize() : 1;
        this.corruptSkipped = skips != null ? skips::skipped : ForwardingDataset.find(dataset, SkipCorruptDataset.class)
                .<LongSupplier>map(skip -> skip::skipped).orElse(() -> 0);
        // Taken before the load thread starts: a dataset is for one thread at a time.
        this.samplesPerEpoch = dataset.samplesPerEpoch();
        this.stepsPerEpoch = dataset instanceof BatchingDataset<?> b ? b.stepsPerEpoch() : samplesPerEpoch;
        this.arena = Arena.ofShared();
        long bytesPerSlot = 0;
        try {
            List<TensorSpec> specs = OutputSet.specsOf(parser, capacity);
            for (TensorSpec spec : specs) {
                bytesPerSlot = Math.addExact(bytesPerSlot, spec.byteSize());
            }
            this.offHeapBytes = Math.multiplyExact(bytesPerSlot, (long) options.ringSize());
            long firstStep = 0;
            if (options.restore() != null) {
                firstStep = ReaderState.nextStep(options.restore());
                DatasetState restored = ReaderState.withoutStep(options.restore());
                ReaderState.restore(dataset, skips == null ? restored : skips.restore(restored));
            }
            DatasetState initial = dataset.state();
            Pipeline.Settings settings = new Pipeline.Settings(options.name(), capacity, options.ringSize(),
                    options.parseThreads(), options.watchdog(), options.checkpointEvery(), firstStep);
            Consumer<String> report = options.watchdogReport() != null ? options.watchdogReport() : r -> LOG.warn("{}", r);
            this.pipeline = new Pipeline<>(settings, dataset, initial, parser, specs, arena, report, () -> metrics().toString());
            this.delivery = new Delivery(pipeline, initial, skips);
            pipeline.start();
        } catch (Throwable t) {
            // A reader that fails to start owns nothing afterwards: free what it took.
            arena.close();
            dataset.close();
            closeParser();
            throw t;
        }
        LOG.debug("reader {} started: {} slots of {} rows and {} bytes, {} parse threads",
                options.name(), options.ringSize(), capacity, bytesPerSlot, options.parseThreads());
    }

    /**
     * A reader of {@code dataset}'s batches, parsed by {@code parser}, with the default
     * {@link ReaderOptions}; its threads start at once. The reader owns the dataset and closes it.
     *
     * @throws IllegalArgumentException if the parser's outputs do not fit the batch size
     */
    public static <T> DataReader of(Dataset<T> dataset, Parser<? super T> parser) {
        return of(dataset, parser, ReaderOptions.defaults());
    }

    /**
     * A reader of {@code dataset}'s batches, parsed by {@code parser}, running as {@code options}
     * say; its threads start at once. The reader owns the dataset and closes it, also if it fails
     * to start.
     *
     * @throws IllegalArgumentException if the parser's outputs do not fit the batch size, or the
     *                                  options' state does not fit the dataset
     */
    public static <T> DataReader of(Dataset<T> dataset, Parser<? super T> parser, ReaderOptions options) {
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(parser, "parser");
        Objects.requireNonNull(options, "options");
        return new DataReader(dataset, parser, options, null);
    }

    /**
     * A reader of a dataset whose batches' corrupt records its parse replaces
     * ({@code core.files.RecordBatch}), counting them against {@code skips} as it hands each batch
     * out: {@link FilePipelineBuilder}'s skipping reader of record files.
     */
    static <T> DataReader skipping(Dataset<T> dataset, Parser<? super T> parser, ReaderOptions options, SkipBudget skips) {
        return new DataReader(dataset, parser, options, Objects.requireNonNull(skips, "skips"));
    }

    /**
     * The most samples in a batch, the rows of every slot: the {@link BatchingDataset}'s batch
     * size, or 1 for a dataset that yields one sample per step.
     */
    public int capacity() {
        return capacity;
    }

    /**
     * The samples this reader reads per epoch, where they are known when it opens: a reader of
     * indexed record files (all of its files, or with file sharding only its own), a rank's share
     * of the records under {@link FilePipelineBuilder#distributed} (padding included, the same on
     * every rank), a list. Empty for a stream whose length is known only at its end (compressed
     * TFRecord files, a format's own stream) and where a {@link SkipCorruptDataset} drops corrupt
     * records out of the stream.
     */
    public OptionalLong samplesPerEpoch() {
        return samplesPerEpoch;
    }

    /**
     * The batches one epoch fills, where {@link #samplesPerEpoch()} is known and batches are cut
     * by count ({@link BatchingDataset#stepsPerEpoch()}): {@code ceil(n / batchSize)}, or
     * {@code floor} with {@code dropRemainder}. Under {@link FilePipelineBuilder#distributed} every
     * rank has the same count, so every rank takes the same steps; with file sharding
     * ({@link FilePipelineBuilder#shard}) it is this rank's own, and ranks whose files hold different
     * numbers of records differ. Batches run on across an epoch's end ({@link Batch#epoch(int)}):
     * over {@code E} epochs a reader yields {@code E × n / batchSize} batches, rounded the same
     * way. Empty where the count is not known: a stream, batches grouped by a key.
     */
    public OptionalLong stepsPerEpoch() {
        return stepsPerEpoch;
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
     * @throws org.dataloader4j.api.StorageException if a remote file of this batch could not be
     *                               read: the exception names the file, record and byte offset;
     *                               every later call throws it again
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
     * {@link ReaderOptions.Builder#restore(DatasetState)} of it continues with the next batch.
     * Between the dataset's checkpoints ({@link ReaderOptions#checkpointEvery()}) it is
     * {@code replay{batches=n}/<the last checkpoint>}; see {@link ReaderState}. Around it,
     * {@code step{next=n}} keeps the step of the next batch, so that {@link Batch#index()} goes on
     * counting after a restore; a state without it (a dataset's own, or one saved by an older
     * version) restores with the count starting again at 0.
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
                Duration.ofNanos(c.parseBusyNanos()), Duration.ofNanos(c.elapsedNanos()), parser.toString());
    }

    /**
     * The most off-heap bytes the reader's slots hold: a set of tensors a ring slot, each allocated
     * the first time the ring needs it; 0 once closed.
     */
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
     * Stops the load and parse threads, closes the dataset (if the end of the data has not closed
     * it already: once the last batch is parsed, nothing reads the dataset, and a reader of record
     * files unmaps them then, on a parse thread), frees every slot's memory, and closes the parser
     * if it is {@link AutoCloseable} (a parser holding native decoders).
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
            pipeline.closeDataset();
        } else {
            LOG.error("reader {}: the load thread is still inside the dataset; the dataset is left open", options.name());
        }
        pipeline.invalidateSlots();
        arena.close();
        if (stopped) {
            closeParser();
        }
        if (!stopped) {
            LOG.error("reader {}: some threads did not stop within {}", options.name(), CLOSE_TIMEOUT);
        }
    }

    /** Closes the parser if it holds resources ({@link AutoCloseable}): no thread parses any more. */
    private void closeParser() {
        if (parser instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warn("reader {}: closing the parser failed", options.name(), e);
            }
        }
    }

    private void ensureOpen() {
        if (isClosed()) {
            throw new IllegalStateException("reader " + options.name() + " is closed");
        }
    }

    /** The name and settings. */
    @Override
    public String toString() {
        return "DataReader[" + options + "]";
    }
}
