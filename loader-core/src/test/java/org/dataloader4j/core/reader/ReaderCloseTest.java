package org.dataloader4j.core.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.ForwardingDataset;
import org.dataloader4j.core.dataset.ListDataset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link DataReader#close()} stops its parse workers at the next batch, not after every batch
 * already in the ring: with a slow parser, close() returns within one parse of a batch, leaves no
 * thread behind and logs nothing at ERROR.
 */
@Timeout(60)
class ReaderCloseTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    /** What close() may take beyond one parse: stopping threads, not parsing batches. */
    private static final long SLACK_MILLIS = 1_000;

    private final String name = "close-" + NAMES.incrementAndGet();

    @AfterEach
    void noThreadOutlivesItsReader() {
        assertEquals(List.of(), LiveThreads.named(name + "-"));
    }

    /** Parses as {@link IntParser} does, after sleeping {@code millis} per batch; interrupts do not cut the sleep short. */
    private static final class SlowParser implements Parser<Integer> {
        private final IntParser parser = new IntParser();
        private final long millis;

        SlowParser(long millis) {
            this.millis = millis;
        }

        @Override
        public List<TensorSpec> outputs(int batchCapacity) {
            return parser.outputs(batchCapacity);
        }

        @Override
        public void parse(List<? extends Integer> samples, Batch out, ParallelLoop loop) {
            long until = System.nanoTime() + Duration.ofMillis(millis).toNanos();
            boolean interrupted = false;
            for (long left; (left = until - System.nanoTime()) > 0; ) {
                try {
                    Thread.sleep(Duration.ofNanos(left));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            parser.parse(samples, out, loop);
        }
    }

    private static BatchDataset<Integer> batches() {
        return new BatchDataset<>(ListDataset.of(IntStream.range(0, 4_000).boxed().toList()), 4, false);
    }

    @ParameterizedTest(name = "parse {0} ms, ring {1}, {2} parse threads")
    @CsvSource({"150, 8, 1", "600, 16, 2", "300, 16, 4"})
    void closeWaitsForOneBatchAtMostAndLogsNoError(long parseMillis, int ringSize, int parseThreads) {
        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        long took;
        long parsed;
        try {
            DataReader reader = DataReader.of(batches(), new SlowParser(parseMillis), ReaderOptions.builder().name(name)
                    .ringSize(ringSize).parseThreads(parseThreads).build());
            assertNotNull(reader.read());
            long start = System.nanoTime();
            reader.close();
            took = Duration.ofNanos(System.nanoTime() - start).toMillis();
            parsed = reader.metrics().batchesParsed();
        } finally {
            System.setErr(err);
        }
        String logged = log.toString(StandardCharsets.UTF_8);
        assertFalse(logged.contains("ERROR"), logged);
        assertTrue(took < parseMillis + SLACK_MILLIS, "close() took " + took + " ms with a parse of " + parseMillis + " ms");
        // The workers parse side by side: when the first batch came out each had parsed one and
        // started the next, which close() lets it finish; the rest of the ring is never parsed.
        int workers = Math.min(parseThreads, ringSize / 2);
        assertTrue(parsed <= 2L * workers, parsed + " batches parsed by " + workers + " workers");
    }

    @Test
    void aParserThatChecksForInterruptionStopsAtOnce() throws InterruptedException {
        AtomicInteger interrupted = new AtomicInteger();
        CountDownLatch sleeping = new CountDownLatch(1);
        Parser<Integer> sleepy = new Parser<>() {
            private final IntParser parser = new IntParser();

            @Override
            public List<TensorSpec> outputs(int batchCapacity) {
                return parser.outputs(batchCapacity);
            }

            @Override
            public void parse(List<? extends Integer> samples, Batch out, ParallelLoop loop) {
                if (!samples.contains(0)) {
                    sleeping.countDown();
                    try {
                        Thread.sleep(Duration.ofMinutes(1));
                    } catch (InterruptedException e) {
                        interrupted.incrementAndGet();
                        throw new IllegalStateException("interrupted", e);
                    }
                }
                parser.parse(samples, out, loop);
            }
        };
        DataReader reader = DataReader.of(batches(), sleepy,
                ReaderOptions.builder().name(name).parseThreads(2).build());
        assertNotNull(reader.read());
        sleeping.await();
        long start = System.nanoTime();
        reader.close();
        long took = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertTrue(took < SLACK_MILLIS, "close() took " + took + " ms");
        assertTrue(interrupted.get() >= 1, "the sleeping parser was interrupted");
        assertTrue(reader.isClosed());
    }
    /** {@code upstream}, noting each close and the thread that made it, and running a hook in close. */
    private static final class ClosingWatched<T> extends ForwardingDataset<T> {
        private final List<String> closedBy = new CopyOnWriteArrayList<>();
        private final Runnable onClose;

        ClosingWatched(Dataset<T> upstream) {
            this(upstream, () -> { });
        }

        ClosingWatched(Dataset<T> upstream, Runnable onClose) {
            super(upstream);
            this.onClose = onClose;
        }

        @Override
        public List<T> next() {
            return upstream().next();
        }

        @Override
        public DatasetState state() {
            return upstream().state();
        }

        @Override
        public void restore(DatasetState state) {
            upstream().restore(state);
        }

        @Override
        public void close() {
            closedBy.add(Thread.currentThread().getName());
            onClose.run();
            super.close();
        }
    }

    /**
     * Once the last batch is parsed nothing reads the dataset, so a parse worker closes it then
     * (a reader of record files unmaps its files there, not on the training thread's close()),
     * and close() does not close it again.
     */
    @Test
    void theEndOfTheDataClosesTheDatasetOnAParseThreadAndOnce() throws InterruptedException {
        ClosingWatched<Integer> watched = new ClosingWatched<>(ListDataset.of(IntStream.range(0, 100).boxed().toList()));
        DataReader reader = DataReader.of(new BatchDataset<>(watched, 4, false), new IntParser(),
                ReaderOptions.builder().name(name).ringSize(4).parseThreads(2).build());
        int batches = 0;
        while (reader.read() != null) {
            batches++;
        }
        assertEquals(25, batches);
        // The last worker closes it as it ends, which may be just after read() saw the end.
        while (watched.closedBy.isEmpty()) {
            Thread.sleep(1);
        }
        assertTrue(watched.closedBy.get(0).startsWith(name + "-parse-"), watched.closedBy.toString());
        reader.close();
        assertEquals(1, watched.closedBy.size(), watched.closedBy.toString());
    }

    /**
     * A reader closed while its last worker closes the dataset at the end of the data leaves that
     * close uninterrupted, and waits for it: a dataset's close may wait for threads of its own or
     * a remote store's clients, which an interrupt would cut short and leave running.
     */
    @Test
    void closeDoesNotInterruptTheWorkerClosingTheDataset() throws InterruptedException {
        CountDownLatch closing = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean interrupted = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
        ClosingWatched<Integer> slowToClose = new ClosingWatched<>(ListDataset.of(IntStream.range(0, 40).boxed().toList()),
                () -> {
                    closing.countDown();
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                    }
                    closed.set(true);
                });
        DataReader reader = DataReader.of(new BatchDataset<>(slowToClose, 4, false), new IntParser(),
                ReaderOptions.builder().name(name).ringSize(4).parseThreads(2).build());
        while (reader.read() != null) {
            // to the end
        }
        closing.await();
        reader.close();
        assertTrue(closed.get(), "close() returned after the dataset's close");
        assertFalse(interrupted.get(), "the worker closing the dataset was interrupted");
    }

    @Test
    void aReaderClosedBeforeTheEndClosesTheDatasetInClose() {
        ClosingWatched<Integer> watched = new ClosingWatched<>(ListDataset.of(IntStream.range(0, 4_000).boxed().toList()));
        DataReader reader = DataReader.of(new BatchDataset<>(watched, 4, false), new IntParser(),
                ReaderOptions.builder().name(name).ringSize(4).parseThreads(2).build());
        assertNotNull(reader.read());
        assertEquals(List.of(), watched.closedBy);
        reader.close();
        assertEquals(List.of(Thread.currentThread().getName()), watched.closedBy);
    }
}
