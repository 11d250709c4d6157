package org.dataloader4j.benchmarks;

import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.ReaderMetrics;
import org.dataloader4j.format.Framing;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.tfrecord.FixedLenFeature;
import org.dataloader4j.tfrecord.TFRecordReader;

/**
 * dataloader4j's full pipeline: {@code OFRecordReader} or {@code TFRecordReader} with a shuffle
 * buffer, batches, the default ring and {@code threads} parse threads, built anew for every pass
 * (so a pass includes opening the files, the time to the first batch and closing the reader,
 * which unmaps the files, as mmap-copy's pass includes unmapping its own), or with
 * {@link Settings#reuse()} built once, over endless epochs, each pass taking the next batches
 * until it has the dataset's record count (as a training loop's epochs through one reader do).
 *
 * <p>A pass that builds its reader also reports its {@link Stages}: the build and the close, and
 * the reader's own counters of its parse workers and load thread. A kept reader's passes do not:
 * its counters add up each wait and parse when it ends, so a pass would count the end of one that
 * began before it.
 *
 * <p>Steady-state allocation is measured over the reader's threads ({@code <name>-load},
 * {@code <name>-parse-N}) and the consumer's: between the first batch and a batch far enough
 * from the end that the load thread still runs, or with a reader kept across passes, over the
 * whole pass.
 */
final class Dataloader4jSystem implements ComparedSystem {
    static final String NAME = "dataloader4j";
    private static final String READER = "d4j-compare";
    /** Reader ring slots; the builders' default. */
    private static final int RING = 8;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean reads(CompareDataset dataset) {
        return true;
    }

    @Override
    public Run open(DataFiles data, int threads, Settings settings) {
        if (settings.reuse()) {
            return new Run() {
                private DataReader reader;

                @Override
                public Pass pass() {
                    long start = System.nanoTime();
                    boolean built = reader == null;
                    if (built) {
                        reader = build(data, threads, settings, Dataset.FOREVER);
                    }
                    // Whole batches, so a pass may end a little past the dataset's record count;
                    // every batch is in the steady state, so allocation is measured to the end.
                    return consume(reader, start, built, data.records(), data.records());
                }

                @Override
                public void close() {
                    if (reader != null) {
                        reader.close();
                    }
                }
            };
        }
        // Past this many records before the end the load thread may have finished (ring + shuffle buffer ahead).
        long lateMark = data.records() - (long) (RING + 4) * settings.batchSize() - settings.shuffleBuffer();
        return new Run() {
            @Override
            public Pass pass() {
                long start = System.nanoTime();
                long built;
                long closing;
                Pass pass;
                ReaderMetrics counted;
                try (DataReader reader = build(data, threads, settings, 1)) {
                    built = System.nanoTime();
                    pass = consume(reader, start, true, Long.MAX_VALUE, lateMark);
                    counted = reader.metrics();
                    closing = System.nanoTime();
                }
                long end = System.nanoTime();
                return pass.endedAt(end - start).withStages(Stages.ofReader(built - start, end - closing, counted));
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * Hands {@code reader}'s batches to the consumer until it has {@code want} records or the
     * reader ends, and measures the pass from {@code start} (and the time to its first batch if
     * the pass {@code built} the reader); allocation is measured from the first batch to the batch
     * that reaches {@code allocationMark} records.
     */
    private static Pass consume(DataReader reader, long start, boolean built, long want, long allocationMark) {
        long records = 0;
        long first = -1;
        long[] threadIds = null;
        long allocStart = 0;
        long recordsAtStart = 0;
        long allocEnd = -1;
        long recordsAtEnd = 0;
        String[] names = null;
        double sum = 0;
        for (Batch b; records < want && (b = reader.read()) != null; ) {
            if (names == null) {
                names = b.names().toArray(String[]::new);
            }
            sum += Sink.touch(b, names);
            records += b.size();
            if (first < 0) {
                first = System.nanoTime() - start;
                threadIds = ThreadAllocation.threadsNamed(READER + "-");
                allocStart = ThreadAllocation.allocated(threadIds);
                recordsAtStart = records;
            } else if (allocEnd < 0 && records >= allocationMark) {
                allocEnd = ThreadAllocation.allocated(threadIds);
                recordsAtEnd = records;
            }
        }
        long nanos = System.nanoTime() - start;
        Sink.consume(sum);
        boolean measured = allocEnd >= 0 && allocStart >= 0;
        return new Pass(records, nanos, built ? first : -1, measured ? allocEnd - allocStart : -1,
                measured ? recordsAtEnd - recordsAtStart : 0);
    }

    private static DataReader build(DataFiles data, int threads, Settings settings, long epochs) {
        List<SyntheticRecords.Column> columns = data.dataset().kind().columns();
        if (data.dataset().framing() == Framing.OFRECORD) {
            OFRecordReader.Builder b = OFRecordReader.builder();
            columns.forEach(c -> b.decoder(OFRecordRawDecoder.of(c.name(), Shape.of(c.width()), c.type())));
            return configure(b, data, threads, settings, epochs).build();
        }
        TFRecordReader.Builder b = TFRecordReader.builder().compression(data.dataset().compression());
        columns.forEach(c -> b.feature(FixedLenFeature.of(c.name(), Shape.of(c.width()), c.type())));
        return configure(b, data, threads, settings, epochs).build();
    }

    private static <B extends org.dataloader4j.core.reader.FilePipelineBuilder<B>> B configure(B b, DataFiles data, int threads,
            Settings settings, long epochs) {
        return b.files(data.files()).epochs(epochs).batchSize(settings.batchSize()).randomShuffle(true)
                .shuffleBufferSize(settings.shuffleBuffer()).seed(settings.seed())
                .reader(o -> o.name(READER).parseThreads(threads).ringSize(RING));
    }
}
