package org.dataloader4j.core.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataLoaderException;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.ListDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded iterations of build, read a random number of batches, close at a random moment, with
 * failures injected into the dataset or the parser at random positions. Each iteration checks
 * what a training job relies on: batches in order up to the failure, the failure at exactly its
 * batch, and after {@code close()} no thread of the reader alive, no off-heap bytes held, and
 * no tensor readable.
 */
class ReaderLifecycleStressTest {
    private static final int ITERATIONS = 500;
    private static final List<Integer> SAMPLES = IntStream.range(0, 300).boxed().toList();

    /** Yields the samples of a list and throws at sample {@code failAt} (never if -1). */
    static final class FailingDataset implements Dataset<Integer> {
        private final Dataset<Integer> samples = ListDataset.of(SAMPLES);
        private final int failAt;
        final RuntimeException failure;

        FailingDataset(int failAt) {
            this.failAt = failAt;
            this.failure = new IllegalStateException("dataset fails at sample " + failAt);
        }

        @Override
        public List<Integer> next() {
            List<Integer> next = samples.next();
            if (next.equals(List.of(failAt))) {
                throw failure;
            }
            return next;
        }

        @Override
        public DatasetState state() {
            return samples.state();
        }

        @Override
        public void restore(DatasetState state) {
            samples.restore(state);
        }
    }

    /** {@link IntParser}, pausing now and then so that closes land mid-parse, throwing at sample {@code failAt}. */
    static final class FailingParser implements Parser<Integer> {
        private final IntParser parser = new IntParser();
        private final int failAt;
        final RuntimeException failure;

        FailingParser(int failAt) {
            this.failAt = failAt;
            this.failure = new IllegalArgumentException("parser fails at sample " + failAt);
        }

        @Override
        public List<TensorSpec> outputs(int rows) {
            return parser.outputs(rows);
        }

        @Override
        public void parse(List<? extends Integer> samples, Batch out, ParallelLoop loop) {
            loop.forEach(samples.size(), i -> {
                if (samples.get(i) == failAt) {
                    throw failure;
                }
                if (samples.get(i) % 7 == 0) {
                    LockSupport.parkNanos(20_000);
                }
            });
            parser.parse(samples, out, loop);
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyCloseStopsEverythingAndEveryFailureComesAtItsBatch() {
        for (int seed = 0; seed < ITERATIONS; seed++) {
            iteration(seed);
        }
    }

    private static void iteration(int seed) {
        Random random = new Random(seed);
        String name = "stress-" + seed;
        int batch = 1 + random.nextInt(16);
        int parseThreads = 1 + random.nextInt(3);
        int ringSize = 1 << random.nextInt(4);
        int fault = random.nextInt(3); // 0: none, 1: dataset, 2: parser
        int failAt = fault == 0 ? -1 : random.nextInt(SAMPLES.size());
        FailingDataset dataset = new FailingDataset(fault == 1 ? failAt : -1);
        FailingParser parser = new FailingParser(fault == 2 ? failAt : -1);
        int batches = (SAMPLES.size() + batch - 1) / batch;
        int failingBatch = fault == 0 ? -1 : failAt / batch;
        // Close before the first read, after a few reads (the load thread soon blocks on a full
        // ring), or at any point up to and past the end.
        int reads = switch (random.nextInt(3)) {
            case 0 -> 0;
            case 1 -> random.nextInt(3);
            default -> random.nextInt(batches + 2);
        };
        String where = "seed=" + seed + " batch=" + batch + " parseThreads=" + parseThreads + " ringSize=" + ringSize
                + " fault=" + fault + " failAt=" + failAt + " reads=" + reads;

        DataReader reader = DataReader.of(new BatchDataset<>(dataset, batch, false), parser, ReaderOptions.builder()
                .name(name).parseThreads(parseThreads).ringSize(ringSize).build());
        Tensor last = null;
        try {
            for (int i = 0; i < reads; i++) {
                if (i == failingBatch) {
                    DataLoaderException e = assertThrows(DataLoaderException.class, reader::read, where);
                    assertSame(fault == 1 ? dataset.failure : parser.failure, e.getCause(), where);
                    assertTrue(e.getMessage().contains("batch " + failingBatch), where + ": " + e.getMessage());
                    break;
                }
                Batch b = reader.read();
                if (i >= batches) {
                    assertEquals(null, b, where);
                    continue;
                }
                last = b.tensor("id");
                assertEquals((long) i * batch, last.getLong(0), where);
                assertEquals(Math.min(batch, SAMPLES.size() - i * batch), b.size(), where);
            }
        } finally {
            reader.close();
        }
        assertEquals(List.of(), LiveThreads.named(name + "-"), where);
        assertEquals(0, reader.offHeapBytes(), where);
        if (last != null) {
            Tensor held = last;
            assertThrows(IllegalStateException.class, () -> held.getLong(0), where);
        }
    }
}
