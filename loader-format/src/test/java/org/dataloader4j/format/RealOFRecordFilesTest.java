package org.dataloader4j.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dataloader4j.format.proto.Feature;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.testkit.ExpectedBytes;
import org.dataloader4j.testkit.ExpectedFeature;
import org.dataloader4j.testkit.ExpectedRecord;
import org.dataloader4j.testkit.ExpectedRecords;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Conformance with OFRecord files written by OneFlow projects (kept in
 * {@code ../shared/testdata/real}, skipped where absent): {@link RecordReader} finds every record
 * at the offset, with the length and SHA-256 the expected JSON gives, and every decoded record
 * matches it feature by feature: type, count, integers exactly, floats and doubles by bit pattern,
 * bytes exactly or by digest.
 */
class RealOFRecordFilesTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "oneflow-documentation/dataset/part-0",
        "oneflow-benchmark-metafinetuning/SST-2/train/train.of_record-0",
        "oneflow-benchmark-metafinetuning/SST-2/dev/dev.of_record-0",
        "oneflow-benchmark-metafinetuning/SST-2/eval/eval.of_record-0",
        "oneflow-benchmark-metafinetuning/k-shot-cross-g1/train/train.of_record-0",
    })
    @Timeout(30)
    void readsLikeTheExpectedValues(String relative) throws IOException {
        Path file = SharedTestData.file(relative);
        ExpectedRecords expected = ExpectedRecords.load(relative);
        ExpectedRecords.Summary summary = expected.summary();
        assertEquals("ofrecord", summary.format(), relative);
        assertEquals("none", summary.compression(), relative);
        assertEquals(summary.size(), Files.size(file), relative + ": file size");
        assertEquals(summary.sha256(), ExpectedBytes.sha256Hex(Files.readAllBytes(file)), relative + ": file sha256");

        List<RawRecord> records = readAll(RecordReader.open(file));
        assertEquals(summary.records(), records.size(), relative + ": record count");
        // The same file through a plain stream (no file size known) reads the same.
        List<RawRecord> streamed = readAll(RecordReader.of(Files.newInputStream(file), relative));
        assertEquals(records.size(), streamed.size(), relative + ": record count from a stream");

        long offset = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        long total = 0;
        for (int i = 0; i < records.size(); i++) {
            RawRecord r = records.get(i);
            assertEquals(i, r.index(), relative);
            assertEquals(offset, r.offset(), relative + ": offset of record " + i);
            assertEquals(r.offset(), streamed.get(i).offset(), relative + ": streamed offset of record " + i);
            assertArrayEquals(r.payload(), streamed.get(i).payload(), relative + ": streamed record " + i);
            offset += 8 + r.payload().length;
            min = Math.min(min, r.payload().length);
            max = Math.max(max, r.payload().length);
            total += r.payload().length;
        }
        assertEquals(summary.size(), offset, relative + ": the records cover the file");
        assertEquals(summary.payloadBytes(), new ExpectedRecords.PayloadBytes(min, max, total), relative);

        assertTrue(expected.hasFrames(), relative + ": every OFRecord file here has 1000 records or fewer");
        for (ExpectedRecords.Frame frame : expected.frames()) {
            RawRecord r = records.get(Math.toIntExact(frame.index()));
            String where = relative + ": frame " + frame.index();
            assertEquals(frame.offset(), r.offset(), where + " offset");
            assertEquals(frame.length(), r.payload().length, where + " length");
            assertEquals(frame.sha256(), ExpectedBytes.sha256Hex(r.payload()), where + " sha256");
        }

        assertFalse(expected.records().isEmpty(), relative);
        for (ExpectedRecord want : expected.records().values()) {
            String where = relative + ": record " + want.index();
            OFRecord got = OFRecord.parseFrom(records.get(Math.toIntExact(want.index())).payload());
            assertRecord(want, got, where);
        }
    }

    private static List<RawRecord> readAll(RecordReader reader) throws IOException {
        List<RawRecord> out = new ArrayList<>();
        try (RecordReader r = reader) {
            for (RawRecord rec = r.next(); rec != null; rec = r.next()) {
                out.add(rec);
            }
        }
        return out;
    }

    /** {@code got} has exactly the features of {@code want}, each equal by type, count and values. */
    static void assertRecord(ExpectedRecord want, OFRecord got, String where) {
        Map<String, ExpectedFeature> features = want.features();
        assertEquals(features.keySet(), got.getFeatureMap().keySet(), where + ": feature keys");
        for (Map.Entry<String, ExpectedFeature> e : features.entrySet()) {
            Feature actual = got.getFeatureMap().get(e.getKey());
            assertNotNull(actual, where + ": feature " + e.getKey());
            assertFeature(e.getValue(), actual, where + ", feature " + e.getKey());
        }
    }

    static void assertFeature(ExpectedFeature want, Feature got, String where) {
        assertEquals(want.type(), typeOf(got), where + ": type");
        switch (want.type()) {
            case NONE -> assertEquals(0, want.count(), where);
            case INT32 -> assertArrayEquals(want.longs(),
                    got.getInt32List().getValueList().stream().mapToLong(Integer::longValue).toArray(), where + ": values");
            case INT64 -> assertArrayEquals(want.longs(),
                    got.getInt64List().getValueList().stream().mapToLong(Long::longValue).toArray(), where + ": values");
            case FLOAT -> TFExpectations.assertFloats(want, got.getFloatList().getValueList(), where);
            case DOUBLE -> {
                List<Double> values = got.getDoubleList().getValueList();
                long[] bits = new long[values.size()];
                for (int i = 0; i < bits.length; i++) {
                    bits[i] = Double.doubleToRawLongBits(values.get(i));
                }
                assertArrayEquals(want.doubleBits(), bits, where + ": double bits");
            }
            case BYTES -> TFExpectations.assertBytes(want, got.getBytesList().getValueList(), where);
        }
        assertEquals(want.count(), count(got), where + ": count");
    }

    private static ExpectedFeature.Type typeOf(Feature f) {
        return switch (f.getKindCase()) {
            case BYTES_LIST -> ExpectedFeature.Type.BYTES;
            case FLOAT_LIST -> ExpectedFeature.Type.FLOAT;
            case DOUBLE_LIST -> ExpectedFeature.Type.DOUBLE;
            case INT32_LIST -> ExpectedFeature.Type.INT32;
            case INT64_LIST -> ExpectedFeature.Type.INT64;
            case KIND_NOT_SET -> ExpectedFeature.Type.NONE;
        };
    }

    private static int count(Feature f) {
        return switch (f.getKindCase()) {
            case BYTES_LIST -> f.getBytesList().getValueCount();
            case FLOAT_LIST -> f.getFloatList().getValueCount();
            case DOUBLE_LIST -> f.getDoubleList().getValueCount();
            case INT32_LIST -> f.getInt32List().getValueCount();
            case INT64_LIST -> f.getInt64List().getValueCount();
            case KIND_NOT_SET -> 0;
        };
    }
}
