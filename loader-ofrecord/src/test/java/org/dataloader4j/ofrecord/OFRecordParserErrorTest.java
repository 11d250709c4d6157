package org.dataloader4j.ofrecord;

import static org.dataloader4j.ofrecord.Proto.entry;
import static org.dataloader4j.ofrecord.Proto.feature;
import static org.dataloader4j.ofrecord.Proto.message;
import static org.dataloader4j.ofrecord.Proto.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.core.testing.TestRecords;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.format.Features;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad records: what the error says, and which of several bad records it names. */
class OFRecordParserErrorTest {
    private static final OFRecordParser LABELS = OFRecordParser.of(OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT64));

    private static CorruptDataException parseFails(OFRecordParser parser, byte[] record) {
        return assertThrows(CorruptDataException.class, () -> TestRecords.parse(parser, record));
    }

    @Test
    void anEntryRunningPastTheRecordIsATruncatedField() {
        byte[] bytes = {0x0A, 0x05, 0x01};
        CorruptDataException e = parseFails(LABELS, bytes);
        assertEquals("truncated field at byte 1 of the record", e.reason());
        assertEquals("truncated field at byte 1 of the record at record 0, offset 100 in test-file", e.getMessage());
        assertInstanceOf(WireFormatException.class, e.getCause());
    }

    @Test
    void aMalformedVarintInsideAFeatureNamesTheFeature() {
        byte[] eleven = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01};
        byte[] r = record(entry("labels", feature(5, message().bytes(1, eleven))));
        CorruptDataException e = parseFails(LABELS, r);
        // record: tag, length; entry: key (2 + 6 bytes), value tag, length; feature: tag, length; list: tag, length
        assertEquals("malformed varint at byte 16 of the record (feature labels)", e.reason());
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 6, 7})
    void groupsAndInvalidWireTypesAreRejected(int wireType) {
        byte[] r = message().tag(9, wireType).toByteArray();
        assertEquals("unsupported wire type " + wireType + " at byte 0 of the record", parseFails(LABELS, r).reason());
    }

    @Test
    void aPackedFixedWidthListMustHoldWholeValues() {
        byte[] r = record(entry("x", feature(2, message().bytes(1, new byte[7]))));
        OFRecordParser parser = OFRecordParser.of(OFRecordRawDecoder.of("x", Shape.of(1), DataType.FLOAT32).withTruncate());
        CorruptDataException e = parseFails(parser, r);
        assertEquals("packed float_list of 7 bytes, not a multiple of 4 at byte 11 of the record (feature x)", e.reason());
    }

    @Test
    void aPackedVarintListEndingInsideAVarintIsTruncated() {
        byte[] r = record(entry("labels", feature(5, message().bytes(1, new byte[] {(byte) 0x81}))));
        assertEquals("truncated varint at byte 16 of the record (feature labels)", parseFails(LABELS, r).reason());
    }

    @Test
    void aBatchMustHoldOneRowPerSample() {
        try (BatchBuffer b = BatchBuffer.of(LABELS, 4)) {
            TestRecords.parse(b, LABELS, ParallelLoop.sequential(), List.of());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> LABELS.parse(TestRecords.slices(List.of(new byte[0])), b, ParallelLoop.sequential()));
            assertEquals("a parser fills one row per sample: samples=1 batch.size=0", e.getMessage());
        }
    }

    @Test
    @Timeout(20)
    void theFirstBadRecordOfABatchIsTheOneReportedWhateverTheThreads() {
        byte[] good = OFRecordParserTest.canonical(Map.of("labels", Features.int64Feature(1)));
        byte[] missing = OFRecordParserTest.canonical(Map.of("other", Features.int64Feature(1)));
        byte[] truncated = {0x0A, 0x7F};
        for (int first : new int[] {0, 37, 60, 99, 150, 199}) {
            List<byte[]> records = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                records.add(i == first ? missing : i > first && i % 23 == 0 ? truncated : good);
            }
            try (MultiThreadLoop loop = new MultiThreadLoop("first-bad", 4); BatchBuffer b = BatchBuffer.of(LABELS, 200)) {
                for (int round = 0; round < 20; round++) {
                    CorruptDataException e = assertThrows(CorruptDataException.class, () -> b.parse(LABELS, TestRecords.slices(records), loop));
                    assertEquals(first, e.record(), "round " + round);
                    assertEquals("missing feature labels", e.reason());
                }
            }
        }
    }

    @Test
    void aReusedBatchParsesCleanlyAfterAFailure() {
        byte[] good = OFRecordParserTest.canonical(Map.of("labels", Features.int64Feature(5)));
        try (BatchBuffer b = BatchBuffer.of(LABELS, 2)) {
            assertThrows(CorruptDataException.class, () -> TestRecords.parse(b, LABELS, ParallelLoop.sequential(), List.of(good, new byte[] {0x0A})));
            TestRecords.parse(b, LABELS, ParallelLoop.sequential(), List.of(good, good));
            assertEquals(5, b.tensor("labels").getLong(1));
        }
    }
}
