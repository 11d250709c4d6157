package org.dataloader4j.tfrecord;

import static org.dataloader4j.tfrecord.Proto.entry;
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
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.testing.BatchBytes;
import org.dataloader4j.core.testing.TestRecords;
import org.junit.jupiter.api.Test;

/** SequenceExample records: context features and feature lists. */
class SequenceExampleParserTest {
    private static final FixedLenSequenceFeature TOKENS = FixedLenSequenceFeature.of("tokens", Shape.of(2), DataType.INT64, 3);
    private static final ExampleParser PARSER = ExampleParser.forSequenceExample(
            List.of(FixedLenFeature.of("len", Shape.of(), DataType.INT64).withDefault(-1)), List.of(TOKENS));

    @Test
    void contextAndFeatureListsAreReadFromTheirMessages() {
        byte[] r = sequenceExample(map(entry("len", int64s(2))),
                map(entry("tokens", featureList(int64s(1, 2), int64s(3, 4)))));
        try (BatchBuffer b = TestRecords.parse(PARSER, r)) {
            assertArrayEquals(new long[] {2}, b.tensor("len").toLongArray());
            assertArrayEquals(new long[] {1, 2, 3, 4}, BatchBytes.raggedRow(b, "tokens", 0).toLongArray());
        }
    }

    @Test
    void aMissingFeatureListHasZeroStepsAndRowsFollowEachOther() {
        byte[] none = sequenceExample(map(), map());
        byte[] one = sequenceExample(map(), map(entry("tokens", featureList(int64s(5, 6)))));
        byte[] empty = sequenceExample(map(), map(entry("tokens", featureList())));
        try (BatchBuffer b = TestRecords.parse(PARSER, one, none, empty, one)) {
            RaggedTensor t = b.ragged("tokens");
            assertArrayEquals(new long[] {0, 2, 2, 2, 4}, t.offsets().toLongArray());
            assertArrayEquals(new long[] {5, 6}, BatchBytes.raggedRow(b, "tokens", 3).toLongArray());
            assertArrayEquals(new long[] {-1, -1, -1, -1}, b.tensor("len").toLongArray());
        }
    }

    @Test
    void repeatedFeatureListsMessagesAndValuesMerge() {
        // feature_lists twice (the maps merge, a later key wins); an entry's two values concatenate their steps.
        Proto twoValues = message().string(1, "tokens").bytes(2, featureList(int64s(1, 1))).bytes(2, featureList(int64s(2, 2)));
        byte[] r = message()
                .bytes(2, map(entry("tokens", featureList(int64s(9, 9)))))
                .bytes(1, map(entry("len", int64s(7))))
                .bytes(2, map(twoValues))
                .toByteArray();
        try (BatchBuffer b = TestRecords.parse(PARSER, r)) {
            assertArrayEquals(new long[] {1, 1, 2, 2}, BatchBytes.raggedRow(b, "tokens", 0).toLongArray());
            assertArrayEquals(new long[] {7}, b.tensor("len").toLongArray());
        }
    }

    @Test
    void bytesStepsFillUint8Steps() {
        ExampleParser p = ExampleParser.forSequenceExample(List.of(),
                List.of(FixedLenSequenceFeature.of("s", Shape.of(2), DataType.UINT8, 4)));
        byte[] r = sequenceExample(map(), map(entry("s", featureList(strings("ab"), strings("cd")))));
        try (BatchBuffer b = TestRecords.parse(p, r)) {
            assertArrayEquals("abcd".getBytes(StandardCharsets.US_ASCII), BatchBytes.raggedRow(b, "s", 0).toByteArray());
        }
    }

    @Test
    void aFeatureListNamedLikeAContextFeatureIsNotConfusedWithIt() {
        ExampleParser p = ExampleParser.forSequenceExample(List.of(FixedLenFeature.of("a", Shape.of(), DataType.FLOAT32)),
                List.of(FixedLenSequenceFeature.of("b", Shape.of(), DataType.FLOAT32, 2)));
        byte[] r = sequenceExample(map(entry("a", floats(1)), entry("b", floats(2))),
                map(entry("a", featureList(floats(3))), entry("b", featureList(floats(4)))));
        try (BatchBuffer b = TestRecords.parse(p, r)) {
            assertArrayEquals(new float[] {1}, b.tensor("a").toFloatArray());
            assertArrayEquals(new float[] {4}, BatchBytes.raggedRow(b, "b", 0).toFloatArray());
        }
    }

    @Test
    void anExampleParserIgnoresFeatureLists() {
        // In a tf.Example, field 2 is unknown: the parser of Examples skips it.
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("len", Shape.of(), DataType.INT64));
        byte[] r = sequenceExample(map(entry("len", int64s(3))), map(entry("len", message().bytes(9, new byte[] {1}))));
        try (BatchBuffer b = TestRecords.parse(p, r)) {
            assertArrayEquals(new long[] {3}, b.tensor("len").toLongArray());
        }
    }

    @Test
    void tooManyStepsAreAnError() {
        byte[] r = sequenceExample(map(), map(entry("tokens", featureList(int64s(1, 1), int64s(2, 2), int64s(3, 3), int64s(4, 4)))));
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> TestRecords.parse(PARSER, r));
        assertEquals("Key: tokens. Feature list tokens has 4 steps, more than maxSteps=3", e.reason());
    }

    @Test
    void aStepOfAnotherLengthIsAnErrorNamingTheStep() {
        byte[] r = sequenceExample(map(), map(entry("tokens", featureList(int64s(1, 1), int64s(2)))));
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> TestRecords.parse(PARSER, r));
        assertEquals("Key: tokens, step 1. Can't parse serialized SequenceExample: step 1 of feature list tokens"
                + " has 1 int64_list values, its steps hold 2", e.reason());
        assertEquals(0, e.record());
    }

    @Test
    void aStepWithoutAListIsAnError() {
        byte[] r = sequenceExample(map(), map(entry("tokens", featureList(message()))));
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> TestRecords.parse(PARSER, r));
        assertEquals("Key: tokens, step 0. Can't parse serialized SequenceExample: step 0 of feature list tokens"
                + " sets no list, its steps hold 2", e.reason());
    }

    @Test
    void aStepOfAnotherTypeIsAnError() {
        byte[] r = sequenceExample(map(), map(entry("tokens", featureList(floats(1, 2)))));
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> TestRecords.parse(PARSER, r));
        assertEquals("Key: tokens, step 0. Data types don't match: step 0 of feature list tokens is a float_list,"
                + " an INT64 output reads an int64_list", e.reason());
    }

    @Test
    void malformedFeatureListsNameTheList() {
        Proto badStep = message().bytes(1, message().bytes(3, message().bytes(1, new byte[] {(byte) 0x80})));
        byte[] r = sequenceExample(map(), map(entry("tokens", badStep)));
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> TestRecords.parse(PARSER, r));
        assertEquals(true, e.reason().startsWith("truncated varint at byte "), e.reason());
        assertEquals(true, e.reason().endsWith(" of the record (feature list tokens)"), e.reason());
    }

    @Test
    void outputsComeContextFirst() {
        assertEquals(List.of(TensorSpec.dense("len", DataType.INT64, Shape.of(4)), TensorSpec.ragged("tokens", DataType.INT64, 4, 24)),
                PARSER.outputs(4));
        assertEquals(true, PARSER.isSequenceExample());
        assertEquals(List.of(TOKENS), PARSER.featureLists());
    }
}
