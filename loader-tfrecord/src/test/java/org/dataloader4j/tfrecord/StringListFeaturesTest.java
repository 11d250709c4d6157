package org.dataloader4j.tfrecord;

import static org.dataloader4j.tfrecord.Proto.byteStrings;
import static org.dataloader4j.tfrecord.Proto.entry;
import static org.dataloader4j.tfrecord.Proto.example;
import static org.dataloader4j.tfrecord.Proto.featureList;
import static org.dataloader4j.tfrecord.Proto.floats;
import static org.dataloader4j.tfrecord.Proto.int64s;
import static org.dataloader4j.tfrecord.Proto.map;
import static org.dataloader4j.tfrecord.Proto.message;
import static org.dataloader4j.tfrecord.Proto.sequenceExample;
import static org.dataloader4j.tfrecord.Proto.strings;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.testing.BatchBytes;
import org.dataloader4j.core.testing.TestRecords;
import org.junit.jupiter.api.Test;

/**
 * The specs of several byte strings per record ({@link VarLenBytesFeature}), of feature lists of
 * byte strings ({@link BytesSequenceFeature}) and of variable-length numeric steps
 * ({@link VarLenSequenceFeature}), and their companion outputs.
 */
class StringListFeaturesTest {
    private static final ExampleParser TAGS = ExampleParser.forExample(VarLenBytesFeature.of("tags", 4, 16));
    private static final ExampleParser WORDS = ExampleParser.forSequenceExample(List.of(),
            List.of(BytesSequenceFeature.of("words", 3, 4, 16)));
    private static final ExampleParser CLICKS = ExampleParser.forSequenceExample(List.of(),
            List.of(VarLenSequenceFeature.of("clicks", DataType.INT32, 3, 5)));

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void outputsAreTheBytesThenTheirCompanions() {
        assertEquals(List.of(TensorSpec.ragged("tags", DataType.UINT8, 2, 32), TensorSpec.ragged("tags.lengths", DataType.INT64, 2, 8)),
                TAGS.outputs(2));
        assertEquals(List.of("words", "words.lengths", "words.steps"), WORDS.outputs(1).stream().map(TensorSpec::name).toList());
        assertEquals(List.of(TensorSpec.ragged("clicks", DataType.INT32, 2, 10), TensorSpec.ragged("clicks.steps", DataType.INT64, 2, 6)),
                CLICKS.outputs(2));
    }

    @Test
    void aCompanionNameTakenByAnotherSpecIsRejectedEagerly() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExampleParser.forExample(
                VarLenBytesFeature.of("x", 1, 1), VarLenFeature.of("x.lengths", DataType.INT64, 1)));
        assertEquals("output names must be unique: name=x.lengths", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ExampleParser.forSequenceExample(
                List.of(BytesFeature.of("w.steps", 1)), List.of(BytesSequenceFeature.of("w", 1, 1, 1))));
        assertThrows(IllegalArgumentException.class, () -> VarLenBytesFeature.of("x", 0, 1));
        assertThrows(IllegalArgumentException.class, () -> BytesSequenceFeature.of("x", 1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> VarLenSequenceFeature.of("x", DataType.INT64, 0, 1));
    }

    @Test
    void severalStringsKeepTheirBoundariesAndRowsFollowEachOther() {
        byte[] three = example(entry("tags", byteStrings(utf8("é"), new byte[0], utf8("日本🙂"))));
        byte[] missing = example();
        byte[] noList = example(entry("tags", message()));
        byte[] empty = example(entry("tags", strings()));
        byte[] two = example(entry("tags", strings("", "ab")));
        try (BatchBuffer b = TestRecords.parse(TAGS, three, missing, noList, empty, two)) {
            assertArrayEquals(utf8("é日本🙂"), BatchBytes.raggedRow(b, "tags", 0).toByteArray());
            assertArrayEquals(new long[] {2, 0, 10}, BatchBytes.raggedRow(b, "tags.lengths", 0).toLongArray());
            assertArrayEquals(new long[] {0, 12, 12, 12, 12, 14}, b.ragged("tags").offsets().toLongArray());
            assertArrayEquals(new long[] {0, 3, 3, 3, 3, 5}, b.ragged("tags.lengths").offsets().toLongArray());
            assertArrayEquals(new long[] {0, 2}, BatchBytes.raggedRow(b, "tags.lengths", 4).toLongArray());
            assertArrayEquals(utf8("ab"), BatchBytes.raggedRow(b, "tags", 4).toByteArray());
        }
    }

    @Test
    void limitsAndOtherListsAreErrorsNamingFeatureAndRecord() {
        CorruptDataException tooMany = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(TAGS, example(entry("tags", strings("a", "b", "c", "d", "e")))));
        assertEquals("Key: tags. Feature tags has 5 strings, more than maxStringsPerRow=4", tooMany.reason());
        assertEquals("test-file", tooMany.file());
        CorruptDataException tooLong = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(TAGS, example(entry("tags", strings("a"))), example(entry("tags", strings("0123456789", "0123456")))));
        assertEquals("Key: tags. Feature tags holds 17 bytes, more than maxBytesPerRow=16", tooLong.reason());
        assertEquals(1, tooLong.record());
        CorruptDataException floats = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(TAGS, example(entry("tags", floats(1f)))));
        assertEquals("Key: tags. Data types don't match: feature tags is a float_list, a UINT8 output reads a bytes_list",
                floats.reason());
        // Exactly at the limits fits.
        try (BatchBuffer b = TestRecords.parse(TAGS, example(entry("tags", strings("0123", "4567", "89ab", "cdef"))))) {
            assertArrayEquals(new long[] {4, 4, 4, 4}, BatchBytes.raggedRow(b, "tags.lengths", 0).toLongArray());
        }
    }

    @Test
    void bytesStepsRebuildStepsStringsAndBytes() {
        byte[] r = sequenceExample(map(), map(entry("words", featureList(strings("Hello", "World"), strings(), message(),
                byteStrings(utf8("ü"))).bytes(1, message()))));
        // Four steps are too many; use three.
        byte[] fits = sequenceExample(map(), map(entry("words", featureList(strings("Hello", "World"), strings(), strings("ü", "")))));
        byte[] missing = sequenceExample(map(), map());
        byte[] noSteps = sequenceExample(map(), map(entry("words", featureList())));
        byte[] noList = sequenceExample(map(), map(entry("words", featureList(message()))));
        try (BatchBuffer b = TestRecords.parse(WORDS, fits, missing, noSteps, noList)) {
            assertArrayEquals(utf8("HelloWorldü"), BatchBytes.raggedRow(b, "words", 0).toByteArray());
            assertArrayEquals(new long[] {5, 5, 2, 0}, BatchBytes.raggedRow(b, "words.lengths", 0).toLongArray());
            assertArrayEquals(new long[] {2, 0, 2}, BatchBytes.raggedRow(b, "words.steps", 0).toLongArray());
            assertArrayEquals(new long[] {0, 12, 12, 12, 12}, b.ragged("words").offsets().toLongArray());
            assertArrayEquals(new long[] {0, 4, 4, 4, 4}, b.ragged("words.lengths").offsets().toLongArray());
            // A step without a list holds zero strings, but is a step.
            assertArrayEquals(new long[] {0, 3, 3, 3, 4}, b.ragged("words.steps").offsets().toLongArray());
            assertArrayEquals(new long[] {0}, BatchBytes.raggedRow(b, "words.steps", 3).toLongArray());
        }
        CorruptDataException steps = assertThrows(CorruptDataException.class, () -> TestRecords.parse(WORDS, r));
        assertEquals("Key: words. Feature list words has 5 steps, more than maxSteps=3", steps.reason());
    }

    @Test
    void bytesStepLimitsAreErrors() {
        byte[] fiveStrings = sequenceExample(map(), map(entry("words", featureList(strings("a", "b"), strings("c", "d", "e")))));
        assertEquals("Key: words. Feature list words has 5 strings, more than maxStringsPerRow=4",
                assertThrows(CorruptDataException.class, () -> TestRecords.parse(WORDS, fiveStrings)).reason());
        byte[] longStrings = sequenceExample(map(), map(entry("words", featureList(strings("0123456789"), strings("0123456")))));
        assertEquals("Key: words. Feature list words holds 17 bytes, more than maxBytesPerRow=16",
                assertThrows(CorruptDataException.class, () -> TestRecords.parse(WORDS, longStrings)).reason());
        byte[] ints = sequenceExample(map(), map(entry("words", featureList(strings("a"), int64s(1)))));
        assertEquals("Key: words, step 1. Data types don't match: step 1 of feature list words is an int64_list, a UINT8 output"
                + " reads a bytes_list", assertThrows(CorruptDataException.class, () -> TestRecords.parse(WORDS, ints)).reason());
    }

    @Test
    void varLenStepsKeepTheirBoundaries() {
        byte[] r = sequenceExample(map(), map(entry("clicks", featureList(int64s(1, 2, 3), int64s(), message(), int64s(7)))));
        byte[] fits = sequenceExample(map(), map(entry("clicks", featureList(int64s(1, 2, 3), int64s(), int64s(-1L << 40 | 7)))));
        byte[] missing = sequenceExample(map(), map());
        try (BatchBuffer b = TestRecords.parse(CLICKS, fits, missing, fits)) {
            assertArrayEquals(new int[] {1, 2, 3, 7}, BatchBytes.raggedRow(b, "clicks", 0).toIntArray());
            assertArrayEquals(new long[] {3, 0, 1}, BatchBytes.raggedRow(b, "clicks.steps", 0).toLongArray());
            assertArrayEquals(new long[] {0, 4, 4, 8}, b.ragged("clicks").offsets().toLongArray());
            assertArrayEquals(new long[] {0, 3, 3, 6}, b.ragged("clicks.steps").offsets().toLongArray());
        }
        assertEquals("Key: clicks. Feature list clicks has 4 steps, more than maxSteps=3",
                assertThrows(CorruptDataException.class, () -> TestRecords.parse(CLICKS, r)).reason());
        byte[] six = sequenceExample(map(), map(entry("clicks", featureList(int64s(1, 2, 3), int64s(4, 5, 6)))));
        assertEquals("Key: clicks. Feature list clicks has 6 values, more than maxValuesPerRow=5",
                assertThrows(CorruptDataException.class, () -> TestRecords.parse(CLICKS, six)).reason());
        byte[] bytes = sequenceExample(map(), map(entry("clicks", featureList(strings("a")))));
        assertEquals("Key: clicks, step 0. Data types don't match: step 0 of feature list clicks is a bytes_list, an INT32 output"
                + " reads an int64_list", assertThrows(CorruptDataException.class, () -> TestRecords.parse(CLICKS, bytes)).reason());
    }

    @Test
    void floatStepsAreCopiedAndWidened() {
        ExampleParser p = ExampleParser.forSequenceExample(List.of(FixedLenFeature.of("n", Shape.of(), DataType.INT64).withDefault(0L)),
                List.of(VarLenSequenceFeature.of("v", DataType.FLOAT64, 4, 8)));
        byte[] r = sequenceExample(map(), map(entry("v", featureList(floats(0.5f, -2f), floats(), floats(Float.NaN)))));
        try (BatchBuffer b = TestRecords.parse(p, r)) {
            assertArrayEquals(new double[] {0.5, -2, Double.NaN}, BatchBytes.raggedRow(b, "v", 0).toDoubleArray());
            assertArrayEquals(new long[] {2, 0, 1}, BatchBytes.raggedRow(b, "v.steps", 0).toLongArray());
        }
    }
}
