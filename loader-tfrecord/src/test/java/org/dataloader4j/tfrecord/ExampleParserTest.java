package org.dataloader4j.tfrecord;

import static org.dataloader4j.tfrecord.Proto.FIXED32;
import static org.dataloader4j.tfrecord.Proto.FLOAT_LIST;
import static org.dataloader4j.tfrecord.Proto.INT64_LIST;
import static org.dataloader4j.tfrecord.Proto.LEN;
import static org.dataloader4j.tfrecord.Proto.VARINT;
import static org.dataloader4j.tfrecord.Proto.byteStrings;
import static org.dataloader4j.tfrecord.Proto.entry;
import static org.dataloader4j.tfrecord.Proto.example;
import static org.dataloader4j.tfrecord.Proto.feature;
import static org.dataloader4j.tfrecord.Proto.floats;
import static org.dataloader4j.tfrecord.Proto.int64s;
import static org.dataloader4j.tfrecord.Proto.map;
import static org.dataloader4j.tfrecord.Proto.message;
import static org.dataloader4j.tfrecord.Proto.strings;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.testing.BatchBytes;
import org.dataloader4j.core.testing.TestRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** tf.Example records of every spec, and the protobuf semantics, one at a time. */
class ExampleParserTest {
    private static final FixedLenFeature X = FixedLenFeature.of("x", Shape.of(2), DataType.FLOAT32);

    private static BatchBuffer parse(ExampleParser parser, byte[]... records) {
        return TestRecords.parse(parser, records);
    }

    private static float[] floatsOf(BatchBuffer b, String name) {
        return b.tensor(name).toFloatArray();
    }

    private static long[] raggedLongs(BatchBuffer b, String name, int row) {
        return BatchBytes.raggedRow(b, name, row).toLongArray();
    }

    // ---- FixedLenFeature ----

    @Test
    void aFixedLenFloatFeatureFillsItsRow() {
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("img", Shape.of(2, 2), DataType.FLOAT32));
        try (BatchBuffer b = parse(p, example(entry("img", floats(1, -0f, Float.NaN, Float.NEGATIVE_INFINITY))),
                example(entry("img", floats(5, 6, 7, 8))))) {
            assertEquals(Shape.of(2, 2, 2), b.tensor("img").shape());
            float[] v = floatsOf(b, "img");
            assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(v[1]));
            assertEquals(Float.floatToRawIntBits(Float.NaN), Float.floatToRawIntBits(v[2]));
            assertArrayEquals(new float[] {5, 6, 7, 8}, Arrays.copyOfRange(v, 4, 8));
        }
    }

    @Test
    void aNaNPayloadIsCopiedBitForBit() {
        float payload = Float.intBitsToFloat(0x7FC12345);
        try (BatchBuffer b = parse(ExampleParser.forExample(X), example(entry("x", floats(payload, 1))))) {
            assertEquals(0x7FC12345, b.tensor("x").segment().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        }
    }

    @Test
    void float64RowsWidenAFloatList() {
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("x", Shape.of(2), DataType.FLOAT64));
        try (BatchBuffer b = parse(p, example(entry("x", floats(0.1f, Float.POSITIVE_INFINITY))))) {
            assertArrayEquals(new double[] {0.1f, Double.POSITIVE_INFINITY}, b.tensor("x").toDoubleArray());
        }
    }

    @Test
    void int64RowsKeepEveryBitAndNarrowerTypesWrapAround() {
        ExampleParser p = ExampleParser.forExample(
                FixedLenFeature.of("a", Shape.of(3), DataType.INT64),
                FixedLenFeature.of("b", Shape.of(3), DataType.INT32),
                FixedLenFeature.of("c", Shape.of(3), DataType.UINT8),
                FixedLenFeature.of("d", Shape.of(3), DataType.INT8));
        long[] v = {Long.MIN_VALUE, Long.MAX_VALUE, 0x1_0000_01FFL};
        try (BatchBuffer b = parse(p, example(entry("a", int64s(v)), entry("b", int64s(v)), entry("c", int64s(v)),
                entry("d", int64s(v))))) {
            assertArrayEquals(v, b.tensor("a").toLongArray());
            assertArrayEquals(new int[] {0, -1, 0x1FF}, b.tensor("b").toIntArray());
            assertArrayEquals(new byte[] {0, -1, -1}, b.tensor("c").toByteArray());
            assertArrayEquals(new byte[] {0, -1, -1}, b.tensor("d").toByteArray());
        }
    }

    @Test
    void aScalarShapeIsOneValuePerRow() {
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("label", Shape.of(), DataType.INT64));
        try (BatchBuffer b = parse(p, example(entry("label", int64s(7))), example(entry("label", int64s(-3))))) {
            assertEquals(Shape.of(2), b.tensor("label").shape());
            assertArrayEquals(new long[] {7, -3}, b.tensor("label").toLongArray());
        }
    }

    @Test
    void aBytesListOfOneStringFillsAUint8RowWithItsBytes() {
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("raw", Shape.of(2, 2), DataType.UINT8));
        try (BatchBuffer b = parse(p, example(entry("raw", byteStrings(new byte[] {1, 2, 3, (byte) 255}))))) {
            assertArrayEquals(new byte[] {1, 2, 3, (byte) 255}, b.tensor("raw").toByteArray());
        }
    }

    @Test
    void aDefaultOfOneValueIsBroadcast() {
        ExampleParser p = ExampleParser.forExample(X.withDefault(2.5), FixedLenFeature.of("n", Shape.of(2), DataType.INT64)
                .withDefault(Long.MIN_VALUE));
        try (BatchBuffer b = parse(p, example(entry("other", floats(1))))) {
            assertArrayEquals(new float[] {2.5f, 2.5f}, floatsOf(b, "x"));
            assertArrayEquals(new long[] {Long.MIN_VALUE, Long.MIN_VALUE}, b.tensor("n").toLongArray());
        }
    }

    @Test
    void aDefaultMayBeAFullRow() {
        ExampleParser p = ExampleParser.forExample(X.withDefault(1, 2));
        try (BatchBuffer b = parse(p, example(), example(entry("x", floats(3, 4))))) {
            assertArrayEquals(new float[] {1, 2, 3, 4}, floatsOf(b, "x"));
        }
    }

    @Test
    void aFeatureThatSetsNoListCountsAsMissing() {
        // TFX's CSV import writes a missing value as an empty Feature; TensorFlow's parser treats it as missing.
        ExampleParser p = ExampleParser.forExample(X.withDefault(9), VarLenFeature.of("v", DataType.INT64, 4),
                BytesFeature.of("s", 8));
        try (BatchBuffer b = parse(p, example(entry("x", message()), entry("v", message()), entry("s", message())))) {
            assertArrayEquals(new float[] {9, 9}, floatsOf(b, "x"));
            assertEquals(0, b.ragged("v").rowLength(0));
            assertEquals(0, b.ragged("s").rowLength(0));
        }
    }

    @Test
    void anEntryWithoutAValueIsAnEmptyFeature() {
        ExampleParser p = ExampleParser.forExample(X.withDefault(4));
        try (BatchBuffer b = parse(p, example(message().string(1, "x")))) {
            assertArrayEquals(new float[] {4, 4}, floatsOf(b, "x"));
        }
    }

    @Test
    void denseRowsAreFullyWrittenOverAnEarlierBatch() {
        ExampleParser p = ExampleParser.forExample(X.withDefault(0));
        try (BatchBuffer b = BatchBuffer.of(p, 2).fill(0x7F)) {
            TestRecords.parse(b, p, ParallelLoop.sequential(), List.of(example(), example(entry("x", floats(1, 2)))));
            assertArrayEquals(new float[] {0, 0, 1, 2}, floatsOf(b, "x"));
        }
    }

    // ---- VarLenFeature and BytesFeature ----

    @Test
    void varLenRowsAreRaggedAndAMissingFeatureIsAnEmptyRow() {
        ExampleParser p = ExampleParser.forExample(VarLenFeature.of("ids", DataType.INT64, 3));
        try (BatchBuffer b = parse(p, example(entry("ids", int64s(1, 2, 3))), example(), example(entry("ids", int64s())),
                example(entry("ids", int64s(-1))))) {
            RaggedTensor t = b.ragged("ids");
            assertArrayEquals(new long[] {0, 3, 3, 3, 4}, t.offsets().toLongArray());
            assertArrayEquals(new long[] {1, 2, 3}, raggedLongs(b, "ids", 0));
            assertArrayEquals(new long[] {-1}, raggedLongs(b, "ids", 3));
        }
    }

    @Test
    void varLenFloatsInto32And64Bits() {
        ExampleParser p = ExampleParser.forExample(VarLenFeature.of("f", DataType.FLOAT32, 4),
                VarLenFeature.of("d", DataType.FLOAT64, 4));
        try (BatchBuffer b = parse(p, example(entry("f", floats(1, 2)), entry("d", floats(0.5f))))) {
            assertArrayEquals(new float[] {1, 2}, BatchBytes.raggedRow(b, "f", 0).toFloatArray());
            assertArrayEquals(new double[] {0.5}, BatchBytes.raggedRow(b, "d", 0).toDoubleArray());
        }
    }

    @Test
    void aBytesFeatureRowIsTheStringsBytes() {
        ExampleParser p = ExampleParser.forExample(BytesFeature.of("s", 16));
        try (BatchBuffer b = parse(p, example(entry("s", strings("héllo"))), example(entry("s", byteStrings())),
                example(), example(entry("s", strings(""))))) {
            assertArrayEquals("héllo".getBytes(StandardCharsets.UTF_8), BatchBytes.raggedRow(b, "s", 0).toByteArray());
            for (int row = 1; row < 4; row++) {
                assertEquals(0, b.ragged("s").rowLength(row), "row " + row);
            }
        }
    }

    @Test
    void specsDeclareTheirOutputs() {
        ExampleParser p = ExampleParser.forExample(X, VarLenFeature.of("v", DataType.INT32, 5), BytesFeature.of("s", 100));
        assertEquals(List.of(TensorSpec.dense("x", DataType.FLOAT32, Shape.of(8, 2)),
                TensorSpec.ragged("v", DataType.INT32, 8, 40), TensorSpec.ragged("s", DataType.UINT8, 8, 800)), p.outputs(8));
    }

    // ---- protobuf semantics ----

    @Test
    void repeatedFeaturesMessagesMergeAndALaterKeyWins() {
        byte[] r = message()
                .bytes(1, map(entry("x", floats(1, 1)), entry("y", int64s(5))))
                .bytes(1, map(entry("x", floats(2, 2))))
                .toByteArray();
        ExampleParser p = ExampleParser.forExample(X, FixedLenFeature.of("y", Shape.of(), DataType.INT64));
        try (BatchBuffer b = parse(p, r)) {
            assertArrayEquals(new float[] {2, 2}, floatsOf(b, "x"));
            assertArrayEquals(new long[] {5}, b.tensor("y").toLongArray());
        }
    }

    @Test
    void aRepeatedKeyInOneMessageLastWins() {
        try (BatchBuffer b = parse(ExampleParser.forExample(X), example(entry("x", floats(1, 1)), entry("x", floats(3, 4))))) {
            assertArrayEquals(new float[] {3, 4}, floatsOf(b, "x"));
        }
    }

    @Test
    void anEntryMayHoldItsValueBeforeItsKey() {
        Proto valueFirst = message().bytes(2, floats(7, 8)).string(1, "x");
        try (BatchBuffer b = parse(ExampleParser.forExample(X), example(valueFirst))) {
            assertArrayEquals(new float[] {7, 8}, floatsOf(b, "x"));
        }
    }

    @Test
    void repeatedValuesOfAnEntryMerge() {
        Proto twoValues = message().string(1, "x").bytes(2, floats(1)).bytes(2, floats(2));
        try (BatchBuffer b = parse(ExampleParser.forExample(X), example(twoValues))) {
            assertArrayEquals(new float[] {1, 2}, floatsOf(b, "x"));
        }
    }

    @Test
    void theLastListOfAFeatureWins() {
        Proto f = message().bytes(INT64_LIST, message().bytes(1, message().rawVarint(1)))
                .bytes(FLOAT_LIST, message().bytes(1, message().rawFixed32(Float.floatToRawIntBits(3)).rawFixed32(0)));
        try (BatchBuffer b = parse(ExampleParser.forExample(X), example(entry("x", f)))) {
            assertArrayEquals(new float[] {3, 0}, floatsOf(b, "x"));
        }
    }

    @Test
    void packedUnpackedAndSplitRunsConcatenate() {
        Proto list = message()
                .bytes(1, message().rawFixed32(Float.floatToRawIntBits(1)))
                .tag(1, FIXED32).rawFixed32(Float.floatToRawIntBits(2))
                .bytes(1, message().rawFixed32(Float.floatToRawIntBits(3)));
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("x", Shape.of(4), DataType.FLOAT32));
        Proto twice = message().bytes(FLOAT_LIST, list).bytes(FLOAT_LIST, message().tag(1, FIXED32).rawFixed32(Float.floatToRawIntBits(4)));
        try (BatchBuffer b = parse(p, example(entry("x", twice)))) {
            assertArrayEquals(new float[] {1, 2, 3, 4}, floatsOf(b, "x"));
        }
    }

    @Test
    void unpackedAndOverlongVarintsDecode() {
        Proto list = message().tag(1, VARINT).rawVarint(-5).tag(1, VARINT).paddedVarint(3, 5);
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("n", Shape.of(2), DataType.INT64));
        try (BatchBuffer b = parse(p, example(entry("n", feature(INT64_LIST, list))))) {
            assertArrayEquals(new long[] {-5, 3}, b.tensor("n").toLongArray());
        }
    }

    @Test
    void unknownFieldsAreSkippedAtEveryLevel() {
        Proto list = message().varint(9, 1).bytes(1, message().rawFixed32(Float.floatToRawIntBits(1)).rawFixed32(0))
                .varint(1, 77); // field 1 with the wrong wire type is unknown too
        Proto f = message().fixed64(8, -1).bytes(FLOAT_LIST, list).bytes(4, "bytes".getBytes(StandardCharsets.UTF_8));
        Proto e = message().fixed32(3, 1).string(1, "x").bytes(2, f).varint(5, 5);
        Proto features = message().varint(2, 1).bytes(1, e).tag(1, VARINT).rawVarint(3);
        byte[] r = message().string(7, "junk").bytes(1, features).fixed32(2, 9).varint(1, 1).toByteArray();
        try (BatchBuffer b = parse(ExampleParser.forExample(X), r)) {
            assertArrayEquals(new float[] {1, 0}, floatsOf(b, "x"));
        }
    }

    @Test
    void anEmptyRecordHasEveryFeatureMissing() {
        ExampleParser p = ExampleParser.forExample(X.withDefault(1), VarLenFeature.of("v", DataType.INT64, 2));
        try (BatchBuffer b = parse(p, new byte[0])) {
            assertArrayEquals(new float[] {1, 1}, floatsOf(b, "x"));
            assertEquals(0, b.ragged("v").rowLength(0));
        }
    }

    @Test
    void keysAreComparedAsUtf8BytesAndPrefixesDoNotMatch() {
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("日本🙂", Shape.of(), DataType.INT64).withDefault(0));
        try (BatchBuffer b = parse(p, example(entry("日本", int64s(1)), entry("", int64s(2)), entry("日本🙂x", int64s(3))),
                example(entry("日本🙂", int64s(4))))) {
            assertArrayEquals(new long[] {0, 4}, b.tensor("日本🙂").toLongArray());
        }
    }

    @ParameterizedTest
    @EnumSource(DataType.class)
    void everyTypeReadsItsList(DataType type) {
        boolean floating = type == DataType.FLOAT32 || type == DataType.FLOAT64;
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("v", Shape.of(1), type));
        try (BatchBuffer b = parse(p, example(entry("v", floating ? floats(3) : int64s(3))))) {
            assertEquals(3, switch (type) {
                case INT8, UINT8 -> b.tensor("v").getByte(0);
                case INT32 -> b.tensor("v").getInt(0);
                case INT64 -> b.tensor("v").getLong(0);
                case FLOAT32 -> b.tensor("v").getFloat(0);
                case FLOAT64 -> b.tensor("v").getDouble(0);
            }, 0);
        }
    }

    @Test
    void aLengthDelimitedFieldOfAnotherNumberInAFeatureIsSkipped() {
        // Field 4 is no list of TensorFlow's Feature (it is OFRecord's int32_list).
        Proto f = message().bytes(4, message().bytes(1, new byte[] {1})).bytes(FLOAT_LIST, message().tag(1, LEN).rawVarint(0));
        ExampleParser p = ExampleParser.forExample(VarLenFeature.of("x", DataType.FLOAT32, 2));
        try (BatchBuffer b = parse(p, example(entry("x", f)))) {
            assertEquals(0, b.ragged("x").rowLength(0));
        }
    }
}
