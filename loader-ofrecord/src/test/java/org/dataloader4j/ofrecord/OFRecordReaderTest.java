package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.testkit.ExpectedFeature;
import org.dataloader4j.testkit.ExpectedRecord;
import org.dataloader4j.testkit.ExpectedRecords;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The whole pipeline, from part files written by {@link PartWriter} or by OneFlow to batches. */
@Timeout(30)
class OFRecordReaderTest {
    private static final long SEED = 5;
    private static final int RECORDS = 1000;
    private static final int PARTS = 4;
    private static final AtomicInteger NAMES = new AtomicInteger();

    @TempDir
    Path dir;

    /** Writes records whose {@code id} is their index and whose {@code values} derive from it. */
    private void writeDataset(int parts) throws IOException {
        Random random = new Random(SEED);
        try (PartWriter out = PartWriter.create(dir, parts)) {
            for (int i = 0; i < RECORDS; i++) {
                float[] values = new float[3 + random.nextInt(5)];
                for (int k = 0; k < values.length; k++) {
                    values[k] = i + k / 10f;
                }
                out.write(Features.record(Map.of("id", Features.int64Feature(i), "values", Features.floatFeature(values))));
            }
        }
    }

    private OFRecordReader.Builder builder(int parts) {
        return OFRecordReader.builder().reader(o -> o.name("ofrecord-test-" + NAMES.incrementAndGet()).parseThreads(2))
                .dataDir(dir).dataPartNum(parts).partNameSuffixLength(PartWriter.SUFFIX_LENGTH)
                .batchSize(32)
                .decoder(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64))
                .decoder(OFRecordRawDecoder.of("values", Shape.of(8), DataType.FLOAT32).withDim1VaryingLength());
    }

    /** Every id read, checking each row's values against its id. */
    private static List<Long> ids(DataReader reader) {
        List<Long> ids = new ArrayList<>();
        for (Batch b : reader) {
            long[] batchIds = b.tensor("id").toLongArray();
            var values = b.ragged("values");
            for (int row = 0; row < b.size(); row++) {
                long id = batchIds[row];
                assertTrue(values.rowLength(row) >= 3 && values.rowLength(row) <= 7, "row length of id " + id);
                for (int k = 0; k < values.rowLength(row); k++) {
                    assertEquals(id + k / 10f, values.values().getFloat(values.offset(row) + k), "value " + k + " of id " + id);
                }
                ids.add(id);
            }
        }
        return ids;
    }

    @Test
    void readsEveryRecordOnceWithItsOwnValues() throws IOException {
        writeDataset(PARTS);
        try (DataReader reader = builder(PARTS).build()) {
            List<Long> ids = ids(reader);
            assertEquals(RECORDS, ids.size());
            assertEquals(RECORDS, ids.stream().distinct().count());
        }
    }

    @Test
    void shufflesReproduciblyForASeed() throws IOException {
        writeDataset(PARTS);
        List<Long> a;
        List<Long> b;
        List<Long> plain;
        try (DataReader reader = builder(PARTS).randomShuffle(true).shuffleBufferSize(100).seed(SEED).build()) {
            a = ids(reader);
        }
        try (DataReader reader = builder(PARTS).randomShuffle(true).shuffleBufferSize(100).seed(SEED).build()) {
            b = ids(reader);
        }
        try (DataReader reader = builder(PARTS).build()) {
            plain = ids(reader);
        }
        assertEquals(a, b, "seed=" + SEED);
        assertNotEquals(plain, a);
        assertEquals(plain.stream().sorted().toList(), a.stream().sorted().toList());
    }

    @Test
    void aSeedGivesTheSameBatchesWhateverTheParseThreadsAndRingSize() throws IOException {
        writeDataset(PARTS);
        List<Long> reference = null;
        for (int threads : new int[] {1, 2, 4}) {
            for (int ring : new int[] {1, 2, 8}) {
                List<Long> ids;
                try (DataReader reader = builder(PARTS)
                        .reader(o -> o.parseThreads(threads).ringSize(ring)).randomShuffle(true)
                        .shuffleBufferSize(128).seed(SEED).epochs(2).shuffleAfterEpoch(true).build()) {
                    ids = ids(reader);
                }
                if (reference == null) {
                    reference = ids;
                }
                assertEquals(reference, ids, "parseThreads=" + threads + " ringSize=" + ring + " seed=" + SEED);
            }
        }
        assertEquals(2 * RECORDS, reference.size());
    }

    @ParameterizedTest(name = "{0} parts over {1} ranks")
    @CsvSource({"4,2", "4,3", "5,5"})
    void ranksReadDisjointFileShardsThatCoverTheDataset(int parts, int worldSize) throws IOException {
        writeDataset(parts);
        List<Long> all = new ArrayList<>();
        for (int rank = 0; rank < worldSize; rank++) {
            try (DataReader reader = builder(parts).shard(rank, worldSize).build()) {
                all.addAll(ids(reader));
            }
        }
        assertEquals(RECORDS, all.size());
        assertEquals(RECORDS, all.stream().distinct().count());
    }

    @Test
    void fewerFilesThanRanksIsAClearErrorNotACrash() throws IOException {
        writeDataset(2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder(2).shard(0, 4).build());
        assertTrue(e.getMessage().contains("2 files for worldSize=4"), e.getMessage());
    }

    @Test
    void aMissingPartIsNamedWhenTheReaderIsBuilt() throws IOException {
        writeDataset(2);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> builder(3).build());
        assertTrue(e.getMessage().contains("part-00002"), e.getMessage());
    }

    @Test
    void aReaderNeedsDecoders() throws IOException {
        writeDataset(1);
        assertThrows(IllegalArgumentException.class, () -> OFRecordReader.builder().dataDir(dir).batchSize(4).build());
    }

    @Test
    void resumesWithTheShuffleAfterTheLastBatchRead() throws IOException {
        writeDataset(PARTS);
        List<Long> expected;
        try (DataReader reader = builder(PARTS).randomShuffle(true).shuffleBufferSize(64).seed(SEED).epochs(2).shuffleAfterEpoch(true).build()) {
            expected = ids(reader);
        }
        DatasetState state;
        List<Long> head = new ArrayList<>();
        try (DataReader reader = builder(PARTS).randomShuffle(true).shuffleBufferSize(64).seed(SEED).epochs(2).shuffleAfterEpoch(true).build()) {
            for (int i = 0; i < 40; i++) {
                for (long id : reader.read().tensor("id").toLongArray()) {
                    head.add(id);
                }
            }
            state = DatasetStateCodec.fromText(DatasetStateCodec.toText(reader.state()));
        }
        try (DataReader reader = builder(PARTS).randomShuffle(true).shuffleBufferSize(64).epochs(2).shuffleAfterEpoch(true)
                .reader(o -> o.restore(state)).build()) {
            head.addAll(ids(reader));
        }
        assertEquals(expected, head);
    }

    @Test
    void oneFlowsMiniCsvAsOFRecordFailsReadWithTheLength() {
        Path csv = SharedTestData.file("oneflow-documentation/mini_csv_not_ofrecord/part-000");
        try (DataReader reader = OFRecordReader.builder().files(List.of(csv)).batchSize(4)
                .decoder(OFRecordRawDecoder.of("x", Shape.of(1), DataType.FLOAT32)).build()) {
            CorruptDataException cause = assertThrows(CorruptDataException.class, reader::read);
            assertTrue(cause.getMessage().contains("length 3471767528134422065 exceeds file size 80"), cause.getMessage());
        }
    }

    @Test
    void oneFlowsTutorialDatasetMatchesItsExpectedValues() throws IOException {
        String relative = "oneflow-documentation/dataset/part-0";
        Path file = SharedTestData.file(relative);
        ExpectedRecords expected = ExpectedRecords.load(relative);
        try (DataReader reader = OFRecordReader.builder().files(List.of(file)).batchSize(2)
                .decoder(OFRecordRawDecoder.of("images", Shape.of(784), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT64)).build()) {
            compare(reader, expected, Map.of("images", DataType.FLOAT32, "labels", DataType.INT64));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "oneflow-benchmark-metafinetuning/SST-2/train/train.of_record-0",
        "oneflow-benchmark-metafinetuning/SST-2/dev/dev.of_record-0",
        "oneflow-benchmark-metafinetuning/SST-2/eval/eval.of_record-0",
        "oneflow-benchmark-metafinetuning/k-shot-cross-g1/train/train.of_record-0"})
    void bertStyleFilesMatchTheirExpectedValues(String relative) throws IOException {
        Path file = SharedTestData.file(relative);
        ExpectedRecords expected = ExpectedRecords.load(relative);
        OFRecordReader.Builder builder = OFRecordReader.builder().files(List.of(file)).batchSize(16)
                .reader(o -> o.parseThreads(2));
        for (String name : List.of("input_ids", "attention_masks", "token_type_ids")) {
            builder.decoder(OFRecordRawDecoder.of(name, Shape.of(128), DataType.INT32));
        }
        for (String name : List.of("idxs", "labels", "logits", "tasks")) {
            builder.decoder(OFRecordRawDecoder.of(name, Shape.of(1), DataType.INT32));
        }
        builder.decoder(OFRecordRawDecoder.of("weights", Shape.of(1), DataType.FLOAT32));
        try (DataReader reader = builder.build()) {
            compare(reader, expected, Map.of("input_ids", DataType.INT32, "attention_masks", DataType.INT32,
                    "token_type_ids", DataType.INT32, "idxs", DataType.INT32, "labels", DataType.INT32,
                    "logits", DataType.INT32, "tasks", DataType.INT32, "weights", DataType.FLOAT32));
        }
    }

    /** Every expected record (all, or the sampled ones) equals its row, value for value, floats by bits. */
    private static void compare(DataReader reader, ExpectedRecords expected, Map<String, DataType> types) {
        long row = 0;
        int checked = 0;
        for (Batch b : reader) {
            for (int r = 0; r < b.size(); r++, row++) {
                ExpectedRecord want = expected.records().get(row);
                if (want == null) {
                    continue;
                }
                for (Map.Entry<String, DataType> t : types.entrySet()) {
                    ExpectedFeature f = want.features().get(t.getKey());
                    var tensor = b.tensor(t.getKey());
                    int width = (int) tensor.shape().rowElements();
                    assertEquals(f.count(), width, t.getKey() + " of record " + row);
                    if (t.getValue() == DataType.FLOAT32) {
                        int[] bits = new int[width];
                        for (int k = 0; k < width; k++) {
                            bits[k] = Float.floatToRawIntBits(tensor.getFloat((long) r * width + k));
                        }
                        assertArrayEquals(f.floatBits(), bits, t.getKey() + " of record " + row);
                    } else {
                        long[] values = new long[width];
                        for (int k = 0; k < width; k++) {
                            values[k] = t.getValue() == DataType.INT64
                                    ? tensor.getLong((long) r * width + k) : tensor.getInt((long) r * width + k);
                        }
                        assertArrayEquals(f.longs(), values, t.getKey() + " of record " + row);
                    }
                }
                checked++;
            }
        }
        assertEquals(expected.summary().records(), row, "record count");
        assertEquals(expected.records().size(), checked, "every expected record was checked");
    }
}
