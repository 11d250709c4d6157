package org.dataloader4j.ofrecord;

import static org.dataloader4j.ofrecord.Proto.VARINT;
import static org.dataloader4j.ofrecord.Proto.entry;
import static org.dataloader4j.ofrecord.Proto.feature;
import static org.dataloader4j.ofrecord.Proto.message;
import static org.dataloader4j.ofrecord.Proto.packedFloats;
import static org.dataloader4j.ofrecord.Proto.packedVarints;
import static org.dataloader4j.ofrecord.Proto.record;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.core.testing.BatchBytes;
import org.dataloader4j.core.testing.ParserChecks;
import org.dataloader4j.core.testing.TestRecords;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.proto.Feature;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a user of the raw and bytes decoders relies on, one behaviour per test. */
class OFRecordParserTest {
    private static final OFRecordRawDecoder IMAGES = OFRecordRawDecoder.of("images", Shape.of(2, 2), DataType.FLOAT32);
    private static final OFRecordRawDecoder LABELS = OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT64);

    static byte[] canonical(Map<String, Feature> features) {
        return Features.record(features).toByteArray();
    }

    @Test
    void decodesDenseFeaturesOfEveryRow() {
        OFRecordParser parser = OFRecordParser.of(IMAGES, LABELS);
        try (BatchBuffer b = TestRecords.parse(parser,
                canonical(Map.of("images", Features.floatFeature(1, 2, 3, 4), "labels", Features.int64Feature(7))),
                canonical(Map.of("images", Features.floatFeature(5, 6, 7, 8), "labels", Features.int64Feature(-9))))) {
            assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6, 7, 8}, b.tensor("images").toFloatArray());
            assertArrayEquals(new long[] {7, -9}, b.tensor("labels").toLongArray());
            assertEquals(Shape.of(2, 2, 2), b.tensor("images").shape());
        }
    }

    @Test
    void outputsAreTheDecodersSpecsInOrder() {
        OFRecordBytesDecoder text = OFRecordBytesDecoder.of("text", 100);
        OFRecordParser parser = OFRecordParser.of(LABELS, text, IMAGES);
        assertEquals(List.of(LABELS.spec(8), text.spec(8), IMAGES.spec(8)), parser.outputs(8));
        assertEquals(List.of(LABELS, text, IMAGES), parser.decoders());
    }

    @Test
    void decoderNamesMustBeUniqueAndPresent() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OFRecordParser.of(IMAGES, OFRecordBytesDecoder.of("images", 10)));
        assertEquals("decoder names must be unique: name=images", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new OFRecordParser(List.of()));
        assertThrows(IllegalArgumentException.class, () -> OFRecordParser.of(OFRecordBytesDecoder.of("", 10)));
    }

    @Test
    void keepsFloatBitsExactlyIncludingNanPayloads() {
        float[] odd = {Float.intBitsToFloat(0x7fc01234), Float.intBitsToFloat(0xffc00001), -0.0f, Float.NEGATIVE_INFINITY};
        try (BatchBuffer b = TestRecords.parse(OFRecordParser.of(IMAGES), canonical(Map.of("images", Features.floatFeature(odd))))) {
            float[] got = b.tensor("images").toFloatArray();
            for (int i = 0; i < odd.length; i++) {
                assertEquals(Float.floatToRawIntBits(odd[i]), Float.floatToRawIntBits(got[i]), "value " + i);
            }
        }
    }

    @Test
    void aDenseCountMismatchNamesTheFeatureAndTheRecord() {
        OFRecordRawDecoder images = OFRecordRawDecoder.of("images", Shape.of(784), DataType.FLOAT32);
        byte[] good = canonical(Map.of("images", Features.floatFeature(new float[784])));
        byte[] bad = canonical(Map.of("images", Features.floatFeature(new float[783])));
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(OFRecordParser.of(images), good, bad));
        assertEquals("feature images has 783 values, its rows hold 784", e.reason());
        assertEquals("test-file", e.file());
        assertEquals(1, e.record());
        assertEquals(200, e.offset());
        assertEquals("feature images has 783 values, its rows hold 784 at record 1, offset 200 in test-file", e.getMessage());
    }

    @Test
    void truncateCutsLongListsAndZeroPadsShortOnesEvenOverAnEarlierBatch() {
        OFRecordParser parser = OFRecordParser.of(IMAGES.withTruncate());
        try (BatchBuffer b = BatchBuffer.of(parser, 2).fill(0x5A)) {
            TestRecords.parse(b, parser, ParallelLoop.sequential(), List.of(
                    canonical(Map.of("images", Features.floatFeature(1, 2, 3, 4, 5, 6))),
                    canonical(Map.of("images", Features.floatFeature(9, 9, 9, 9)))));
            assertArrayEquals(new float[] {1, 2, 3, 4, 9, 9, 9, 9}, b.tensor("images").toFloatArray());
            // The same memory again, as the ring reuses a slot: the tails must not keep 9s.
            TestRecords.parse(b, parser, ParallelLoop.sequential(), List.of(
                    canonical(Map.of("images", Features.floatFeature(1))),
                    canonical(Map.of("images", Features.floatFeature()))));
            assertArrayEquals(new float[] {1, 0, 0, 0, 0, 0, 0, 0}, b.tensor("images").toFloatArray());
        }
    }

    /** {@code n} token-like values of one to three bytes, among runs of one-byte ones. */
    private static long[] tokens(int n) {
        return LongStream.range(0, n).map(i -> i % 16 < 9 ? i % 128 : 1000 + i * 211).toArray();
    }

    /** A record whose {@code input_ids} are {@code values}, followed in the packed list by {@code tail} as it is. */
    private static byte[] inputIds(long[] values, byte... tail) {
        Proto packed = message();
        for (long v : values) {
            packed.rawVarint(v);
        }
        return record(entry("input_ids", feature(4, message().bytes(1, packed.raw(tail)))));
    }

    @Test
    void aDenseVarintListMustFillItsRowExactlyAndNeverWritesPastIt() {
        OFRecordRawDecoder ids = OFRecordRawDecoder.of("input_ids", Shape.of(128), DataType.INT32);
        OFRecordParser parser = OFRecordParser.of(ids);
        byte[] good = inputIds(tokens(128));
        CorruptDataException many = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(parser, good, inputIds(tokens(129))));
        assertEquals("feature input_ids has 129 values, its rows hold 128", many.reason());
        assertEquals(1, many.record());
        assertEquals("feature input_ids has 127 values, its rows hold 128",
                assertThrows(CorruptDataException.class, () -> TestRecords.parse(parser, inputIds(tokens(127)))).reason());
        try (BatchBuffer b = BatchBuffer.of(parser, 3).fill(0x5A)) {
            assertThrows(CorruptDataException.class,
                    () -> TestRecords.parse(b, parser, ParallelLoop.sequential(), List.of(good, inputIds(tokens(200)), good)));
            byte[] next = new byte[128 * Integer.BYTES];
            Arrays.fill(next, (byte) 0x5A);
            assertArrayEquals(next, BatchBytes.rowBytes(b, "input_ids", 2), "the row after a failed one is not written");
        }
    }

    @Test
    void aTruncatedDenseVarintListKeepsItsHeadOrIsZeroPadded() {
        OFRecordParser parser = OFRecordParser.of(OFRecordRawDecoder.of("input_ids", Shape.of(128), DataType.INT32).withTruncate());
        try (BatchBuffer b = BatchBuffer.of(parser, 2).fill(0x5A)) {
            TestRecords.parse(b, parser, ParallelLoop.sequential(), List.of(inputIds(tokens(129)), inputIds(tokens(127))));
            long[] expected = new long[256];
            System.arraycopy(tokens(128), 0, expected, 0, 128);
            System.arraycopy(tokens(127), 0, expected, 128, 127);
            assertArrayEquals(Arrays.stream(expected).mapToInt(v -> (int) v).toArray(),
                    b.tensor("input_ids").toIntArray());
        }
    }

    @Test
    void aMalformedVarintPastTheRowIsAnErrorEvenWhenTruncating() {
        byte[] tenContinuations = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1};
        byte[] r = inputIds(tokens(128), tenContinuations);
        for (OFRecordRawDecoder ids : List.of(OFRecordRawDecoder.of("input_ids", Shape.of(128), DataType.INT32),
                OFRecordRawDecoder.of("input_ids", Shape.of(128), DataType.INT32).withTruncate())) {
            CorruptDataException e = assertThrows(CorruptDataException.class, () -> TestRecords.parse(OFRecordParser.of(ids), r));
            // The bad varint starts right after the 128 good ones, which end the record but for it.
            int at = r.length - tenContinuations.length;
            assertEquals("malformed varint at byte " + at + " of the record (feature input_ids)", e.reason());
        }
    }

    @Test
    void raggedRowsHoldTheirOwnValuesBackToBack() {
        OFRecordRawDecoder tokens = OFRecordRawDecoder.of("tokens", Shape.of(4), DataType.INT32).withDim1VaryingLength();
        OFRecordParser parser = OFRecordParser.of(tokens);
        assertEquals(TensorSpec.ragged("tokens", DataType.INT32, 3, 12), parser.outputs(3).get(0));
        try (BatchBuffer b = BatchBuffer.of(parser, 3).fill(0x77)) {
            TestRecords.parse(b, parser, ParallelLoop.sequential(), List.of(
                    canonical(Map.of("tokens", Features.int32Feature(1, 2, 3))),
                    canonical(Map.of("tokens", Features.int32Feature())),
                    canonical(Map.of("tokens", Features.int32Feature(4, -5, 6, 7)))));
            assertArrayEquals(new long[] {0, 3, 3, 7}, b.ragged("tokens").offsets().toLongArray());
            assertArrayEquals(new int[] {1, 2, 3, 4, -5, 6, 7}, b.ragged("tokens").values().rows(0, 7).toIntArray());
        }
    }

    @Test
    void recordsOfOneLayoutReadTheirOwnValuesEvenWhereTheBytesAroundThemMatch() {
        // The same length and the same bytes around the lists, row after row: the parser takes
        // the layout from the first row and only the values from each record.
        OFRecordParser parser = OFRecordParser.of(IMAGES, LABELS);
        try (BatchBuffer b = TestRecords.parse(parser,
                canonical(Map.of("images", Features.floatFeature(1, 2, 3, 4), "labels", Features.int64Feature(7))),
                canonical(Map.of("images", Features.floatFeature(5, 6, 7, 8), "labels", Features.int64Feature(9))),
                canonical(Map.of("images", Features.floatFeature(-1, -2, -3, -4), "labels", Features.int64Feature(0))))) {
            assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4}, b.tensor("images").toFloatArray());
            assertArrayEquals(new long[] {7, 9, 0}, b.tensor("labels").toLongArray());
        }

        // One unpacked varint, 16384 in three bytes, then two unpacked varints in the same three
        // bytes: 5, a tag, 7. The bytes around them match, but only a scan finds the second tag.
        OFRecordRawDecoder ragged = OFRecordRawDecoder.of("labels", Shape.of(4), DataType.INT64).withDim1VaryingLength();
        byte[] one = record(entry("labels", feature(5, message().varint(1, 16384))));
        byte[] two = record(entry("labels", feature(5, message().varint(1, 5).varint(1, 7))));
        assertEquals(one.length, two.length);
        OFRecordParser raggedParser = OFRecordParser.of(ragged);
        try (BatchBuffer b = TestRecords.parse(raggedParser, one, two)) {
            assertArrayEquals(new long[] {0, 1, 3}, b.ragged("labels").offsets().toLongArray());
            assertArrayEquals(new long[] {16384, 5, 7}, b.ragged("labels").values().rows(0, 3).toLongArray());
        }
    }

    @Test
    void recordsOfALayoutCopiedFirstReadTheirOwnValuesAndAnotherFrameOfTheSameLengthIsScanned() {
        // 300 floats (1,200 bytes) are the record, but for its frame: the parser copies them to
        // their row before it compares the frame. Row 2 has the same length with its entries the
        // other way round, so its floats lie elsewhere: it must be scanned, and its row written again.
        OFRecordRawDecoder images = OFRecordRawDecoder.of("images", Shape.of(300), DataType.FLOAT32);
        OFRecordParser parser = OFRecordParser.of(images, LABELS);
        byte[] first = record(entry("images", feature(2, packedFloats(floats(300, 0)))),
                entry("labels", feature(5, packedVarints(7))));
        byte[] second = record(entry("images", feature(2, packedFloats(floats(300, 1000)))),
                entry("labels", feature(5, packedVarints(8))));
        byte[] swapped = record(entry("labels", feature(5, packedVarints(9))),
                entry("images", feature(2, packedFloats(floats(300, 2000)))));
        byte[] fourth = record(entry("images", feature(2, packedFloats(floats(300, 3000)))),
                entry("labels", feature(5, packedVarints(6))));
        assertEquals(first.length, swapped.length);
        try (BatchBuffer b = TestRecords.parse(parser, first, second, swapped, fourth)) {
            for (int row = 0; row < 4; row++) {
                assertArrayEquals(floats(300, 1000 * row), b.tensor("images").rows(row, 1).toFloatArray(), "row " + row);
            }
            assertArrayEquals(new long[] {7, 8, 9, 6}, b.tensor("labels").toLongArray());
        }
        ParserChecks.eachRowIsItsRecordAlone(parser, List.of(first, swapped, second, swapped, fourth));

        // The same length, its frame broken: the row's floats were copied, and the record is refused.
        byte[] broken = fourth.clone();
        broken[2] = 0x7f; // the first entry's length, past the record's end
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(parser, first, second, broken));
        assertEquals(2, e.record());
    }

    @Test
    @Timeout(10)
    void aBatchCopiedFirstOnSeveralThreadsHoldsWhatOneThreadWrites() {
        // Each thread learns the layout on its own and copies only the rows of its own range.
        OFRecordRawDecoder images = OFRecordRawDecoder.of("images", Shape.of(300), DataType.FLOAT32);
        OFRecordParser parser = OFRecordParser.of(images, LABELS);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Proto floats = entry("images", feature(2, packedFloats(floats(300, 1000 * i))));
            Proto label = entry("labels", feature(5, packedVarints(i % 100)));
            records.add(i % 7 == 3 ? record(label, floats) : record(floats, label));
        }
        try (MultiThreadLoop threads = new MultiThreadLoop("copied-first-test", 3);
             BatchBuffer one = BatchBuffer.of(parser, records.size()).fill(0xA5);
             BatchBuffer three = BatchBuffer.of(parser, records.size()).fill(0x5A)) {
            TestRecords.parse(one, parser, ParallelLoop.sequential(), records);
            three.parse(parser, TestRecords.slices(records), threads);
            assertArrayEquals(BatchBytes.written(one), BatchBytes.written(three));
            for (int row = 0; row < records.size(); row++) {
                assertArrayEquals(floats(300, 1000 * row), three.tensor("images").rows(row, 1).toFloatArray(), "row " + row);
                assertEquals(row % 100, three.tensor("labels").rows(row, 1).toLongArray()[0], "row " + row);
            }
        }
    }

    private static float[] floats(int n, int from) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = from + i + 0.5f;
        }
        return v;
    }

    @Test
    void aRaggedRowTooLongIsAnErrorNeverAnOverflowIntoTheNextRow() {
        OFRecordRawDecoder tokens = OFRecordRawDecoder.of("tokens", Shape.of(3), DataType.INT64).withDim1VaryingLength();
        byte[] longRow = canonical(Map.of("tokens", Features.int64Feature(1, 2, 3, 4, 5)));
        byte[] next = canonical(Map.of("tokens", Features.int64Feature(8, 9)));
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(OFRecordParser.of(tokens), next, longRow, next));
        assertEquals("feature tokens has 5 values, its rows hold at most 3", e.reason());
        assertEquals(1, e.record());
        try (BatchBuffer b = TestRecords.parse(OFRecordParser.of(tokens.withTruncate()), longRow, next)) {
            assertArrayEquals(new long[] {1, 2, 3}, BatchBytes.raggedRow(b, "tokens", 0).toLongArray());
            assertArrayEquals(new long[] {8, 9}, BatchBytes.raggedRow(b, "tokens", 1).toLongArray());
        }
    }

    @Test
    void aMissingFeatureIsAnErrorUnlessItHasADefault() {
        byte[] noLabels = canonical(Map.of("images", Features.floatFeature(1, 2, 3, 4)));
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(OFRecordParser.of(IMAGES, LABELS), noLabels));
        assertEquals("missing feature labels", e.reason());
        assertEquals(0, e.record());
        OFRecordRawDecoder tokens = OFRecordRawDecoder.of("tokens", Shape.of(3), DataType.INT64).withDim1VaryingLength();
        OFRecordParser parser = OFRecordParser.of(IMAGES, LABELS.withDefault(-1), tokens.withDefault(5));
        try (BatchBuffer b = BatchBuffer.of(parser, 1).fill(0x33)) {
            TestRecords.parse(b, parser, ParallelLoop.sequential(), List.of(noLabels));
            assertArrayEquals(new long[] {-1}, b.tensor("labels").toLongArray());
            assertEquals(0, b.ragged("tokens").rowLength(0), "a ragged row of a missing feature is empty");
        }
        OFRecordParser floats = OFRecordParser.of(OFRecordRawDecoder.of("x", Shape.of(3), DataType.FLOAT64).withDefault(0.25));
        try (BatchBuffer b = TestRecords.parse(floats, record())) {
            assertArrayEquals(new double[] {0.25, 0.25, 0.25}, b.tensor("x").toDoubleArray());
        }
    }

    @Test
    void emptyListsAreEmptyRowsOrZeroPaddedOrCountMismatches() {
        byte[] empty = canonical(Map.of("x", Features.floatFeature()));
        OFRecordRawDecoder x = OFRecordRawDecoder.of("x", Shape.of(2), DataType.FLOAT32);
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> TestRecords.parse(OFRecordParser.of(x), empty));
        assertEquals("feature x has 0 values, its rows hold 2", e.reason());
        try (BatchBuffer b = TestRecords.parse(OFRecordParser.of(x.withTruncate()), empty)) {
            assertArrayEquals(new float[] {0, 0}, b.tensor("x").toFloatArray());
        }
        try (BatchBuffer b = TestRecords.parse(OFRecordParser.of(x.withDim1VaryingLength()), empty, empty)) {
            assertArrayEquals(new long[] {0, 0, 0}, b.ragged("x").offsets().toLongArray());
        }
    }

    @Test
    void theLastEntryOfARepeatedKeyWins() {
        byte[] r = record(
                entry("labels", feature(5, packedVarints(1))),
                entry("other", feature(5, packedVarints(2))),
                entry("labels", feature(5, packedVarints(3))));
        try (BatchBuffer b = TestRecords.parse(OFRecordParser.of(LABELS), r)) {
            assertArrayEquals(new long[] {3}, b.tensor("labels").toLongArray());
        }
        // Even when the earlier entry held another kind of list.
        byte[] kinds = record(entry("labels", feature(2, packedFloats(1.5f))), entry("labels", feature(5, packedVarints(4))));
        try (BatchBuffer b = TestRecords.parse(OFRecordParser.of(LABELS), kinds)) {
            assertArrayEquals(new long[] {4}, b.tensor("labels").toLongArray());
        }
    }

    @Test
    void anEntryMayHoldItsValueBeforeItsKey() {
        Proto swapped = message().bytes(2, feature(5, packedVarints(42))).string(1, "labels");
        try (BatchBuffer b = TestRecords.parse(OFRecordParser.of(LABELS), record(swapped))) {
            assertArrayEquals(new long[] {42}, b.tensor("labels").toLongArray());
        }
    }

    @Test
    void anEntryWithoutAKeyIsTheEmptyKeyAndOneWithoutAValueHoldsNoList() {
        Proto noKey = message().bytes(2, feature(5, packedVarints(1)));
        CorruptDataException missing = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(OFRecordParser.of(LABELS), record(noKey)));
        assertEquals("missing feature labels", missing.reason());
        Proto noValue = message().string(1, "labels");
        CorruptDataException noList = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(OFRecordParser.of(LABELS), record(noValue)));
        assertEquals("feature labels holds no list (its Feature sets no kind)", noList.reason());
    }

    @Test
    void repeatedValuesOfAnEntryMergeAsProtobufDoes() {
        Proto twoValues = message().string(1, "x")
                .bytes(2, feature(2, packedFloats(1, 2)))
                .bytes(2, feature(2, packedFloats(3)));
        OFRecordRawDecoder x = OFRecordRawDecoder.of("x", Shape.of(3), DataType.FLOAT32);
        try (BatchBuffer b = TestRecords.parse(OFRecordParser.of(x), record(twoValues))) {
            assertArrayEquals(new float[] {1, 2, 3}, b.tensor("x").toFloatArray());
        }
        // Another kind in a later value replaces the list: the oneof's last member wins.
        Proto replaced = message().string(1, "x")
                .bytes(2, feature(2, packedFloats(1, 2)))
                .bytes(2, feature(5, packedVarints(7, 8, 9)));
        try (BatchBuffer b = TestRecords.parse(OFRecordParser.of(x), record(replaced))) {
            assertArrayEquals(new float[] {7, 8, 9}, b.tensor("x").toFloatArray());
        }
    }

    @Test
    void theLastKindOfAFeatureWinsAndItsRepeatsMerge() {
        Proto f = message()
                .bytes(2, packedFloats(100))      // superseded by the int64_list below
                .bytes(5, packedVarints(200))     // superseded by the float_list below
                .bytes(2, packedFloats(1, 2))
                .bytes(2, packedFloats(3));       // same kind again: concatenates
        OFRecordRawDecoder x = OFRecordRawDecoder.of("x", Shape.of(3), DataType.FLOAT32);
        try (BatchBuffer b = TestRecords.parse(OFRecordParser.of(x), record(entry("x", f)))) {
            assertArrayEquals(new float[] {1, 2, 3}, b.tensor("x").toFloatArray());
        }
    }

    @Test
    void readsUnpackedAndMixedListsOfEveryKind() {
        Proto floats = message().fixed32(1, Float.floatToRawIntBits(1.5f)).bytes(1, message()
                .rawFixed32(Float.floatToRawIntBits(2.5f)).rawFixed32(Float.floatToRawIntBits(3.5f)))
                .fixed32(1, Float.floatToRawIntBits(4.5f));
        Proto doubles = message().fixed64(1, Double.doubleToRawLongBits(-1.25)).fixed64(1, Double.doubleToRawLongBits(1e300));
        Proto ints = message().varint(1, -7).bytes(1, message().rawVarint(8).rawVarint(-9)).varint(1, Integer.MAX_VALUE);
        Proto longs = message().varint(1, Long.MIN_VALUE).varint(1, 0).bytes(1, message()).varint(1, Long.MAX_VALUE);
        OFRecordParser parser = OFRecordParser.of(
                OFRecordRawDecoder.of("f", Shape.of(4), DataType.FLOAT32),
                OFRecordRawDecoder.of("d", Shape.of(2), DataType.FLOAT64),
                OFRecordRawDecoder.of("i", Shape.of(4), DataType.INT32),
                OFRecordRawDecoder.of("l", Shape.of(3), DataType.INT64));
        byte[] r = record(entry("f", feature(2, floats)), entry("d", feature(3, doubles)),
                entry("i", feature(4, ints)), entry("l", feature(5, longs)));
        try (BatchBuffer b = TestRecords.parse(parser, r)) {
            assertArrayEquals(new float[] {1.5f, 2.5f, 3.5f, 4.5f}, b.tensor("f").toFloatArray());
            assertArrayEquals(new double[] {-1.25, 1e300}, b.tensor("d").toDoubleArray());
            assertArrayEquals(new int[] {-7, 8, -9, Integer.MAX_VALUE}, b.tensor("i").toIntArray());
            assertArrayEquals(new long[] {Long.MIN_VALUE, 0, Long.MAX_VALUE}, b.tensor("l").toLongArray());
        }
    }

    @Test
    void skipsUnknownFieldsOfEveryWireTypeAtEveryLevel() {
        Proto list = unknowns(message()).bytes(1, message().rawVarint(5)).varint(2, 1)
                .fixed64(1, 99) // field 1 with a wire type an int64 list does not use: unknown too
                .bytes(1, message().rawVarint(6));
        Proto f = unknowns(message()).bytes(5, list).varint(5, 3).fixed32(9, 0);
        Proto e = unknowns(message()).string(1, "labels").fixed32(2, 0).bytes(2, f).varint(1, 12);
        Proto r = unknowns(message()).varint(1, 3).bytes(1, e);
        unknowns(r);
        OFRecordParser parser = OFRecordParser.of(OFRecordRawDecoder.of("labels", Shape.of(2), DataType.INT64));
        try (BatchBuffer b = TestRecords.parse(parser, r.toByteArray())) {
            assertArrayEquals(new long[] {5, 6}, b.tensor("labels").toLongArray());
        }
    }

    private static Proto unknowns(Proto p) {
        return p.varint(17, -1).fixed64(18, 1).bytes(19, new byte[] {1, 2, 3}).fixed32(20, 4).tag(2047, VARINT).rawVarint(0);
    }

    @Test
    void readsBytesIntoUint8AndInt8() {
        byte[] value = {0, 1, (byte) 200, (byte) 255};
        byte[] r = canonical(Map.of("u", Features.bytesFeature(value), "s", Features.bytesFeature(value),
                "t", Features.bytesFeature("héllo"), "v", Features.bytesFeature(value)));
        OFRecordParser parser = OFRecordParser.of(
                OFRecordRawDecoder.of("u", Shape.of(4), DataType.UINT8),
                OFRecordRawDecoder.of("s", Shape.of(2, 2), DataType.INT8),
                OFRecordBytesDecoder.of("t", 16),
                OFRecordRawDecoder.of("v", Shape.of(8), DataType.UINT8).withDim1VaryingLength());
        try (BatchBuffer b = TestRecords.parse(parser, r)) {
            assertEquals(200, b.tensor("u").getByte(2));
            assertEquals(255, b.tensor("u").getByte(3));
            assertEquals(-56, b.tensor("s").getByte(2));
            assertArrayEquals("héllo".getBytes(java.nio.charset.StandardCharsets.UTF_8), BatchBytes.raggedRow(b, "t", 0).toByteArray());
            assertArrayEquals(value, BatchBytes.raggedRow(b, "v", 0).toByteArray());
        }
    }

    @Test
    void bytesFitOnlyByteOutputsAndHoldExactlyOneValue() {
        byte[] r = canonical(Map.of("b", Features.bytesFeature(new byte[4])));
        CorruptDataException type = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(OFRecordParser.of(OFRecordRawDecoder.of("b", Shape.of(1), DataType.FLOAT32)), r));
        assertEquals("feature b is a bytes_list, which decodes only into UINT8 or INT8, not FLOAT32", type.reason());
        byte[] two = canonical(Map.of("b", Features.bytesFeature(new byte[2], new byte[2])));
        CorruptDataException count = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(OFRecordParser.of(OFRecordRawDecoder.of("b", Shape.of(4), DataType.UINT8)), two));
        assertEquals("feature b has 2 bytes_list values, expected exactly 1", count.reason());
        byte[] none = canonical(Map.of("b", Features.bytesFeature(new byte[0][])));
        assertThrows(CorruptDataException.class, () -> TestRecords.parse(OFRecordParser.of(OFRecordBytesDecoder.of("b", 4)), none));
    }

    @Test
    void theBytesDecoderRejectsLongValuesAndOtherLists() {
        byte[] big = canonical(Map.of("jpeg", Features.bytesFeature(new byte[11])));
        CorruptDataException tooLong = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(OFRecordParser.of(OFRecordBytesDecoder.of("jpeg", 10)), big));
        assertEquals("feature jpeg holds 11 bytes, more than maxBytes=10", tooLong.reason());
        byte[] floats = canonical(Map.of("jpeg", Features.floatFeature(1)));
        CorruptDataException kind = assertThrows(CorruptDataException.class,
                () -> TestRecords.parse(OFRecordParser.of(OFRecordBytesDecoder.of("jpeg", 10)), floats));
        assertEquals("feature jpeg is a float_list, expected a bytes_list", kind.reason());
    }
}
