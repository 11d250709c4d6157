package org.dataloader4j.hadoop;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.dataset.DistributedTrainingDataset;
import org.dataloader4j.core.dataset.DistributedTrainingOptions;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.files.RecordBatch;
import org.dataloader4j.core.files.RecordFiles;
import org.dataloader4j.core.files.RecordStream;
import org.dataloader4j.core.files.RemoteRecordDataset;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.format.store.FileStore;
import org.dataloader4j.format.store.FileStores;
import org.dataloader4j.format.store.StoredFile;
import org.dataloader4j.ofrecord.OFRecordFiles;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The figures of docs/remote-and-spark.md, not a test: records/s of a whole OFRecord reader
 * over the local mapping, the MiniDFSCluster and s3proxy, in order, shuffled through a buffer and
 * in a permutation of every record ({@code distributed}), and the range
 * reads (round trips) per 1,000 records. Runs only with {@code -Dremote.figures=true}; prints,
 * asserts nothing.
 */
@EnabledIfSystemProperty(named = "remote.figures", matches = "true")
class RemoteFigures {
    private static final int PARTS = 4;
    private static final int RECORDS = 100_000;

    @Test
    @Timeout(600)
    void print() throws IOException {
        Path local = RemoteStores.testDir().resolve("figures");
        if (!Files.exists(local.resolve("part-00003"))) {
            Files.createDirectories(local);
            Random random = new Random(1);
            try (PartWriter out = PartWriter.create(local, PARTS)) {
                for (int i = 0; i < RECORDS; i++) {
                    float[] values = new float[256];
                    for (int k = 0; k < values.length; k++) {
                        values[k] = random.nextFloat();
                    }
                    out.write(Features.record(Map.of("id", Features.int64Feature(i), "values", Features.floatFeature(values))));
                }
            }
        }
        List<Path> parts = List.of(local.resolve("part-00000"), local.resolve("part-00001"), local.resolve("part-00002"),
                local.resolve("part-00003"));
        RemoteStores.upload(RemoteStores.hdfs(), Map.of(), parts, "figures");
        RemoteStores.S3 s3 = RemoteStores.s3();
        RemoteStores.upload(s3.bucket(), s3.options(), parts, "figures");
        System.out.printf("%d records of %d bytes in %d files%n", RECORDS, Files.size(parts.get(0)) / (RECORDS / PARTS), PARTS);
        for (String order : new String[] {"in order", "shuffled", "global"}) {
            run("local mmap", local.toUri(), Map.of(), order);
            run("hdfs (MiniDFSCluster)", RemoteStores.hdfs().resolve("/figures/"), Map.of(), order);
            run("s3a (s3proxy)", s3.bucket().resolve("figures/"), s3.options(), order);
        }
    }

    /**
     * The best of three passes of a reader over {@code dir}: {@code order} is "in order",
     * "shuffled" (through a buffer of 4,096 records) or "global" (a permutation of every record
     * through the index: {@code distributed} with one rank).
     */
    private static void run(String what, URI dir, Map<String, String> options, String order) throws IOException {
        boolean shuffled = order.equals("shuffled");
        boolean global = order.equals("global");
        double best = 0;
        for (int round = 0; round < 3; round++) {
            OFRecordReader.Builder b = OFRecordReader.builder()
                    .decoder(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64))
                    .decoder(OFRecordRawDecoder.of("values", Shape.of(256), DataType.FLOAT32))
                    .dataDir(dir).dataPartNum(PARTS).partNameSuffixLength(5).batchSize(256)
                    .indexDir(RemoteStores.testDir().resolve("figures-index"))
                    .randomShuffle(shuffled).shuffleBufferSize(4096).seed(7);
            if (global) {
                b.distributed(ranks());
            }
            options.forEach(b::storeOption);
            long start = System.nanoTime();
            long rows = 0;
            try (DataReader reader = b.build()) {
                for (Batch batch : reader) {
                    rows += batch.size();
                }
            }
            best = Math.max(best, rows / ((System.nanoTime() - start) / 1e9));
        }
        long[] counts = roundTrips(dir, options, shuffled, global);
        System.out.printf("%-22s %-10s %,10.0f records/s   %6.2f range reads, %6.2f ranges per 1,000 records%n", what,
                order, best, counts[0] * 1000.0 / RECORDS, counts[1] * 1000.0 / RECORDS);
    }

    /** One rank: every record, in a permutation drawn from seed 7. */
    private static DistributedTrainingOptions ranks() {
        return DistributedTrainingOptions.builder().rank(0).worldSize(1).shuffle(true).seed(7).environment(Map.of()).build();
    }

    /** The range reads and ranges of one pass of the records the reader above reads. */
    private static long[] roundTrips(URI dir, Map<String, String> options, boolean shuffled, boolean global) throws IOException {
        if (dir.getScheme().equals("file")) {
            return new long[2];
        }
        FileStore store = FileStores.forLocation(dir, options);
        List<StoredFile> files = new java.util.ArrayList<>();
        for (int p = 0; p < PARTS; p++) {
            files.add(store.stat(dir.resolve("part-0000" + p)));
        }
        RecordFiles records = RecordFiles.open(store, files, OFRecordFiles.frames(), RemoteStores.testDir().resolve("figures-index"),
                "figures-index", 2);
        if (global) {
            try (var share = new DistributedTrainingDataset<>(new RemoteRecordDataset(records, 1), ranks())) {
                while (!share.next().isEmpty()) {
                    // each record fetched and checked
                }
                return records.readCounts();
            }
        }
        try (RecordStream stream = new RecordStream(records, 1, false, 0, 256, false, shuffled ? 4096 : 0, 7, false)) {
            List<RecordSlice> batch = stream.newBatch();
            RecordView view = new RecordView();
            while (true) {
                batch.clear();
                if (stream.nextInto(batch) == 0) {
                    break;
                }
                RecordBatch numbers = (RecordBatch) batch;
                for (int row = 0; row < numbers.size(); row++) {
                    numbers.load(row, view, true);
                }
            }
            return records.readCounts();
        }
    }
}
