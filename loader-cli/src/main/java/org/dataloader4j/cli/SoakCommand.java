package org.dataloader4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.cli.internal.DemoData;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.cli.internal.Units;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code loader soak}: streams many records through a full pipeline (file reader, shuffle
 * buffer, batches, parse threads, a loop that touches every batch) over the demo's cached data,
 * read epoch after epoch, and reports resident memory and live heap after a warm-up and at the
 * end: a loader that leaks shows it here long before a week-long run dies of it.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {"Stream RECORDS records through the full pipeline (OFRecord reader, shuffle buffer 1024, batches "
                + "of 256, parse threads, a loop that reads every row) over the demo's MNIST-like data, epoch after epoch, "
                + "and report resident memory (VmRSS) and the live heap (after a GC) after the warm-up and at the end.",
            "Exits with 4 if either grew by more than --tolerance percent."},
        footer = {"%nExample:%n  loader soak --records 10000000", ExitCodes.HELP})
final class SoakCommand implements Callable<Integer> {
    private static final int BATCH = 256;

    @ParentCommand
    private Loader loader;

    @Option(names = "--records", paramLabel = "N", defaultValue = "10000000", description = "records to stream (default: ${DEFAULT-VALUE})")
    private long records;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1000000",
            description = "records read before the first measurement (default: ${DEFAULT-VALUE})")
    private long warmup;

    @Option(names = "--threads", paramLabel = "N", description = "parse threads (default: the number of processors)")
    private Integer threads;

    @Option(names = "--tolerance", paramLabel = "PERCENT", defaultValue = "10",
            description = "the growth allowed from the warm-up to the end (default: ${DEFAULT-VALUE})")
    private double tolerance;

    @Option(names = "--cache", paramLabel = "DIR", description = "where the demo's data is kept (as for loader demo)")
    private Path cache;

    @Override
    public Integer call() throws IOException {
        if (records <= warmup || warmup < 0) {
            throw new IllegalArgumentException("--records must exceed --warmup >= 0: records=" + records + " warmup=" + warmup);
        }
        PrintWriter out = loader.terminal().out();
        Path dir = DemoData.ensure(DemoData.cacheDir(cache, loader.terminal().env()), new boolean[1]);
        List<Path> files = DemoData.trainFiles(dir);
        OFRecordReader.Builder builder = OFRecordReader.builder()
                .reader(o -> o.name("soak")).files(files).batchSize(BATCH)
                .randomShuffle(true).shuffleBufferSize(1024).seed(DemoData.SEED).epochs(Dataset.FOREVER).shuffleAfterEpoch(true)
                .decoder(OFRecordRawDecoder.of("images", Shape.of(784), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT64));
        if (threads != null) {
            builder.reader(o -> o.parseThreads(threads));
        }
        out.printf("soak: %,d records over %d files of %s, read epoch after epoch; shuffle buffer 1024, batch %d, %s%n",
                records, files.size(), dir, BATCH, threads == null ? "default parse threads" : threads + " parse threads");
        Memory start = null;
        Memory end;
        long read = 0;
        long loopStart = System.nanoTime();
        long measuredFrom = 0;
        double sink = 0;
        long nextReport = warmup;
        try (DataReader reader = builder.build()) {
            while (read < records) {
                Batch batch = reader.read();
                Tensor images = batch.tensor("images");
                Tensor labels = batch.tensor("labels");
                for (int row = 0; row < batch.size(); row++) {
                    sink += images.getFloat(784L * row + row % 784) + labels.getLong(row);
                }
                read += batch.size();
                if (read >= nextReport) {
                    Memory now = Memory.measure(reader.offHeapBytes());
                    if (start == null) {
                        start = now;
                        measuredFrom = System.nanoTime();
                        out.printf("%-24s %s%n", String.format(Locale.ROOT, "start, %,d records:", read), now);
                    } else {
                        out.printf("%-24s %s  %s%n", String.format(Locale.ROOT, "%,d records:", read), now,
                                Units.perSecond(read - warmup, System.nanoTime() - measuredFrom, "records"));
                    }
                    nextReport = Math.min(records, nextReport + (records - warmup) / 10);
                }
            }
            // Measured with the reader still open, as the start was.
            end = Memory.measure(reader.offHeapBytes());
        }
        long nanos = System.nanoTime() - loopStart;
        out.printf("streamed %,d records in %s, %s (checksum %.1f)%n", read, Units.seconds(nanos),
                Units.perSecond(read, nanos, "records"), sink);
        double rss = growth(start.rssBytes, end.rssBytes);
        double heap = growth(start.heapBytes, end.heapBytes);
        boolean flat = rss <= tolerance && heap <= tolerance;
        out.printf(Locale.ROOT, "resident memory %+.1f %%, live heap %+.1f %% from the start to the end: %s%n", rss, heap,
                flat ? "flat within " + tolerance + " %" : "GREW by more than " + tolerance + " %");
        return flat ? ExitCodes.OK : ExitCodes.INTERNAL;
    }

    private static double growth(long from, long to) {
        return from <= 0 ? 0 : 100.0 * (to - from) / from;
    }

    /** Resident memory of the process, the heap live after a full GC, and the reader's slots. */
    private record Memory(long rssBytes, long heapBytes, long offHeapBytes) {
        static Memory measure(long offHeapBytes) {
            System.gc();
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            return new Memory(residentBytes(), heap, offHeapBytes);
        }

        /** VmRSS from /proc/self/status, or -1 where there is none. */
        private static long residentBytes() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                    }
                }
            } catch (IOException | RuntimeException e) {
                return -1;
            }
            return -1;
        }

        @Override
        public String toString() {
            return "resident " + (rssBytes < 0 ? "n/a" : Units.megabytes(rssBytes)) + ", live heap " + Units.megabytes(heapBytes)
                    + (offHeapBytes > 0 ? ", reader slots " + Units.megabytes(offHeapBytes) + " off-heap" : "");
        }
    }
}
