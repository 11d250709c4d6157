package org.dataloader4j.tfrecord;

import static org.dataloader4j.tfrecord.Proto.byteStrings;
import static org.dataloader4j.tfrecord.Proto.entry;
import static org.dataloader4j.tfrecord.Proto.example;
import static org.dataloader4j.tfrecord.Proto.feature;
import static org.dataloader4j.tfrecord.Proto.floats;
import static org.dataloader4j.tfrecord.Proto.int64s;
import static org.dataloader4j.tfrecord.Proto.message;
import static org.dataloader4j.tfrecord.Proto.strings;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.core.testing.BatchBytes;
import org.dataloader4j.core.testing.TestRecords;
import org.dataloader4j.core.wire.WireFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Records that do not fit their specs or are not wire format: what the error says, and which record it names. */
class ExampleParserErrorTest {
    private static final FixedLenFeature X = FixedLenFeature.of("x", Shape.of(2), DataType.FLOAT32);

    private static CorruptDataException parseFails(ExampleParser parser, byte[] record) {
        return assertThrows(CorruptDataException.class, () -> TestRecords.parse(parser, record));
    }

    @Test
    void aMissingFixedLenFeatureWithoutADefaultNamesTheFeatureAndTheRecord() {
        CorruptDataException e = parseFails(ExampleParser.forExample(X), example(entry("y", floats(1, 2))));
        assertEquals("Key: x. Feature: x (data type: FLOAT32) is required but could not be found"
                + " (a FixedLenFeature without a default)", e.reason());
        assertEquals("test-file", e.file());
        assertEquals(0, e.record());
        assertEquals(100, e.offset());
        assertEquals(e.reason() + " at record 0, offset 100 in test-file", e.getMessage());
    }

    @Test
    void aFeatureWithoutAListIsMissingToo() {
        CorruptDataException e = parseFails(ExampleParser.forExample(X), example(entry("x", message())));
        assertEquals(true, e.reason().contains("is required but could not be found"), e.reason());
    }

    @Test
    void aCountMismatchNamesTheKeyAndBothCounts() {
        CorruptDataException e = parseFails(ExampleParser.forExample(X), example(entry("x", floats(1, 2, 3))));
        assertEquals("Key: x. Can't parse serialized Example: feature x has 3 float_list values, its rows hold 2", e.reason());
    }

    /** A record whose {@code input_ids} are {@code n} token-like values, followed in the packed list by {@code tail}. */
    private static byte[] inputIds(int n, byte... tail) {
        Proto packed = message();
        for (long i = 0; i < n; i++) {
            packed.rawVarint(i % 16 < 9 ? i % 128 : 1000 + i * 211);
        }
        return example(entry("input_ids", feature(Proto.INT64_LIST, message().bytes(1, packed.raw(tail)))));
    }

    @Test
    void aDenseInt64ListMustFillItsRowExactlyAndNeverWritesPastIt() {
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("input_ids", Shape.of(128), DataType.INT64));
        byte[] good = inputIds(128);
        CorruptDataException many = assertThrows(CorruptDataException.class, () -> TestRecords.parse(p, good, inputIds(129)));
        assertEquals("Key: input_ids. Can't parse serialized Example: feature input_ids has 129 int64_list values,"
                + " its rows hold 128", many.reason());
        assertEquals(1, many.record());
        assertEquals("Key: input_ids. Can't parse serialized Example: feature input_ids has 127 int64_list values,"
                + " its rows hold 128", parseFails(p, inputIds(127)).reason());
        try (BatchBuffer b = BatchBuffer.of(p, 3).fill(0x5A)) {
            assertThrows(CorruptDataException.class,
                    () -> TestRecords.parse(b, p, ParallelLoop.sequential(), List.of(good, inputIds(200), good)));
            byte[] next = new byte[128 * Long.BYTES];
            Arrays.fill(next, (byte) 0x5A);
            assertArrayEquals(next, BatchBytes.rowBytes(b, "input_ids", 2), "the row after a failed one is not written");
        }
        byte[] tenContinuations = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1};
        byte[] bad = inputIds(128, tenContinuations);
        // The malformed varint, not the count: it starts right after the 128 good values, which end the record but for it.
        assertEquals("malformed varint at byte " + (bad.length - tenContinuations.length) + " of the record (feature input_ids)",
                parseFails(p, bad).reason());
    }

    @Test
    void aBytesStringOfAnotherLengthNamesItsBytes() {
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("raw", Shape.of(4), DataType.UINT8));
        assertEquals("Key: raw. Can't parse serialized Example: feature raw holds 3 bytes, its rows hold 4",
                parseFails(p, example(entry("raw", strings("abc")))).reason());
        assertEquals("Key: raw. Can't parse serialized Example: feature raw has 2 bytes_list values,"
                + " a bytes_list read into UINT8 holds exactly 1", parseFails(p, example(entry("raw", strings("ab", "cd")))).reason());
    }

    @Test
    void aListOfAnotherTypeIsADataTypeMismatch() {
        assertEquals("Key: x. Data types don't match: feature x is an int64_list, a FLOAT32 output reads a float_list",
                parseFails(ExampleParser.forExample(X), example(entry("x", int64s(1, 2)))).reason());
        ExampleParser ints = ExampleParser.forExample(FixedLenFeature.of("n", Shape.of(1), DataType.INT8));
        assertEquals("Key: n. Data types don't match: feature n is a float_list, an INT8 output reads an int64_list or a bytes_list",
                parseFails(ints, example(entry("n", floats(1)))).reason());
        ExampleParser varLen = ExampleParser.forExample(VarLenFeature.of("v", DataType.UINT8, 4));
        assertEquals("Key: v. Data types don't match: feature v is a bytes_list, a UINT8 output reads an int64_list",
                parseFails(varLen, example(entry("v", strings("a")))).reason());
        ExampleParser bytes = ExampleParser.forExample(BytesFeature.of("s", 4));
        assertEquals("Key: s. Data types don't match: feature s is a float_list, a UINT8 output reads a bytes_list",
                parseFails(bytes, example(entry("s", floats()))).reason());
    }

    @Test
    void aVarLenRowLongerThanItsMaximumIsAnErrorNotAnOverflow() {
        ExampleParser p = ExampleParser.forExample(VarLenFeature.of("v", DataType.INT64, 2));
        assertEquals("Key: v. Feature v has 3 values, more than maxValuesPerRow=2",
                parseFails(p, example(entry("v", int64s(1, 2, 3)))).reason());
    }

    @Test
    void aBytesFeatureTakesOneStringOfAtMostMaxBytes() {
        ExampleParser p = ExampleParser.forExample(BytesFeature.of("s", 3));
        assertEquals("Key: s. Feature s holds 4 bytes, more than maxBytes=3", parseFails(p, example(entry("s", strings("abcd")))).reason());
        assertEquals("Key: s. Feature s has 2 bytes_list values, a BytesFeature reads at most 1",
                parseFails(p, example(entry("s", byteStrings(new byte[1], new byte[1])))).reason());
    }

    @Test
    void aTruncatedRecordIsATruncatedField() {
        CorruptDataException e = parseFails(ExampleParser.forExample(X), new byte[] {0x0A, 0x05, 0x01});
        assertEquals("truncated field at byte 1 of the record", e.reason());
        assertInstanceOf(WireFormatException.class, e.getCause());
    }

    @Test
    void aMalformedVarintInsideAFeatureNamesTheFeature() {
        byte[] eleven = new byte[11];
        Arrays.fill(eleven, (byte) 0x80);
        eleven[10] = 1;
        ExampleParser p = ExampleParser.forExample(FixedLenFeature.of("n", Shape.of(1), DataType.INT64));
        CorruptDataException e = parseFails(p, example(entry("n", feature(Proto.INT64_LIST, message().bytes(1, eleven)))));
        // example: tag, length; features: tag, length; entry: key (2 + 1), value tag, length; feature: tag, length; list: tag, length
        assertEquals("malformed varint at byte 13 of the record (feature n)", e.reason());
    }

    @Test
    void aPackedFloatListMustHoldWholeValues() {
        byte[] r = example(entry("x", feature(Proto.FLOAT_LIST, message().bytes(1, new byte[7]))));
        assertEquals("packed float_list of 7 bytes, not a multiple of 4 at byte 13 of the record (feature x)",
                parseFails(ExampleParser.forExample(X), r).reason());
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 6, 7})
    void groupsAndInvalidWireTypesAreRejected(int wireType) {
        byte[] r = message().tag(9, wireType).toByteArray();
        assertEquals("unsupported wire type " + wireType + " at byte 0 of the record",
                parseFails(ExampleParser.forExample(X), r).reason());
    }

    @Test
    void unrequestedFeaturesAreNotChecked() {
        // Only what is decoded is checked: a broken feature nobody asked for does not fail the record.
        byte[] r = example(entry("x", floats(1, 2)), entry("junk", feature(Proto.FLOAT_LIST, message().bytes(1, new byte[3]))));
        try (BatchBuffer b = TestRecords.parse(ExampleParser.forExample(X), r)) {
            assertEquals(2, b.tensor("x").elementCount() / 1);
        }
    }

    @Test
    @Timeout(30)
    void ofSeveralBadRecordsTheLowestIsReportedWhateverTheThreads() {
        ExampleParser p = ExampleParser.forExample(X, VarLenFeature.of("v", DataType.INT64, 2));
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            boolean bad = i == 150 || i == 390 || i == 260;
            records.add(example(entry("x", floats(i, i)), entry("v", bad ? int64s(1, 2, 3) : int64s(i))));
        }
        for (int threads : new int[] {1, 2, 4}) {
            try (MultiThreadLoop loop = new MultiThreadLoop("lowest", threads); BatchBuffer b = BatchBuffer.of(p, 400)) {
                for (int attempt = 0; attempt < 20; attempt++) {
                    CorruptDataException e = assertThrows(CorruptDataException.class, () -> b.parse(p, TestRecords.slices(records), loop));
                    assertEquals(150, e.record(), "threads=" + threads);
                }
            }
        }
    }

    @Test
    void aBatchMustHoldOneRowPerSample() {
        ExampleParser p = ExampleParser.forExample(X);
        try (BatchBuffer b = BatchBuffer.of(p, 4)) {
            TestRecords.parse(b, p, ParallelLoop.sequential(), List.of());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.parse(TestRecords.slices(List.of(new byte[0])), b, ParallelLoop.sequential()));
            assertEquals("a parser fills one row per sample: samples=1 batch.size=0", e.getMessage());
        }
    }

    @Test
    void aBatchOfAnotherParsersOutputsIsRejected() {
        ExampleParser p = ExampleParser.forExample(X);
        ExampleParser other = ExampleParser.forExample(FixedLenFeature.of("x", Shape.of(2), DataType.INT32));
        try (BatchBuffer b = BatchBuffer.of(other, 1)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TestRecords.parse(b, p, ParallelLoop.sequential(), List.of(example(entry("x", floats(1, 2))))));
            assertEquals(true, e.getMessage().startsWith("output x is x INT32(1, 2), not the parser's"), e.getMessage());
        }
    }

    @Test
    void aReusedBatchParsesCleanlyAfterAFailure() {
        ExampleParser p = ExampleParser.forExample(X, VarLenFeature.of("v", DataType.INT64, 2));
        try (BatchBuffer b = BatchBuffer.of(p, 2)) {
            assertThrows(CorruptDataException.class, () -> TestRecords.parse(b, p, ParallelLoop.sequential(),
                    List.of(example(entry("x", floats(1, 2)), entry("v", int64s(5))), example(entry("x", floats(1))))));
            TestRecords.parse(b, p, ParallelLoop.sequential(), List.of(example(entry("x", floats(3, 4)), entry("v", int64s(6, 7)))));
            assertEquals(List.of(6L, 7L), Arrays.stream(BatchBytes.raggedRow(b, "v", 0).toLongArray()).boxed().toList());
        }
    }
}
