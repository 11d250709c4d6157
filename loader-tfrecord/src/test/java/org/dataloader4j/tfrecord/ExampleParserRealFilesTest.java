package org.dataloader4j.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.core.testing.BatchBytes;
import org.dataloader4j.core.testing.TestRecords;
import org.dataloader4j.testkit.ExpectedBytes;
import org.dataloader4j.testkit.ExpectedFeature;
import org.dataloader4j.testkit.ExpectedRecord;
import org.dataloader4j.testkit.ExpectedRecords;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TFRecord files written by TensorFlow, TFX and research projects, parsed from their payloads
 * with specs fitting each file and compared with the expected values beside them (every record,
 * or the sample of records 0, 1, 2 and the last). Skipped where the shared test data is not
 * beside the checkout.
 */
@Timeout(60)
class ExampleParserRealFilesTest {
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final String TRANSFORM = "tensorflow-transform/sequence_example/data_tfrecord.gz";

    static Stream<Arguments> examples() {
        return Stream.of(
                arguments("tensorflow-ecosystem/tf-records/part-m-00000",
                        List.of(FixedLenFeature.of("data", Shape.of(2), DataType.INT64))),
                arguments("tensorflow-ecosystem/zipped-tf-records/part-m-00000.gz",
                        List.of(VarLenFeature.of("data", DataType.INT64, 2))),
                arguments("tensorflow-tfx/penguin/Split-eval/data_tfrecord-00000-of-00001.gz", penguin()),
                arguments("tensorflow-tfx/penguin/Split-train/data_tfrecord-00000-of-00001.gz", penguin()),
                arguments("tensorflow-tfx/csv_example_gen/Split-eval/data_tfrecord-00000-of-00012.gz", List.of(
                        BytesFeature.of("company", 256), BytesFeature.of("payment_type", 64),
                        // Empty Features (no list) are missing values: defaults, or empty rows.
                        FixedLenFeature.of("dropoff_census_tract", Shape.of(), DataType.INT64).withDefault(-7L),
                        FixedLenFeature.of("dropoff_latitude", Shape.of(), DataType.FLOAT32).withDefault(-7.0),
                        VarLenFeature.of("dropoff_longitude", DataType.FLOAT32, 1),
                        VarLenFeature.of("dropoff_community_area", DataType.INT64, 1),
                        VarLenFeature.of("pickup_census_tract", DataType.INT64, 1),
                        FixedLenFeature.of("fare", Shape.of(), DataType.FLOAT32),
                        FixedLenFeature.of("trip_start_timestamp", Shape.of(), DataType.INT64),
                        FixedLenFeature.of("pickup_community_area", Shape.of(1), DataType.INT64))),
                arguments("tensorflow-tfx/mnist/mnist.tfrecord", List.of(
                        FixedLenFeature.of("image_floats", Shape.of(28, 28), DataType.FLOAT32),
                        FixedLenFeature.of("image_class", Shape.of(), DataType.INT64))),
                arguments("tensorflow-tfx/tfjs_next_page_prediction/data.tfrecord.gz", List.of(
                        BytesFeature.of("cur_page", 256), BytesFeature.of("label", 256),
                        VarLenFeature.of("session_index", DataType.INT64, 1))),
                arguments("google-research-exoplanet-ml/astronet/test_dataset.tfrecord", List.of(
                        FixedLenFeature.of("global_view", Shape.of(8), DataType.FLOAT32),
                        FixedLenFeature.of("local_view", Shape.of(2, 2), DataType.FLOAT32),
                        FixedLenFeature.of("aux_feature", Shape.of(), DataType.FLOAT32),
                        BytesFeature.of("label_str", 64))),
                arguments("google-research-exoplanet-ml/astrowavenet/test-dataset.tfrecord", List.of(
                        VarLenFeature.of("feature_1", DataType.FLOAT32, 8), VarLenFeature.of("feature_2", DataType.FLOAT32, 8),
                        VarLenFeature.of("feature_3", DataType.FLOAT32, 8), VarLenFeature.of("feature_4", DataType.FLOAT32, 8),
                        VarLenFeature.of("weights", DataType.FLOAT32, 8))),
                arguments("calico-baskerville/mm10/tfrecords/test-3.tfr", List.of(
                        BytesFeature.of("sequence", 131072),
                        FixedLenFeature.of("target", Shape.of(131072), DataType.UINT8))));
    }

    private static List<ExampleFeature> penguin() {
        return List.of(FixedLenFeature.of("body_mass_g", Shape.of(), DataType.FLOAT32),
                FixedLenFeature.of("culmen_depth_mm", Shape.of(1), DataType.FLOAT64),
                VarLenFeature.of("culmen_length_mm", DataType.FLOAT32, 1),
                FixedLenFeature.of("flipper_length_mm", Shape.of(), DataType.FLOAT32),
                FixedLenFeature.of("species", Shape.of(), DataType.INT64));
    }

    @ParameterizedTest
    @MethodSource("examples")
    void examplesMatchTheirExpectedValues(String file, List<ExampleFeature> specs) throws IOException {
        ExpectedRecords expected = ExpectedRecords.load(file);
        List<byte[]> payloads = TestFrames.payloads(SharedTestData.file(file), expected.summary().compression());
        assertEquals(expected.summary().records(), payloads.size());
        ExampleParser parser = ExampleParser.forExample(specs);
        try (MultiThreadLoop loop = new MultiThreadLoop("real-files", 3); BatchBuffer batch = BatchBuffer.of(parser, payloads.size())) {
            batch.parse(parser, TestRecords.slices(payloads), loop);
            for (ExpectedRecord r : expected.records().values()) {
                int row = (int) r.index();
                for (ExampleFeature spec : specs) {
                    check(batch, row, spec, r.features().get(spec.name()), file);
                }
            }
        }
    }

    @Test
    void sequenceExamplesMatchTheirExpectedValues() throws IOException {
        String file = "tensorflow-tfx/tfrecord_sequence/Split-eval/data_tfrecord_eval.gz";
        ExpectedRecords expected = ExpectedRecords.load(file);
        List<byte[]> payloads = TestFrames.payloads(SharedTestData.file(file), expected.summary().compression());
        assertEquals(4500, payloads.size());
        // Some contexts hold f and i as Features without a list: empty rows, and the default.
        List<ExampleFeature> context = List.of(VarLenFeature.of("f", DataType.FLOAT32, 1),
                FixedLenFeature.of("i", Shape.of(), DataType.INT64).withDefault(-1L));
        FixedLenSequenceFeature s = FixedLenSequenceFeature.of("s", Shape.of(5), DataType.UINT8, 2);
        ExampleParser parser = ExampleParser.forSequenceExample(context, List.of(s));
        try (MultiThreadLoop loop = new MultiThreadLoop("real-files", 4); BatchBuffer batch = BatchBuffer.of(parser, payloads.size())) {
            batch.parse(parser, TestRecords.slices(payloads), loop);
            for (ExpectedRecord r : expected.records().values()) {
                int row = (int) r.index();
                for (ExampleFeature spec : context) {
                    check(batch, row, spec, r.context().get(spec.name()), file);
                }
                checkSteps(batch, row, s, r.featureLists().get("s"), file);
            }
        }
    }

    @Test
    void transformSequenceExamplesMatchAndAnEmptyBytesStepIsAnError() throws IOException {
        ExpectedRecords expected = ExpectedRecords.load(TRANSFORM);
        List<byte[]> payloads = TestFrames.payloads(SharedTestData.file(TRANSFORM), expected.summary().compression());
        List<ExampleFeature> context = List.of(FixedLenFeature.of("float_feature", Shape.of(4), DataType.FLOAT32),
                FixedLenFeature.of("int_feature", Shape.of(), DataType.INT32));
        FixedLenSequenceFeature ints = FixedLenSequenceFeature.of("int_feature", Shape.of(2), DataType.INT64, 4);
        // Context and feature lists are separate maps, but the outputs share one namespace.
        ExampleParser parser = ExampleParser.forSequenceExample(context.subList(0, 1), List.of(ints));
        try (BatchBuffer batch = BatchBuffer.of(parser, payloads.size())) {
            TestRecords.parse(batch, parser, ParallelLoop.sequential(), payloads);
            SortedMap<Long, ExpectedRecord> records = expected.records();
            assertEquals(3, records.size());
            for (ExpectedRecord r : records.values()) {
                check(batch, (int) r.index(), context.get(0), r.context().get("float_feature"), TRANSFORM);
                checkSteps(batch, (int) r.index(), ints, r.featureLists().get("int_feature"), TRANSFORM);
            }
        }
        // string_feature's steps hold 2 strings, then none: no fixed-length spec reads that.
        ExampleParser strings = ExampleParser.forSequenceExample(List.of(),
                List.of(FixedLenSequenceFeature.of("string_feature", Shape.of(5), DataType.UINT8, 2)));
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> TestRecords.parse(strings, payloads.getFirst()));
        assertEquals("Key: string_feature, step 0. Can't parse serialized SequenceExample: step 0 of feature list string_feature"
                + " has 2 bytes_list values, a bytes_list read into UINT8 holds exactly 1", e.reason());
    }

    @Test
    void bytesFeatureListsMatchTheirExpectedStrings() throws IOException {
        // string_feature: steps of 2 strings, then none; s: steps of one string each. Both only readable step by step as strings.
        checkStringSteps(TRANSFORM, BytesSequenceFeature.of("string_feature", 2, 4, 64), 3);
        checkStringSteps("tensorflow-tfx/tfrecord_sequence/Split-eval/data_tfrecord_eval.gz", BytesSequenceFeature.of("s", 2, 2, 16), 4500);
    }

    private static void checkStringSteps(String file, BytesSequenceFeature spec, int records) throws IOException {
        ExpectedRecords expected = ExpectedRecords.load(file);
        List<byte[]> payloads = TestFrames.payloads(SharedTestData.file(file), expected.summary().compression());
        assertEquals(records, payloads.size());
        ExampleParser parser = ExampleParser.forSequenceExample(List.of(), List.of(spec));
        try (MultiThreadLoop loop = new MultiThreadLoop("real-files", 3); BatchBuffer batch = BatchBuffer.of(parser, payloads.size())) {
            batch.parse(parser, TestRecords.slices(payloads), loop);
            for (ExpectedRecord r : expected.records().values()) {
                checkStringSteps(batch, (int) r.index(), spec.name(), r.featureLists().get(spec.name()), file + " record " + r.index());
            }
        }
    }

    /** The outputs {@code name}, {@code name.lengths}, {@code name.steps} of {@code row} against the expected steps of strings. */
    static void checkStringSteps(BatchBuffer batch, int row, String name, List<ExpectedFeature> steps, String where) {
        long[] perStep = BatchBytes.raggedRow(batch, name + ".steps", row).toLongArray();
        long[] lengths = BatchBytes.raggedRow(batch, name + ".lengths", row).toLongArray();
        byte[] bytes = BatchBytes.raggedRow(batch, name, row).toByteArray();
        assertEquals(steps.size(), perStep.length, where);
        int string = 0;
        int at = 0;
        for (int i = 0; i < steps.size(); i++) {
            List<ExpectedBytes> want = steps.get(i).type() == ExpectedFeature.Type.NONE ? List.of() : steps.get(i).bytes();
            assertEquals(want.size(), perStep[i], where + " step " + i);
            for (ExpectedBytes w : want) {
                int length = (int) lengths[string++];
                assertTrue(w.matches(Arrays.copyOfRange(bytes, at, at + length)), where + " step " + i + ": " + w);
                at += length;
            }
        }
        assertEquals(lengths.length, string, where);
        assertEquals(bytes.length, at, where);
    }

    @Test
    void stringFeaturesReadAsListsOfStrings() throws IOException {
        // No tf.Example file here holds two strings in one bytes_list; the one-string features read as lists of one.
        String file = "tensorflow-tfx/tfjs_next_page_prediction/data.tfrecord.gz";
        ExpectedRecords expected = ExpectedRecords.load(file);
        List<byte[]> payloads = TestFrames.payloads(SharedTestData.file(file), expected.summary().compression());
        ExampleParser parser = ExampleParser.forExample(VarLenBytesFeature.of("cur_page", 1, 256), VarLenBytesFeature.of("label", 1, 256));
        try (BatchBuffer batch = BatchBuffer.of(parser, payloads.size())) {
            TestRecords.parse(batch, parser, ParallelLoop.sequential(), payloads);
            for (ExpectedRecord r : expected.records().values()) {
                int row = (int) r.index();
                for (String name : List.of("cur_page", "label")) {
                    ExpectedFeature want = r.features().get(name);
                    assertArrayEquals(new long[] {want.bytes().getFirst().length()}, BatchBytes.raggedRow(batch, name + ".lengths", row).toLongArray());
                    assertTrue(want.bytes().getFirst().matches(BatchBytes.rowBytes(batch, name, row)), file + " record " + row + " " + name);
                }
            }
        }
    }

    @Test
    void tensorBoardEventsReadAsExamplesAreEmpty() throws IOException {
        // Event field 1 is a double (wire type 1): to a tf.Example it is an unknown field, skipped.
        String file = "tensorflow-tfx/tfevents/events.out.tfevents.1646034751";
        ExpectedRecords expected = ExpectedRecords.load(file);
        List<byte[]> payloads = TestFrames.payloads(SharedTestData.file(file), expected.summary().compression());
        assertEquals(7, payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            assertTrue(expected.frames().get(i).matches(payloads.get(i)), "frame " + i);
        }
        ExampleParser parser = ExampleParser.forExample(VarLenFeature.of("wall_time", DataType.FLOAT64, 4),
                FixedLenFeature.of("step", Shape.of(), DataType.INT64).withDefault(-1L));
        try (BatchBuffer batch = BatchBuffer.of(parser, payloads.size())) {
            TestRecords.parse(batch, parser, ParallelLoop.sequential(), payloads);
            assertEquals(0, batch.ragged("wall_time").offset(7));
            assertArrayEquals(new long[] {-1, -1, -1, -1, -1, -1, -1}, batch.tensor("step").toLongArray());
        }
    }

    @Test
    void anEmptyZlibFileHasNoRecordsToParse() throws IOException {
        String file = "calico-baskerville/mm10/tfrecords/train-7.tfr";
        List<byte[]> payloads = TestFrames.payloads(SharedTestData.file(file), "zlib");
        assertEquals(0, payloads.size());
        ExampleParser parser = ExampleParser.forExample(BytesFeature.of("sequence", 16));
        try (BatchBuffer batch = BatchBuffer.of(parser, 1)) {
            TestRecords.parse(batch, parser, ParallelLoop.sequential(), payloads);
            assertEquals(0, batch.ragged("sequence").offset(0));
        }
    }

    /** Row {@code row} of {@code spec} against the expected feature (null if the record has none). */
    private static void check(BatchBuffer batch, int row, ExampleFeature spec, ExpectedFeature want, String file) {
        String where = file + " record " + row + " " + spec;
        boolean missing = want == null || want.type() == ExpectedFeature.Type.NONE;
        switch (spec) {
            case FixedLenFeature f when missing ->
                    assertArrayEquals(f.defaultRow().orElseThrow().toArray(ValueLayout.JAVA_BYTE), BatchBytes.rowBytes(batch, f.name(), row), where);
            case FixedLenFeature f when f.dataType() == DataType.UINT8 ->
                    assertTrue(want.bytes().getFirst().matches(BatchBytes.rowBytes(batch, f.name(), row)), where);
            case FixedLenFeature f -> checkValues(batch.tensor(f.name()).rows(row, 1), f.dataType(), want, where);
            case VarLenFeature v when missing -> assertEquals(0, batch.ragged(v.name()).rowLength(row), where);
            case VarLenFeature v -> checkValues(BatchBytes.raggedRow(batch, v.name(), row), v.dataType(), want, where);
            case BytesFeature b when missing -> assertEquals(0, batch.ragged(b.name()).rowLength(row), where);
            case BytesFeature b -> {
                assertEquals(1, want.count(), where);
                assertTrue(want.bytes().getFirst().matches(BatchBytes.rowBytes(batch, b.name(), row)), where);
            }
            case VarLenBytesFeature v -> throw new AssertionError("checked by stringFeaturesReadAsListsOfStrings: " + v);
        }
    }

    private static void checkValues(Tensor t, DataType type, ExpectedFeature want, String where) {
        switch (type) {
            case FLOAT32 -> assertArrayEquals(want.floatBits(), t.segment().toArray(LE_INT), where);
            case FLOAT64 -> {
                int[] bits = want.floatBits();
                double[] widened = new double[bits.length];
                for (int i = 0; i < bits.length; i++) {
                    widened[i] = Float.intBitsToFloat(bits[i]);
                }
                assertArrayEquals(widened, t.toDoubleArray(), where);
            }
            case INT64 -> assertArrayEquals(want.longs(), t.toLongArray(), where);
            case INT32 -> assertArrayEquals(Arrays.stream(want.longs()).mapToInt(x -> (int) x).toArray(), t.toIntArray(), where);
            default -> throw new AssertionError("no such spec here: " + type);
        }
    }

    private static void checkSteps(BatchBuffer batch, int row, FixedLenSequenceFeature spec, List<ExpectedFeature> steps, String file) {
        String where = file + " record " + row + " " + spec;
        Tensor values = BatchBytes.raggedRow(batch, spec.name(), row);
        assertEquals((long) steps.size() * spec.stepElements(), values.elementCount(), where);
        for (int i = 0; i < steps.size(); i++) {
            Tensor step = values.rows((long) i * spec.stepElements(), spec.stepElements());
            if (spec.dataType() == DataType.UINT8) {
                assertTrue(steps.get(i).bytes().getFirst().matches(step.toByteArray()), where + " step " + i);
            } else {
                checkValues(step, spec.dataType(), steps.get(i), where + " step " + i);
            }
        }
    }

    @Test
    void everyExampleFileIsListed() throws IOException {
        // A tf.Example file added to the shared test data should be added to the table above.
        Path expected = SharedTestData.file("expected");
        Set<String> listed = examples().map(a -> (String) a.get()[0]).collect(Collectors.toSet());
        try (Stream<Path> files = Files.walk(expected)) {
            for (Path json : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                String relative = expected.relativize(json).toString().replace('\\', '/');
                relative = relative.substring(0, relative.length() - ".json".length());
                if ("example".equals(ExpectedRecords.load(relative).summary().payload())) {
                    assertTrue(listed.contains(relative), relative + " is not in the table");
                }
            }
        }
    }
}
