package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.RandomAccessDataset;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.DistributedTrainingDataset;
import org.dataloader4j.core.dataset.DistributedTrainingOptions;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Mode;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Remainder;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.ValidMaskParser;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.ReaderOptions;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Record-level sharding of indexed OFRecord files, through a whole reader on every rank. */
class DistributedOFRecordTest {
    private static final int RECORDS = 203;
    private static final int WORLD = 3;

    @TempDir
    Path dir;

    @Test
    @Timeout(30)
    void everyRankReadsItsShareWithEqualStepsAndTogetherEveryRecord() throws IOException {
        List<Path> files;
        try (PartWriter out = PartWriter.create(dir.resolve("data"), 2)) {
            for (int i = 0; i < RECORDS; i++) {
                out.write(Features.record(Map.of("id", Features.int64Feature(i))));
            }
            files = out.files();
        }
        List<Long> all = new ArrayList<>();
        List<Integer> steps = new ArrayList<>();
        for (int rank = 0; rank < WORLD; rank++) {
            RandomAccessDataset<RecordSlice> records = OFRecordFiles.open(files, 1, dir.resolve("index"));
            DistributedTrainingOptions options = DistributedTrainingOptions.builder().rank(rank).worldSize(WORLD)
                    .shuffle(true).seed(17).remainder(DistributedTrainingOptions.Remainder.DROP).build();
            BatchDataset<RecordSlice> batches = new BatchDataset<>(
                    new DistributedTrainingDataset<>(records, options).unwrapped(), 16, false);
            int rankSteps = 0;
            try (DataReader reader = DataReader.of(batches,
                    OFRecordParser.of(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64)), ReaderOptions.builder()
                    .name("distributed-" + rank).parseThreads(2).build())) {
                for (Batch b : reader) {
                    for (long id : b.tensor("id").toLongArray()) {
                        all.add(id);
                    }
                    rankSteps++;
                }
            }
            steps.add(rankSteps);
        }
        assertEquals(List.of(steps.get(0), steps.get(0), steps.get(0)), steps, "equal steps on every rank");
        int kept = RECORDS / WORLD * WORLD;
        assertEquals(kept, all.size(), "DROP keeps floor(N/S) per rank");
        assertEquals(kept, all.stream().distinct().count(), "no record twice across ranks");
    }

    @Test
    @Timeout(30)
    void paddingIsMarkedInTheValidMaskSoEvaluationCountsEveryRecordOnce() throws IOException {
        List<Path> files;
        try (PartWriter out = PartWriter.create(dir.resolve("data"), 2)) {
            for (int i = 0; i < RECORDS; i++) {
                out.write(Features.record(Map.of("id", Features.int64Feature(i))));
            }
            files = out.files();
        }
        List<Long> valid = new ArrayList<>();
        List<Integer> rows = new ArrayList<>();
        for (int rank = 0; rank < WORLD; rank++) {
            DistributedTrainingOptions options = DistributedTrainingOptions.builder().rank(rank).worldSize(WORLD)
                    .remainder(DistributedTrainingOptions.Remainder.PAD_WITH_MASK).build();
            var batches = new BatchDataset<>(new DistributedTrainingDataset<>(OFRecordFiles.open(files, 1, dir.resolve("index")), options), 16, false);
            int rankRows = 0;
            try (DataReader reader = DataReader.of(batches,
                    new ValidMaskParser<>(OFRecordParser.of(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64))),
                            ReaderOptions.builder()
                    .name("padded-" + rank).parseThreads(2).build())) {
                for (Batch b : reader) {
                    long[] ids = b.tensor("id").toLongArray();
                    byte[] mask = b.tensor(ValidMaskParser.VALID).toByteArray();
                    for (int r = 0; r < b.size(); r++) {
                        if (mask[r] == 1) {
                            valid.add(ids[r]);
                        }
                    }
                    rankRows += b.size();
                }
            }
            rows.add(rankRows);
        }
        int perRank = (RECORDS + WORLD - 1) / WORLD;
        assertEquals(List.of(perRank, perRank, perRank), rows, "every rank reads ceil(N/S) rows");
        assertEquals(RECORDS, valid.size(), "the valid rows are every record once");
        assertEquals(RECORDS, valid.stream().distinct().count());
    }

    /** The rows one rank read through a whole reader: ids, the valid mask (all 1 without PAD_WITH_MASK), and the batches. */
    private record RankRun(List<Long> ids, List<Boolean> valid, int batches) {
    }

    private final Map<Integer, List<Path>> filesByCount = new HashMap<>();

    /** Files holding {@code records} records with ids 0 .. records-1, written once per count, over 1 to 3 parts (some may be empty). */
    private List<Path> files(int records) throws IOException {
        List<Path> files = filesByCount.get(records);
        if (files == null) {
            try (PartWriter out = PartWriter.create(dir.resolve("n" + records), 1 + records % 3)) {
                for (int i = 0; i < records; i++) {
                    out.write(Features.record(Map.of("id", Features.int64Feature(i))));
                }
                files = out.files();
            }
            filesByCount.put(records, files);
        }
        return files;
    }

    private OFRecordReader.Builder reader(List<Path> files, int batchSize, DistributedTrainingOptions options) {
        return OFRecordReader.builder().reader(o -> o.name("distributed-reader-" + options.rank()).parseThreads(2))
                .files(files).batchSize(batchSize).indexDir(dir.resolve("index")).distributed(options)
                .decoder(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64));
    }

    private static RankRun read(DataReader reader, Remainder remainder) {
        List<Long> ids = new ArrayList<>();
        List<Boolean> valid = new ArrayList<>();
        int batches = 0;
        for (Batch b : reader) {
            long[] batchIds = b.tensor("id").toLongArray();
            byte[] mask = remainder == Remainder.PAD_WITH_MASK ? b.tensor(ValidMaskParser.VALID).toByteArray() : null;
            for (int r = 0; r < b.size(); r++) {
                ids.add(batchIds[r]);
                valid.add(mask == null || mask[r] == 1);
            }
            batches++;
        }
        return new RankRun(ids, valid, batches);
    }

    /**
     * For seeded combinations of records, ranks, batch size, mode and remainder, over two shuffled
     * epochs: every rank takes the same number of steps, and the global order that the ranks'
     * shares make up (rank r's i-th sample at position r + i*S under STRIDE, r*m + i under
     * CONTIGUOUS) holds every record exactly once, followed under PAD_WITH_MASK and WRAP by repeats of its
     * start (marked invalid under PAD_WITH_MASK) and cut short under DROP.
     */
    @Test
    @Timeout(60)
    void everyRecordOncePerEpochAcrossRanksWithEqualStepsForManyCombinations() throws IOException {
        Random random = new Random(41);
        List<int[]> combinations = new ArrayList<>(List.of(new int[] {2, 5, 1}, new int[] {3, 4, 2}, new int[] {1, 3, 4},
                new int[] {7, 1, 3}, new int[] {10, 5, 2}));
        for (int i = 0; i < 15; i++) {
            combinations.add(new int[] {1 + random.nextInt(40), 1 + random.nextInt(5), 1 + random.nextInt(8)});
        }
        int checked = 0;
        int refused = 0;
        for (int[] c : combinations) {
            int n = c[0];
            int worldSize = c[1];
            int batchSize = c[2];
            Mode mode = Mode.values()[random.nextInt(2)];
            for (Remainder remainder : Remainder.values()) {
                String where = "N=" + n + " S=" + worldSize + " batchSize=" + batchSize + " " + mode + " " + remainder;
                DistributedTrainingOptions.Builder options = DistributedTrainingOptions.builder().worldSize(worldSize)
                        .mode(mode).remainder(remainder).shuffle(true).seed(random.nextInt(1000)).epochs(2);
                if (remainder == Remainder.DROP && n < worldSize) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> reader(files(n), batchSize, options.rank(0).build()).build(), where);
                    assertTrue(e.getMessage().contains("size=" + n + " worldSize=" + worldSize), e.getMessage());
                    refused++;
                    continue;
                }
                List<RankRun> ranks = new ArrayList<>();
                for (int rank = 0; rank < worldSize; rank++) {
                    try (DataReader reader = reader(files(n), batchSize, options.rank(rank).build()).build()) {
                        ranks.add(read(reader, remainder));
                    }
                }
                int perRank = remainder == Remainder.DROP ? n / worldSize : (n + worldSize - 1) / worldSize;
                for (int rank = 0; rank < worldSize; rank++) {
                    assertEquals(ranks.get(0).batches(), ranks.get(rank).batches(), "steps of rank " + rank + ", " + where);
                    assertEquals(2 * perRank, ranks.get(rank).ids().size(), "samples of rank " + rank + ", " + where);
                }
                for (int epoch = 0; epoch < 2; epoch++) {
                    int length = perRank * worldSize;
                    long[] global = new long[length];
                    boolean[] valid = new boolean[length];
                    for (int rank = 0; rank < worldSize; rank++) {
                        for (int i = 0; i < perRank; i++) {
                            int p = mode == Mode.STRIDE ? rank + i * worldSize : rank * perRank + i;
                            global[p] = ranks.get(rank).ids().get(epoch * perRank + i);
                            valid[p] = ranks.get(rank).valid().get(epoch * perRank + i);
                        }
                    }
                    String at = where + " epoch " + epoch + " global order " + Arrays.toString(global);
                    int distinct = Math.min(n, length);
                    assertEquals(distinct, LongStream.of(global).limit(distinct).distinct().count(), "no record twice, " + at);
                    assertTrue(LongStream.of(global).allMatch(id -> id >= 0 && id < n), at);
                    for (int p = 0; p < length; p++) {
                        if (p >= n) {
                            assertEquals(global[p - n], global[p], "position " + p + " repeats position " + (p - n) + ", " + at);
                        }
                        assertEquals(remainder != Remainder.PAD_WITH_MASK || p < n, valid[p], "valid at position " + p + ", " + at);
                    }
                }
                checked++;
            }
        }
        assertEquals(3 * combinations.size(), checked + refused);
        assertTrue(refused >= 3, "DROP with fewer records than ranks is refused: " + refused);
    }

    @Test
    @Timeout(30)
    void aStateTakenOnAnotherWorldSizeIsRefusedNamingBoth() throws IOException {
        List<Path> files = files(30);
        DistributedTrainingOptions.Builder options = DistributedTrainingOptions.builder().rank(0).mode(Mode.STRIDE)
                .remainder(Remainder.PAD_WITH_MASK).shuffle(true).seed(3);
        DatasetState state;
        try (DataReader reader = reader(files, 4, options.worldSize(2).build()).build()) {
            reader.read();
            reader.read();
            state = reader.state();
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> reader(files, 4, options.worldSize(3).build()).reader(o -> o.restore(state)).build());
        assertTrue(e.getMessage().contains("worldSize=2") && e.getMessage().contains("worldSize=3"), e.getMessage());
    }
}
