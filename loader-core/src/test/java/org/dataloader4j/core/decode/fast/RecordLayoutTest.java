package org.dataloader4j.core.decode.fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.testing.WireWriter;
import org.dataloader4j.core.wire.FeatureSchema;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.MapScanner;
import org.dataloader4j.core.wire.WireReader;
import org.junit.jupiter.api.Test;

/**
 * Which records a learned layout matches, what it hands back for them, and which lists it copies
 * first. Whether a parser using it decodes every record as protobuf-java reads it is tested by
 * each parser's differential test ({@code OFRecordParserDifferentialTest},
 * {@code ExampleParserDifferentialTest}).
 */
class RecordLayoutTest {
    /** OFRecord's Feature numbering. */
    private static final FeatureSchema SCHEMA = FeatureSchema.of(
            ListKind.BYTES, ListKind.FLOAT, ListKind.DOUBLE, ListKind.INT32, ListKind.INT64);
    private static final List<String> KEYS = List.of("images", "labels");

    private static final class Wire extends WireWriter<Wire> {
    }

    private static Wire wire() {
        return new Wire();
    }

    private static Wire entry(String key, Wire feature) {
        return wire().string(1, key).bytes(2, feature);
    }

    private static Wire packedFloats(float... values) {
        Wire p = wire();
        for (float v : values) {
            p.rawFixed32(Float.floatToRawIntBits(v));
        }
        return wire().bytes(2, wire().bytes(1, p));
    }

    private static Wire packedInt64(long... values) {
        Wire p = wire();
        for (long v : values) {
            p.rawVarint(v);
        }
        return wire().bytes(5, wire().bytes(1, p));
    }

    private static byte[] record(Wire... entries) {
        Wire r = wire();
        for (Wire e : entries) {
            r.bytes(1, e);
        }
        return r.toByteArray();
    }

    private static byte[] mnist(float first, long label) {
        return record(entry("images", packedFloats(first, 2, 3, 4)), entry("labels", packedInt64(label)));
    }

    /** {@code bytes} at offset {@code at} of a larger segment, as a record lies in a mapped file. */
    private static MemorySegment placed(byte[] bytes, int at) {
        byte[] source = new byte[at + bytes.length + 16];
        System.arraycopy(bytes, 0, source, at, bytes.length);
        return MemorySegment.ofArray(source);
    }

    /** Scans and resolves {@code record} at {@code at} of {@code source} as a decoder does, teaching {@code layout}. */
    private static void learn(RecordLayout layout, MemorySegment source, long at, int length) {
        WireReader r = new WireReader().reset(source, at, at + length);
        long[] start = {-1, -1};
        long[] end = new long[2];
        new MapScanner(KEYS).scan(r, 1, start, end);
        FeatureView f = new FeatureView(SCHEMA);
        layout.beginLearning();
        for (int c = 0; c < KEYS.size(); c++) {
            if (start[c] >= 0) {
                layout.resolve(c, at, start[c], end[c], false, r, f);
            } else {
                layout.noteMissing(c);
            }
        }
        layout.endLearning(source, at, length);
    }

    /** Which bytes of {@code record} lie in its features' lists, as a scan resolves them. */
    private static boolean[] listBytes(byte[] record) {
        MemorySegment source = MemorySegment.ofArray(record);
        WireReader r = new WireReader().reset(source, 0, record.length);
        long[] start = {-1, -1};
        long[] end = new long[2];
        new MapScanner(KEYS).scan(r, 1, start, end);
        FeatureView f = new FeatureView(SCHEMA);
        boolean[] in = new boolean[record.length];
        for (int c = 0; c < KEYS.size(); c++) {
            f.resolveEntry(r, start[c], end[c]);
            for (int p = 0; p < f.pieces(); p++) {
                for (long i = f.start(p); i < f.end(p); i++) {
                    in[(int) i] = true;
                }
            }
        }
        return in;
    }

    private static RecordLayout learned(byte[] record) {
        RecordLayout layout = new RecordLayout(KEYS.size());
        learn(layout, MemorySegment.ofArray(record), 0, record.length);
        return layout;
    }

    private static boolean matches(RecordLayout layout, byte[] record) {
        return layout.matches(MemorySegment.ofArray(record), 0, record.length);
    }

    @Test
    void aRecordWithOtherValuesInItsListsMatchesAndResolvesAsAScanWould() {
        byte[] taught = mnist(1, 7);
        byte[] other = mnist(-5.5f, 9);
        assertEquals(taught.length, other.length);
        RecordLayout layout = learned(taught);

        // Elsewhere in its source, as the next record of a file lies.
        MemorySegment source = placed(other, 40);
        assertTrue(layout.matches(source, 40, other.length));
        WireReader r = new WireReader().reset(source, 40, 40 + other.length);
        long[] start = {-1, -1};
        long[] end = new long[2];
        new MapScanner(KEYS).scan(r, 1, start, end);
        FeatureView scanned = new FeatureView(SCHEMA);
        FeatureView fromLayout = new FeatureView(SCHEMA);
        for (int c = 0; c < KEYS.size(); c++) {
            assertEquals(start[c], layout.entryStart(c, 40));
            assertEquals(end[c], layout.entryEnd(c, 40));
            scanned.resolveEntry(r, start[c], end[c]);
            layout.resolve(c, 40, -1, -1, true, r, fromLayout);
            assertEquals(scanned.kind(), fromLayout.kind());
            assertEquals(1, fromLayout.pieces());
            assertEquals(scanned.start(0), fromLayout.start(0));
            assertEquals(scanned.end(0), fromLayout.end(0));
        }
    }

    @Test
    void anyByteOutsideTheListsOrAnotherLengthIsNotAMatch() {
        byte[] taught = mnist(1, 7);
        RecordLayout layout = learned(taught);
        assertTrue(matches(layout, taught));
        boolean[] inAList = listBytes(taught);
        int values = 0;
        for (int i = 0; i < taught.length; i++) {
            byte[] changed = taught.clone();
            changed[i] ^= 0x01;
            values += inAList[i] ? 1 : 0;
            assertEquals(inAList[i], matches(layout, changed), "byte " + i);
        }
        assertEquals(4 * Float.BYTES + 1, values, "the floats and the one-byte label are values, not layout");
        assertFalse(matches(layout, mnist(1, 300)), "a two-byte label is a longer record");
        assertFalse(matches(layout, record(entry("labels", packedInt64(7)), entry("images", packedFloats(1, 2, 3, 4)))),
                "the same entries in another order");
    }

    @Test
    void aMissingFeatureIsPartOfTheLayout() {
        byte[] taught = record(entry("images", packedFloats(1, 2)));
        RecordLayout layout = learned(taught);
        assertTrue(matches(layout, record(entry("images", packedFloats(3, 4)))));
        assertEquals(-1, layout.entryStart(1, 0));
        assertEquals(-1, layout.entryEnd(1, 0));
        assertFalse(matches(layout, record(entry("labels", packedFloats(3, 4)))));
    }

    @Test
    void listsWhoseBoundsTheirValuesDecideAreNotLearned() {
        // Two pieces: a packed run and then an unpacked value.
        Wire twoPieces = wire().bytes(5, wire().bytes(1, wire().rawVarint(1)).varint(1, 2));
        byte[] split = record(entry("labels", twoPieces));
        assertFalse(matches(learned(split), split));

        // One unpacked varint: its bytes say where it ends, so equal bytes around it prove nothing.
        byte[] unpacked = record(entry("labels", wire().bytes(5, wire().varint(1, 150))));
        assertFalse(matches(learned(unpacked), unpacked));

        // One unpacked fixed32 is four bytes whatever they hold.
        byte[] fixed = record(entry("images", wire().bytes(2, wire().fixed32(1, 7))));
        RecordLayout layout = learned(fixed);
        assertTrue(matches(layout, record(entry("images", wire().bytes(2, wire().fixed32(1, -1))))));
    }

    @Test
    void aRecordWithMoreThanMaxFrameBytesAroundItsListsIsNotLearned() {
        byte[] small = record(entry("images", packedFloats(1)), wire().bytes(9, new byte[100]));
        assertTrue(matches(learned(small), small));
        byte[] large = record(entry("images", packedFloats(1)), wire().bytes(9, new byte[RecordLayout.MAX_FRAME_BYTES]));
        assertFalse(matches(learned(large), large));
    }

    @Test
    void aLayoutIsLearnedAgainAfterARunOfMissesThatDoublesWhileLayoutsMatchNothing() {
        RecordLayout layout = new RecordLayout(KEYS.size());
        assertTrue(layout.shouldLearn(), "nothing learned yet");
        byte[] a = mnist(1, 7);
        byte[] b = mnist(1, 300);
        byte[] c = mnist(1, 70000);
        learn(layout, a);
        assertFalse(layout.shouldLearn());
        miss(layout, b, RecordLayout.RELEARN_AFTER);
        assertTrue(matches(layout, a), "a match ends the run");
        assertFalse(layout.shouldLearn());
        miss(layout, b, RecordLayout.RELEARN_AFTER);

        // a matched, so b's run is as long; b matches nothing, so c's run is twice as long.
        learn(layout, b);
        miss(layout, c, RecordLayout.RELEARN_AFTER);
        learn(layout, c);
        miss(layout, a, 2 * RecordLayout.RELEARN_AFTER);
        learn(layout, a);
        miss(layout, b, 4 * RecordLayout.RELEARN_AFTER);
        assertTrue(matches(layout, a));
        learn(layout, b);
        miss(layout, a, RecordLayout.RELEARN_AFTER);
    }

    private static void learn(RecordLayout layout, byte[] record) {
        learn(layout, MemorySegment.ofArray(record), 0, record.length);
    }

    /** {@code runs} records that do not match: the last one, and only it, makes the next one learned. */
    private static void miss(RecordLayout layout, byte[] other, int runs) {
        for (int i = 1; i <= runs; i++) {
            assertFalse(layout.shouldLearn(), "after " + (i - 1) + " misses");
            assertFalse(matches(layout, other));
        }
        assertTrue(layout.shouldLearn(), "after " + runs + " misses");
    }

    @Test
    void learningThatDoesNotEndForgetsTheLayoutBefore() {
        byte[] taught = mnist(1, 7);
        RecordLayout layout = learned(taught);
        layout.beginLearning(); // a record that then failed to decode
        assertFalse(matches(layout, taught));
    }

    /** A column's output, as the row routine describes it to a layout ({@link #rowKind}, {@link #rowBytes}). */
    private record Out(String name, DataType dataType, int rowElements, boolean ragged) {
        /** The list whose bytes are a dense row of this output as they stand, or null. */
        ListKind rowKind() {
            return ragged ? null : dataType == DataType.FLOAT32 ? ListKind.FLOAT
                    : dataType == DataType.FLOAT64 ? ListKind.DOUBLE : null;
        }

        long rowBytes() {
            return rowElements * dataType.byteSize();
        }
    }

    private static float[] floats(int n, float from) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = from + i;
        }
        return v;
    }

    /** A layout of {@code images} and {@code labels}, columns 0 and 1, learned from {@code record}. */
    private static RecordLayout learned(byte[] record, Out images, Out labels) {
        RecordLayout layout = new RecordLayout(new ListKind[] {images.rowKind(), labels.rowKind()},
                new long[] {images.rowBytes(), labels.rowBytes()});
        learn(layout, MemorySegment.ofArray(record), 0, record.length);
        return layout;
    }

    private static final Out LABELS = new Out("labels", DataType.INT64, 1, false);

    @Test
    void aLongFloatListThatIsADenseRowAsItStandsIsCopiedFirstToItsRow() {
        byte[] taught = record(entry("images", packedFloats(floats(300, 0))), entry("labels", packedInt64(7)));
        byte[] other = record(entry("images", packedFloats(floats(300, 1000))), entry("labels", packedInt64(9)));
        RecordLayout layout = learned(taught, new Out("images", DataType.FLOAT32, 300, false), LABELS);
        assertTrue(layout.copiesFirst(taught.length));
        assertFalse(layout.copiesFirst(taught.length + 1));
        assertTrue(layout.copiedFirst(0), "images");
        assertFalse(layout.copiedFirst(1), "labels: a varint, not a row as it stands");

        List<TensorSpec> specs = List.of(TensorSpec.dense("labels", DataType.INT64, Shape.of(3, 1)),
                TensorSpec.dense("images", DataType.FLOAT32, Shape.of(3, 300)));
        try (BatchBuffer batch = BatchBuffer.of(specs, 3)) {
            MemorySegment[] out = {batch.tensor("images").segment(), batch.tensor("labels").segment()};
            MemorySegment source = placed(other, 40);
            assertTrue(layout.copyFirst(source, 40, other.length, out, 2));
            assertArrayEquals(floats(300, 1000), batch.tensor("images").rows(2, 1).toFloatArray());
            assertArrayEquals(new long[] {0, 0, 0}, batch.tensor("labels").toLongArray(), "nothing else written");
            assertFalse(layout.copyFirst(source, 40, other.length - 1, out, 1), "another length is not copied");
            assertArrayEquals(new float[300], batch.tensor("images").rows(1, 1).toFloatArray());
        }
    }

    @Test
    void aLayoutCopiesFirstOnlyRowsAsTheyStandOfAtLeastTheMinimumThatAreNearlyTheWholeRecord() {
        byte[] taught = record(entry("images", packedFloats(floats(300, 0))), entry("labels", packedInt64(7)));
        assertTrue(learned(taught, new Out("images", DataType.FLOAT32, 300, false), LABELS).copiesFirst(taught.length));
        assertFalse(learned(taught, new Out("images", DataType.FLOAT64, 300, false), LABELS).copiesFirst(taught.length),
                "floats widened to doubles are converted, not copied");
        assertFalse(learned(taught, new Out("images", DataType.FLOAT32, 300, true), LABELS).copiesFirst(taught.length),
                "a ragged row's place is known only after the batch's offsets");
        assertFalse(learned(taught, new Out("images", DataType.FLOAT32, 301, false), LABELS).copiesFirst(taught.length),
                "a row longer than the list is padded");
        assertFalse(learned(taught, new Out("images", DataType.FLOAT32, 299, false), LABELS).copiesFirst(taught.length),
                "a row shorter than the list is truncated or refused");
        RecordLayout never = new RecordLayout(KEYS.size());
        learn(never, taught);
        assertFalse(never.copiesFirst(taught.length), "a layout without outputs");

        int fewest = RecordLayout.MIN_COPY_FIRST_BYTES / Float.BYTES;
        byte[] shortest = record(entry("images", packedFloats(floats(fewest, 0))), entry("labels", packedInt64(7)));
        assertTrue(learned(shortest, new Out("images", DataType.FLOAT32, fewest, false), LABELS).copiesFirst(shortest.length));
        byte[] tooShort = record(entry("images", packedFloats(floats(fewest - 1, 0))), entry("labels", packedInt64(7)));
        assertFalse(learned(tooShort, new Out("images", DataType.FLOAT32, fewest - 1, false), LABELS)
                .copiesFirst(tooShort.length));

        // A long varint list beside the floats: the record is read in place, so it is read ahead.
        long[] tokens = new long[RecordLayout.MAX_FRAME_BYTES];
        Arrays.fill(tokens, 1);
        byte[] withTokens = record(entry("images", packedFloats(floats(300, 0))), entry("labels", packedInt64(tokens)));
        RecordLayout layout = learned(withTokens, new Out("images", DataType.FLOAT32, 300, false),
                new Out("labels", DataType.INT64, tokens.length, false));
        assertTrue(layout.matches(MemorySegment.ofArray(withTokens), 0, withTokens.length), "learned");
        assertFalse(layout.copiesFirst(withTokens.length));
    }

    @Test
    void aLayoutLearnedAgainCopiesFirstOnlyOnceItIsLearned() {
        byte[] taught = record(entry("images", packedFloats(floats(300, 0))), entry("labels", packedInt64(7)));
        RecordLayout layout = learned(taught, new Out("images", DataType.FLOAT32, 300, false), LABELS);
        layout.beginLearning();
        assertFalse(layout.copiesFirst(taught.length));
        learn(layout, taught);
        assertTrue(layout.copiesFirst(taught.length));
    }
}
