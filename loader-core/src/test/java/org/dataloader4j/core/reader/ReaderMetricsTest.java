package org.dataloader4j.core.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.ByteSized;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.ListDataset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/** {@link DataReader#metrics()} and the watchdog. */
@Timeout(20)
class ReaderMetricsTest {
    private static final AtomicInteger NAMES = new AtomicInteger();

    private final String name = "metrics-" + NAMES.incrementAndGet();

    @AfterEach
    void noThreadOutlivesItsReader(TestInfo test) {
        assertEquals(List.of(), LiveThreads.named(name + "-"), test.getDisplayName());
    }

    /** A sample of {@code bytes} bytes. */
    record Blob(int id, long bytes) implements ByteSized {
        @Override
        public long byteSize() {
            return bytes;
        }
    }

    /** Writes each blob's id; waits for {@code gate} first when there is one. */
    static final class BlobParser implements Parser<Blob> {
        private final CountDownLatch gate;

        BlobParser(CountDownLatch gate) {
            this.gate = gate;
        }

        @Override
        public List<TensorSpec> outputs(int rows) {
            return List.of(TensorSpec.dense("id", DataType.INT64, Shape.of(rows)));
        }

        @Override
        public void parse(List<? extends Blob> samples, Batch out, ParallelLoop loop) {
            if (gate != null) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            loop.forEach(samples.size(), i -> out.tensor("id").setLong(i, samples.get(i).id()));
        }
    }

    private static List<Blob> blobs(int n) {
        return IntStream.range(0, n).mapToObj(i -> new Blob(i, 100 + i)).toList();
    }

    @Test
    void countsWhatWasReadParsedAndDelivered() {
        List<Blob> blobs = blobs(100);
        try (DataReader reader = DataReader.of(new BatchDataset<>(ListDataset.of(blobs), 8, false), new BlobParser(null),
                ReaderOptions.builder()
                .name(name).ringSize(4).parseThreads(2).build())) {
            int batches = 0;
            for (Batch ignored : reader) {
                batches++;
            }
            ReaderMetrics m = reader.metrics();

            assertEquals(13, batches);
            assertEquals(100, m.samples());
            assertEquals(blobs.stream().mapToLong(Blob::bytes).sum(), m.payloadBytes());
            assertEquals(13, m.batchesParsed());
            assertEquals(13, m.batchesRead());
            assertEquals(4, m.ringSize());
            assertEquals(0, m.ringOccupancy(), "every slot is released at the end: " + m);
            assertTrue(m.elapsed().compareTo(m.parseBusy()) >= 0, m.toString());
            assertTrue(m.toString().contains("samples=100"), m.toString());
        }
    }

    @Test
    void theTimeTheCallerWaitsForASlowParserIsInputStall() throws InterruptedException {
        CountDownLatch gate = new CountDownLatch(1);
        try (DataReader reader = DataReader.of(new BatchDataset<>(ListDataset.of(blobs(16)), 8, false), new BlobParser(gate),
                ReaderOptions.builder()
                .name(name).parseThreads(1).build())) {
            Thread caller = Thread.currentThread();
            Thread opener = new Thread(() -> {
                // Opens the gate only once the caller waits inside read().
                while (java.util.Arrays.stream(caller.getStackTrace()).noneMatch(f -> f.getMethodName().equals("awaitParsed"))) {
                    Thread.onSpinWait();
                }
                gate.countDown();
            }, name + "-opener");
            opener.start();
            assertNotNull(reader.read());
            opener.join();

            assertTrue(reader.metrics().inputStall().toNanos() > 0, reader.metrics().toString());
            assertTrue(reader.metrics().parseBusy().toNanos() > 0, reader.metrics().toString());
        }
    }

    @Test
    void aCallerThatStopsReadingFillsTheRingAndNothingMore() throws InterruptedException {
        try (DataReader reader = DataReader.of(new BatchDataset<>(new ListDataset<>(blobs(10), Dataset.FOREVER), 2, false),
                new BlobParser(null), ReaderOptions.builder().name(name).ringSize(4).build())) {
            reader.read();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (reader.metrics().batchesParsed() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(50);
            ReaderMetrics m = reader.metrics();

            assertEquals(4, m.ringOccupancy(), m.toString());
            assertEquals(4, m.batchesParsed(), "the held batch and three more, then the load thread waits: " + m);
        }
    }

    /** Blocks in next() until released: a stuck source. */
    static final class Stuck implements Dataset<Blob> {
        final CountDownLatch release = new CountDownLatch(1);
        private int next;

        @Override
        public List<Blob> next() {
            if (next == 3) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return List.of();
            }
            return List.of(new Blob(next++, 1));
        }

        @Override
        public DatasetState state() {
            return DatasetState.of("stuck", null).with("next", next);
        }

        @Override
        public void restore(DatasetState state) {
            next = (int) state.field("next");
        }
    }

    @Test
    void theWatchdogReportsTheStacksOfAStuckReaderOnce() throws InterruptedException {
        Stuck stuck = new Stuck();
        List<String> reports = new CopyOnWriteArrayList<>();
        try (DataReader reader = DataReader.of(stuck, new BlobParser(null), ReaderOptions.builder().name(name)
                .watchdog(Duration.ofMillis(100), reports::add).build())) {
            for (int i = 0; i < 3; i++) {
                assertNotNull(reader.read());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (reports.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Thread.sleep(300);

            assertEquals(1, reports.size(), "once per stall: " + reports);
            String report = reports.get(0);
            assertTrue(report.contains("no batch for"), report);
            assertTrue(report.contains("\"" + name + "-load\""), report);
            assertTrue(report.contains("Stuck.next"), "the stuck frame: " + report);
            assertTrue(report.contains("batchesRead=3"), report);
            stuck.release.countDown();
            assertEquals(null, reader.read());
        }
    }

    @Test
    void aNegativeWatchdogIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> ReaderOptions.builder().watchdog(Duration.ofSeconds(-1)));
    }
}
