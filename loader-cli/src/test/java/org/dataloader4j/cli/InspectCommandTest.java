package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.testkit.ExpectedBytes;
import org.dataloader4j.testkit.ExpectedFeature;
import org.dataloader4j.testkit.ExpectedRecord;
import org.dataloader4j.testkit.ExpectedRecords;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InspectCommandTest {
    @TempDir
    Path dir;

    /** Every record of the real files, as JSON, against the values decoded by three other decoders. */
    @ParameterizedTest
    @ValueSource(strings = {
        "oneflow-documentation/dataset/part-0",
        "oneflow-benchmark-metafinetuning/SST-2/train/train.of_record-0",
        "tensorflow-ecosystem/tf-records/part-m-00000",
        "tensorflow-ecosystem/zipped-tf-records/part-m-00000.gz",
        "tensorflow-tfx/penguin/Split-eval/data_tfrecord-00000-of-00001.gz",
        "tensorflow-tfx/csv_example_gen/Split-eval/data_tfrecord-00000-of-00012.gz",
        "tensorflow-tfx/tfrecord_sequence/Split-eval/data_tfrecord_eval.gz",
        "tensorflow-tfx/mnist/mnist.tfrecord",
        "tensorflow-tfx/tfjs_next_page_prediction/data.tfrecord.gz",
        "google-research-exoplanet-ml/astronet/test_dataset.tfrecord",
        "google-research-exoplanet-ml/astrowavenet/test-dataset.tfrecord",
        "tensorflow-transform/sequence_example/data_tfrecord.gz",
        "calico-baskerville/mm10/tfrecords/test-3.tfr",
    })
    void jsonOfRealFilesHasTheExpectedValues(String relative) throws IOException {
        Path file = SharedTestData.file(relative);
        ExpectedRecords expected = ExpectedRecords.load(relative);
        Cli.Result r = Cli.run("inspect", "--json", file.toString());
        assertEquals(0, r.code(), r::toString);
        List<String> lines = r.lines();
        assertEquals(expected.summary().records(), lines.size(), "one line per record");
        for (Map.Entry<Long, ExpectedRecord> e : expected.records().entrySet()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> json = (Map<String, Object>) Cli.json(lines.get(e.getKey().intValue()));
            assertEquals(file.toString(), json.get("file"));
            assertEquals(e.getKey(), json.get("index"));
            if (expected.hasFrames()) {
                assertEquals(expected.frames().get(e.getKey().intValue()).offset(), json.get("offset"), "offset of record " + e.getKey());
            }
            ExpectedRecord record = e.getValue();
            String where = relative + " record " + e.getKey();
            if (record.kind() == ExpectedRecord.Kind.SEQUENCE) {
                assertFeatures(record.context(), json.get("context"), where);
                @SuppressWarnings("unchecked")
                Map<String, Object> lists = (Map<String, Object>) json.get("feature_lists");
                assertEquals(record.featureLists().keySet(), lists.keySet(), where);
                record.featureLists().forEach((name, steps) -> {
                    List<?> actual = (List<?>) lists.get(name);
                    assertEquals(steps.size(), actual.size(), where + " " + name);
                    for (int i = 0; i < steps.size(); i++) {
                        assertFeature(steps.get(i), actual.get(i), where + " " + name + "[" + i + "]");
                    }
                });
            } else {
                assertFeatures(record.features(), json.get("features"), where);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void assertFeatures(Map<String, ExpectedFeature> expected, Object actual, String where) {
        Map<String, Object> features = (Map<String, Object>) actual;
        assertEquals(expected.keySet(), features.keySet(), where);
        expected.forEach((name, f) -> assertFeature(f, features.get(name), where + " " + name));
    }

    @SuppressWarnings("unchecked")
    private static void assertFeature(ExpectedFeature expected, Object actual, String where) {
        Map<String, Object> f = (Map<String, Object>) actual;
        assertEquals(expected.type().name().toLowerCase(java.util.Locale.ROOT), f.get("type"), where);
        List<Object> values = (List<Object>) f.get("values");
        assertEquals(expected.count(), values.size(), where);
        switch (expected.type()) {
            case INT32, INT64 -> assertArrayEquals(expected.longs(), values.stream().mapToLong(v -> (Long) v).toArray(), where);
            case FLOAT -> {
                int[] bits = values.stream().mapToInt(v -> Float.floatToRawIntBits((float) number(v))).toArray();
                assertArrayEquals(expected.floatBits(), bits, where);
            }
            case DOUBLE -> {
                long[] bits = values.stream().mapToLong(v -> Double.doubleToRawLongBits(number(v))).toArray();
                assertArrayEquals(expected.doubleBits(), bits, where);
            }
            case BYTES -> {
                List<ExpectedBytes> bytes = expected.bytes();
                for (int i = 0; i < bytes.size(); i++) {
                    assertTrue(bytes.get(i).matches(Base64.getDecoder().decode((String) values.get(i))), where + " value " + i);
                }
            }
            case NONE -> assertTrue(values.isEmpty(), where);
        }
    }

    /** A JSON float: a number, or one of the three strings. */
    private static double number(Object v) {
        return switch (v) {
            case Double d -> d;
            case Long l -> l;
            case String s -> Double.parseDouble(s);
            default -> throw new AssertionError("not a number: " + v);
        };
    }

    /** Values JSON cannot hold as plain numbers, or that a double would round, come back exactly. */
    @Test
    void jsonKeepsSpecialFloatsLargeIntegersAndBytesExact() throws IOException {
        float[] floats = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f, Float.MIN_VALUE, 0.1f, 3.4028235e38f};
        double[] doubles = {0.1, -1e-300, Double.MAX_VALUE, Double.NaN};
        long[] longs = {Long.MAX_VALUE, Long.MIN_VALUE, (1L << 53) + 1};
        byte[] raw = {0, (byte) 0xff, '"', '\\', 10};
        try (PartWriter w = PartWriter.create(dir, 1)) {
            w.write(Features.record(Map.of(
                    "f", Features.floatFeature(floats),
                    "d", Features.doubleFeature(doubles),
                    "i", Features.int64Feature(longs),
                    "n", Features.int32Feature(-1, Integer.MAX_VALUE),
                    "b", Features.bytesFeature(raw),
                    "no\"te", Features.bytesFeature("ü\t"))));
        }
        Cli.Result r = Cli.run("inspect", "--json", dir.resolve("part-00000").toString());
        assertEquals(0, r.code(), r::toString);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> features = (Map<String, Map<String, Object>>) ((Map<String, Object>) Cli.json(r.out().strip())).get("features");
        List<?> f = (List<?>) features.get("f").get("values");
        assertEquals(List.of("NaN", "Infinity", "-Infinity"), f.subList(0, 3));
        for (int i = 3; i < floats.length; i++) {
            assertEquals(Float.floatToRawIntBits(floats[i]), Float.floatToRawIntBits((float) number(f.get(i))), "float " + i);
            assertEquals((double) floats[i], number(f.get(i)), "read as a double, the exact float value " + i);
        }
        List<?> d = (List<?>) features.get("d").get("values");
        for (int i = 0; i < doubles.length; i++) {
            assertEquals(Double.doubleToRawLongBits(doubles[i]), Double.doubleToRawLongBits(number(d.get(i))), "double " + i);
        }
        assertEquals(List.of(Long.MAX_VALUE, Long.MIN_VALUE, (1L << 53) + 1), features.get("i").get("values"));
        assertEquals("int32", features.get("n").get("type"));
        assertEquals(List.of(-1L, (long) Integer.MAX_VALUE), features.get("n").get("values"));
        assertArrayEquals(raw, Base64.getDecoder().decode((String) ((List<?>) features.get("b").get("values")).get(0)));
        assertEquals(List.of(Base64.getEncoder().encodeToString("ü\t".getBytes(java.nio.charset.StandardCharsets.UTF_8))),
                features.get("no\"te").get("values"));
    }

    @Test
    void textShowsFormatCountSchemaAndTheFirstRecords() {
        Path file = SharedTestData.file("oneflow-documentation/dataset/part-0");
        Cli.Result r = Cli.run("inspect", file.toString(), "-n", "1");
        assertEquals(0, r.code(), r::toString);
        List<String> lines = r.lines();
        assertEquals(file + "  (ofrecord, none)", lines.get(0));
        assertEquals("  records: 3", lines.get(1));
        assertTrue(r.out().contains("images  float    values 784  in 3 of 3 records"), r::toString);
        assertTrue(r.out().contains("labels  int64    values 1  in 3 of 3 records"), r::toString);
        assertTrue(r.out().contains("record 0 (offset 0, 3173 bytes)"), r::toString);
        assertFalse(r.out().contains("record 1 "), "only the first record: " + r);
    }

    @Test
    void textShowsPrintableBytesAsTextAndOthersAsHex() throws IOException {
        try (PartWriter w = PartWriter.create(dir, 1)) {
            w.write(Features.record(Map.of("text", Features.bytesFeature("Hello"), "raw", Features.bytesFeature(new byte[] {0, 1, (byte) 0xab}))));
        }
        Cli.Result r = Cli.run("inspect", dir.toString());
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("text  bytes[1]  \"Hello\""), r::toString);
        assertTrue(r.out().contains("raw  bytes[1]  0x0001ab (3 bytes)"), r::toString);
    }

    @Test
    void aSequenceExampleShowsItsContextAndFeatureLists() {
        Path file = SharedTestData.file("tensorflow-transform/sequence_example/data_tfrecord.gz");
        Cli.Result r = Cli.run("inspect", file.toString(), "-n", "1");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("(tfrecord, gzip)"), r::toString);
        assertTrue(r.out().contains("string_feature[]  bytes    steps 2  in 3 of 3 records"), r::toString);
        assertTrue(r.out().contains("string_feature[0]  bytes[2]  \"Hello\", \"World\""), r::toString);
    }

    @Test
    void jsonWithNPrintsTheFirstNRecordsOfEachFile() {
        Path a = SharedTestData.file("tensorflow-ecosystem/tf-records/part-m-00000");
        Path b = SharedTestData.file("oneflow-documentation/dataset/part-0");
        Cli.Result r = Cli.run("inspect", "--json", "-n", "2", a.toString(), b.toString());
        assertEquals(0, r.code(), r::toString);
        assertEquals(4, r.lines().size(), r::toString);
        assertTrue(r.lines().get(3).startsWith("{\"file\": \"" + b + "\", \"index\": 1, \"offset\": 3181,"), r::toString);
    }

    /** The mini format's CSV is not an OFRecord file: a one-line error naming file, offset and the bogus length. */
    @Test
    void aFileThatIsNotRecordsFailsWithOneLine() {
        Path file = SharedTestData.file("oneflow-documentation/mini_csv_not_ofrecord/part-000");
        Cli.Result r = Cli.run("inspect", file.toString());
        assertEquals(1, r.code(), r::toString);
        assertEquals(List.of("loader: " + file + ": length 3471767528134422065 exceeds file size 80 at record 0, offset 0"),
                r.err().lines().toList());
    }
}
