package org.dataloader4j.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.format.tf.BytesList;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.format.tf.Feature;
import org.dataloader4j.format.tf.Features;
import org.dataloader4j.format.tf.Int64List;
import org.dataloader4j.testkit.ExpectedBytes;
import org.dataloader4j.testkit.ExpectedFeature;
import org.dataloader4j.testkit.ExpectedRecord;
import org.dataloader4j.testkit.ExpectedRecords;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The whole pipeline over TFRecord files: TensorFlow's own (against their expected values) and written here. */
@Timeout(60)
class TFRecordReaderTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final int MAX_BYTES = 1 << 20;

    @TempDir
    Path dir;

    private static TFRecordReader.Builder builder() {
        return TFRecordReader.builder().reader(o -> o.name("tfrecord-test-" + NAMES.incrementAndGet()).parseThreads(2));
    }

    /**
     * A spec per feature of the file, from its expected summary: numeric lists as ragged rows
     * (any length, possibly missing), single byte strings as bytes rows.
     */
    @SuppressWarnings("unchecked")
    private static List<ExampleFeature> specs(Map<String, Object> summaryFeatures) {
        List<ExampleFeature> specs = new ArrayList<>();
        for (Map.Entry<String, Object> e : summaryFeatures.entrySet()) {
            Map<String, Object> f = (Map<String, Object>) e.getValue();
            List<Object> types = (List<Object>) f.get("types");
            int max = Math.max(1, ((Number) f.get("max_count")).intValue());
            if (types.contains("float")) {
                specs.add(VarLenFeature.of(e.getKey(), DataType.FLOAT32, max));
            } else if (types.contains("int64")) {
                specs.add(VarLenFeature.of(e.getKey(), DataType.INT64, max));
            } else if (types.contains("bytes") && max == 1) {
                specs.add(BytesFeature.of(e.getKey(), MAX_BYTES));
            }
        }
        return specs;
    }

    /** Compares one row of {@code b} with the expected feature. */
    private static void compare(Batch b, int row, ExampleFeature spec, ExpectedFeature want, String where) {
        RaggedTensor t = b.ragged(spec.name());
        int n = (int) t.rowLength(row);
        long at = t.offset(row);
        int wantCount = want == null || want.type() == ExpectedFeature.Type.NONE ? 0 : want.count();
        switch (spec) {
            case BytesFeature bf -> {
                byte[] got = t.values().rows(at, n).toByteArray();
                if (wantCount == 0) {
                    assertEquals(0, n, where);
                } else {
                    ExpectedBytes expected = want.bytes().get(0);
                    assertTrue(expected.matches(got), where + ": " + expected);
                }
            }
            case VarLenFeature vf when vf.dataType() == DataType.FLOAT32 -> {
                assertEquals(wantCount, n, where);
                int[] bits = new int[n];
                for (int k = 0; k < n; k++) {
                    bits[k] = Float.floatToRawIntBits(t.values().getFloat(at + k));
                }
                assertArrayEquals(wantCount == 0 ? new int[0] : want.floatBits(), bits, where);
            }
            default -> {
                assertEquals(wantCount, n, where);
                long[] values = new long[n];
                for (int k = 0; k < n; k++) {
                    values[k] = t.values().getLong(at + k);
                }
                assertArrayEquals(wantCount == 0 ? new long[0] : want.longs(), values, where);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "tensorflow-ecosystem/tf-records/part-m-00000",
        "tensorflow-ecosystem/zipped-tf-records/part-m-00000.gz",
        "tensorflow-tfx/penguin/Split-eval/data_tfrecord-00000-of-00001.gz",
        "tensorflow-tfx/penguin/Split-train/data_tfrecord-00000-of-00001.gz",
        "tensorflow-tfx/csv_example_gen/Split-eval/data_tfrecord-00000-of-00012.gz",
        "tensorflow-tfx/tfjs_next_page_prediction/data.tfrecord.gz",
        "tensorflow-tfx/mnist/mnist.tfrecord",
        "google-research-exoplanet-ml/astronet/test_dataset.tfrecord",
        "google-research-exoplanet-ml/astrowavenet/test-dataset.tfrecord",
        "calico-baskerville/mm10/tfrecords/test-3.tfr"})
    @SuppressWarnings("unchecked")
    void tensorFlowsExampleFilesReadAsTheirExpectedValues(String relative) throws IOException {
        Path file = SharedTestData.file(relative);
        ExpectedRecords expected = ExpectedRecords.load(relative);
        List<ExampleFeature> specs = specs((Map<String, Object>) expected.summary().json().get("features"));
        TFRecordReader.Builder builder = builder().files(List.of(file)).batchSize(64);
        specs.forEach(builder::feature);
        long row = 0;
        int checked = 0;
        try (DataReader reader = builder.build()) {
            for (Batch b : reader) {
                for (int r = 0; r < b.size(); r++, row++) {
                    ExpectedRecord want = expected.records().get(row);
                    if (want != null) {
                        for (ExampleFeature spec : specs) {
                            compare(b, r, spec, want.features().get(spec.name()), relative + " record " + row + " " + spec.name());
                        }
                        checked++;
                    }
                }
            }
        }
        assertEquals(expected.summary().records(), row, relative + ": records");
        assertEquals(expected.records().size(), checked, relative + ": expected records checked");
    }

    @Test
    void theEmptyZlibFileHasNoRecords() {
        Path file = SharedTestData.file("calico-baskerville/mm10/tfrecords/train-7.tfr");
        try (DataReader reader = builder().files(List.of(file)).batchSize(4)
                .feature(BytesFeature.of("sequence", MAX_BYTES)).build()) {
            assertNull(reader.read());
        }
    }

    @Test
    void aSequenceExampleFileReadsItsContextAndFeatureLists() throws IOException {
        String relative = "tensorflow-transform/sequence_example/data_tfrecord.gz";
        Path file = SharedTestData.file(relative);
        ExpectedRecords expected = ExpectedRecords.load(relative);
        long row = 0;
        // The context's int_feature and the feature list int_feature share a name; outputs cannot, so
        // this reads the context's floats and the list's int64 steps.
        try (DataReader reader = builder().files(List.of(file)).batchSize(2)
                .feature(FixedLenFeature.of("float_feature", Shape.of(4), DataType.FLOAT32))
                .featureList(FixedLenSequenceFeature.of("int_feature", Shape.of(2), DataType.INT64, 8))
                .build()) {
            for (Batch b : reader) {
                float[] floats = b.tensor("float_feature").toFloatArray();
                RaggedTensor steps = b.ragged("int_feature");
                for (int r = 0; r < b.size(); r++, row++) {
                    ExpectedRecord want = expected.records().get(row);
                    int[] bits = new int[4];
                    for (int k = 0; k < 4; k++) {
                        bits[k] = Float.floatToRawIntBits(floats[r * 4 + k]);
                    }
                    assertArrayEquals(want.context().get("float_feature").floatBits(), bits, "record " + row);
                    List<Long> wantSteps = new ArrayList<>();
                    for (ExpectedFeature step : want.featureLists().get("int_feature")) {
                        for (long v : step.longs()) {
                            wantSteps.add(v);
                        }
                    }
                    List<Long> gotSteps = new ArrayList<>();
                    for (long k = 0; k < steps.rowLength(r); k++) {
                        gotSteps.add(steps.values().getLong(steps.offset(r) + k));
                    }
                    assertEquals(wantSteps, gotSteps, "feature list of record " + row);
                }
            }
        }
        assertEquals(expected.summary().records(), row);
    }

    @Test
    void tfxSequenceExamplesReadTheirContextAndTheirStringFeatureList() throws IOException {
        String relative = "tensorflow-tfx/tfrecord_sequence/Split-eval/data_tfrecord_eval.gz";
        Path file = SharedTestData.file(relative);
        ExpectedRecords expected = ExpectedRecords.load(relative);
        long row = 0;
        int checked = 0;
        try (DataReader reader = builder().files(List.of(file)).batchSize(256)
                .feature(VarLenFeature.of("f", DataType.FLOAT32, 1))
                .feature(VarLenFeature.of("i", DataType.INT64, 1))
                .featureList(BytesSequenceFeature.of("s", 8, 8, 256))
                .build()) {
            for (Batch b : reader) {
                RaggedTensor bytes = b.ragged("s");
                RaggedTensor lengths = b.ragged("s.lengths");
                RaggedTensor steps = b.ragged("s.steps");
                for (int r = 0; r < b.size(); r++, row++) {
                    ExpectedRecord want = expected.records().get(row);
                    if (want == null) {
                        continue;
                    }
                    String where = relative + " record " + row;
                    compare(b, r, VarLenFeature.of("f", DataType.FLOAT32, 1), want.context().get("f"), where + " f");
                    compare(b, r, VarLenFeature.of("i", DataType.INT64, 1), want.context().get("i"), where + " i");
                    List<ExpectedFeature> wantSteps = want.featureLists().get("s");
                    assertEquals(wantSteps.size(), steps.rowLength(r), where + " steps");
                    long string = lengths.offset(r);
                    long at = bytes.offset(r);
                    for (int step = 0; step < wantSteps.size(); step++) {
                        List<ExpectedBytes> strings = wantSteps.get(step).bytes();
                        assertEquals(strings.size(), steps.values().getLong(steps.offset(r) + step), where + " step " + step);
                        for (ExpectedBytes one : strings) {
                            int n = (int) lengths.values().getLong(string++);
                            assertTrue(one.matches(bytes.values().rows(at, n).toByteArray()), where + " step " + step);
                            at += n;
                        }
                    }
                    checked++;
                }
            }
        }
        assertEquals(expected.summary().records(), row);
        assertEquals(expected.records().size(), checked);
    }

    /** Writes {@code records} Examples holding their index, over {@code parts} TFRecord part files. */
    private void writeDataset(int records, int parts, Compression compression) throws IOException {
        try (PartWriter out = PartWriter.create(dir, "part-", 5, parts, Framing.TFRECORD, compression)) {
            for (int i = 0; i < records; i++) {
                out.write(Example.newBuilder().setFeatures(Features.newBuilder().putFeature("id",
                        Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(i)).build())).build());
            }
        }
    }

    private static List<Long> ids(DataReader reader) {
        List<Long> ids = new ArrayList<>();
        for (Batch b : reader) {
            for (long id : b.tensor("id").toLongArray()) {
                ids.add(id);
            }
        }
        return ids;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"NONE", "GZIP", "ZLIB"})
    void readsWrittenPartFilesOncePerRecordAcrossRanks(String compression) throws IOException {
        writeDataset(500, 4, Compression.valueOf(compression));
        List<Long> all = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            try (DataReader reader = builder().dataDir(dir).dataPartNum(4).partNameSuffixLength(5).shard(rank, 2)
                    .batchSize(32).randomShuffle(true).seed(rank).shuffleBufferSize(64)
                    .feature(FixedLenFeature.of("id", Shape.of(1), DataType.INT64)).build()) {
                all.addAll(ids(reader));
            }
        }
        assertEquals(500, all.size());
        assertEquals(500, all.stream().distinct().count());
    }

    /** Record {@code id}'s {@code data}: 3,000 bytes derived from its id. */
    private static byte[] data(long id) {
        byte[] b = new byte[3000];
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) (id * 131 + k * 7 + (k >> 8));
        }
        return b;
    }

    /**
     * A compressed file's records are read into memory that is used again once their batches are
     * released: over four shuffled epochs of 3,000 records of 3 KB, every row still holds its
     * own record's bytes.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"GZIP", "ZLIB"})
    void compressedRecordsStayIntactWhileTheirMemoryIsUsedAgain(String compression) throws IOException {
        int records = 3000;
        try (PartWriter out = PartWriter.create(dir, "part-", 5, 2, Framing.TFRECORD, Compression.valueOf(compression))) {
            for (int i = 0; i < records; i++) {
                out.write(Example.newBuilder().setFeatures(Features.newBuilder()
                        .putFeature("id", Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(i)).build())
                        .putFeature("data", Feature.newBuilder().setBytesList(BytesList.newBuilder()
                                .addValue(ByteString.copyFrom(data(i)))).build())).build());
            }
        }
        Map<Long, Integer> seen = new HashMap<>();
        try (DataReader reader = builder().dataDir(dir).dataPartNum(2).partNameSuffixLength(5).epochs(4).batchSize(32)
                .randomShuffle(true).seed(5).shuffleBufferSize(256).reader(o -> o.ringSize(4))
                .feature(FixedLenFeature.of("id", Shape.of(1), DataType.INT64)).feature(BytesFeature.of("data", 4096)).build()) {
            for (Batch b : reader) {
                RaggedTensor data = b.ragged("data");
                for (int row = 0; row < b.size(); row++) {
                    long id = b.tensor("id").getLong(row);
                    byte[] got = data.values().rows(data.offset(row), data.rowLength(row)).toByteArray();
                    assertArrayEquals(data(id), got, "record " + id);
                    seen.merge(id, 1, Integer::sum);
                }
            }
        }
        assertEquals(records, seen.size());
        assertEquals(Set.of(4), Set.copyOf(seen.values()), "every record once an epoch");
    }

    @Test
    void aDataCrcMismatchFailsReadAfterEveryGoodBatch() throws IOException {
        writeDataset(100, 1, Compression.NONE);
        Path file = dir.resolve("part-00000");
        byte[] bytes = Files.readAllBytes(file);
        int recordBytes = bytes.length / 100;
        // Damage record 40's stored data CRC: the data itself stays intact.
        bytes[41 * recordBytes - 2] ^= 0x10;
        Files.write(file, bytes);
        try (DataReader reader = builder().files(List.of(file)).batchSize(10)
                .feature(FixedLenFeature.of("id", Shape.of(1), DataType.INT64)).build()) {
            for (int i = 0; i < 4; i++) {
                assertEquals(10L * i, reader.read().tensor("id").getLong(0));
            }
            CorruptDataException cause = assertThrows(CorruptDataException.class, reader::read);
            assertTrue(cause.getMessage().startsWith("corrupted record at offset " + 40L * recordBytes + " in " + file
                    + " (data CRC mismatch)"), cause.getMessage());
        }
        try (DataReader unchecked = builder().files(List.of(file)).batchSize(10).verifyCrc(false)
                .feature(FixedLenFeature.of("id", Shape.of(1), DataType.INT64)).build()) {
            assertEquals(100, ids(unchecked).size(), "without CRC checks every record is read");
        }
    }

    @Test
    void featuresAreRequired() {
        assertThrows(IllegalArgumentException.class, () -> builder().files(List.of(dir)).batchSize(1).build());
    }
}
