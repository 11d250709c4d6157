package org.dataloader4j.core.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.dataloader4j.core.wire.FeatureSchema;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.MapScanner;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;
import org.junit.jupiter.api.Test;

/**
 * The format-independent pieces on their own; the OFRecord and tf.Example parsers test them
 * against protobuf-java through their own schemas.
 */
class FeatureMachineryTest {
    private static final FeatureSchema TF = FeatureSchema.of(ListKind.BYTES, ListKind.FLOAT, ListKind.INT64);

    /** A length-delimited field {@code field} holding {@code parts}, back to back. */
    private static byte[] ld(int field, byte[]... parts) {
        byte[] body = concat(parts);
        assert body.length < 128 : "one-byte lengths only";
        return concat(new byte[] {(byte) (field << 3 | 2), (byte) body.length}, body);
    }

    /**
     * A length-delimited field {@code field} holding {@code parts}, its length written in
     * {@code lengthBytes} bytes (more than it needs, if so), or in as few as it needs if 0.
     */
    private static byte[] field(int field, int lengthBytes, byte[]... parts) {
        byte[] body = concat(parts);
        int n = lengthBytes > 0 ? lengthBytes : Math.max(1, (38 - Integer.numberOfLeadingZeros(body.length)) / 7);
        byte[] length = new byte[n];
        for (int i = 0, v = body.length; i < n; i++, v >>>= 7) {
            length[i] = (byte) (v & 0x7F | (i < n - 1 ? 0x80 : 0));
        }
        return concat(new byte[] {(byte) (field << 3 | 2)}, length, body);
    }

    /** The bytes of the view's pieces of {@code record}, one after another. */
    private static byte[] pieceBytes(byte[] record, FeatureView view) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int p = 0; p < view.pieces(); p++) {
            out.write(record, (int) view.start(p), (int) (view.end(p) - view.start(p)));
        }
        return out.toByteArray();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    @Test
    void aSchemaMapsFieldNumbersToKinds() {
        assertEquals(ListKind.INT64, TF.kindOf(3));
        assertNull(TF.kindOf(0));
        assertNull(TF.kindOf(4));
        assertEquals(2, TF.fieldNumber(ListKind.FLOAT));
        assertEquals(-1, TF.fieldNumber(ListKind.DOUBLE));
        assertEquals("[bytes_list, float_list, int64_list]", TF.toString());
        assertThrows(IllegalArgumentException.class, () -> FeatureSchema.of(ListKind.FLOAT, ListKind.FLOAT));
    }

    @Test
    void theScannerNotesTheLastEntryOfEachKeyAndLeavesOthersAlone() {
        byte[] a1 = ld(1, ld(1, utf8("a")), ld(2, new byte[] {1}));
        byte[] b = ld(1, ld(2, new byte[] {2}), ld(1, utf8("b"))); // value before key
        byte[] a2 = ld(1, ld(1, utf8("a")), ld(2, new byte[] {3}));
        byte[] record = concat(a1, b, a2, ld(1, ld(1, utf8("c"))));
        MapScanner scanner = new MapScanner(List.of("a", "b", "z"));
        long[] start = {-1, -1, 42};
        long[] end = new long[3];
        scanner.scan(new WireReader(MemorySegment.ofArray(record)), 1, start, end);
        assertEquals(a1.length + b.length + 2, start[0]);
        assertEquals(record.length - ld(1, ld(1, utf8("c"))).length, end[0]);
        assertEquals(a1.length + 2, start[1]);
        assertEquals(42, start[2], "a key not found keeps its slot, so that repeated messages can be scanned in turn");
    }

    @Test
    void aBareFeatureResolvesToItsLastListsPieces() {
        byte[] ints = ld(3, ld(1, new byte[] {1, 2}));
        byte[] floats = ld(2, ld(1, new byte[8]));
        byte[] feature = concat(ints, floats, floats);
        FeatureView view = new FeatureView(TF);
        WireReader r = new WireReader(MemorySegment.ofArray(feature));
        view.resolveFeature(r, 0, feature.length);
        assertEquals(ListKind.FLOAT, view.kind());
        assertEquals(2, view.pieces());
        assertEquals(4, view.count(r));
        view.resolveFeature(r, 0, ints.length);
        assertEquals(2, view.count(r));
        view.resolveFeature(r, 0, 0);
        assertNull(view.kind());
        assertEquals(0, view.count(r));

        // An empty int64_list, then a bytes_list: the bytes_list's tag is the int64_list's values' tag.
        byte[] emptyThenBytes = concat(ld(3), ld(1, ld(1, utf8("ab"))));
        WireReader e = new WireReader(MemorySegment.ofArray(emptyThenBytes));
        view.resolveFeature(e, 0, emptyThenBytes.length);
        assertEquals(ListKind.BYTES, view.kind());
        assertArrayEquals(new long[] {1, 6, 8}, new long[] {view.pieces(), view.start(0), view.end(0)});
    }

    @Test
    void aBytesListCountsItsStrings() {
        byte[] feature = ld(1, ld(1, utf8("ab")), ld(1, new byte[0]), ld(1, utf8("c")));
        FeatureView view = new FeatureView(TF);
        WireReader r = new WireReader(MemorySegment.ofArray(feature));
        view.resolveFeature(r, 0, feature.length);
        assertEquals(3, view.count(r));
        // feature: tag, length; "ab": tag, length, 2 bytes; "": tag, length, and no bytes at 8
        assertArrayEquals(new long[] {8, 8}, new long[] {view.start(1), view.end(1)});
    }

    @Test
    void anEntryResolvesAlikeInTheUsualShapeAndInEveryOtherForm() {
        byte[] values = new byte[300]; // 300 one-byte varints: lengths of two bytes
        for (int i = 0; i < values.length; i++) {
            values[i] = (byte) (i % 100);
        }
        byte[] key = field(1, 0, utf8("ids"));
        byte[] list = field(1, 0, values);
        byte[] unknown = {(byte) (9 << 3), 1}; // field 9, a varint
        byte[][] entries = {
            concat(key, field(2, 0, field(3, 0, list))), // the shape writers give, read in place
            concat(key, field(2, 3, field(3, 0, list))), // the Feature's length in more bytes than it needs
            concat(key, field(2, 0, field(3, 4, list))), // the list's
            concat(key, field(2, 0, field(3, 0, field(1, 3, values)))), // the values'
            concat(field(2, 0, field(3, 0, list)), key), // the key after the value
            concat(key, field(2, 0, field(3, 0, list), unknown)), // an unknown field in the Feature
            concat(key, field(2, 0, field(3, 0, list, unknown))), // and in the list
            concat(key, field(2, 0, field(3, 0)), field(2, 0, field(3, 0, list))), // two values, merged
            concat(key, field(2, 0, field(3, 0, field(1, 0, new byte[1 << 21])))), // a length of four bytes
        };
        MapScanner scanner = new MapScanner(List.of("x", "ids"));
        FeatureView view = new FeatureView(TF);
        for (int i = 0; i < entries.length; i++) {
            byte[] record = field(1, 0, entries[i]);
            WireReader r = new WireReader(MemorySegment.ofArray(record));
            long[] start = {-1, -1};
            long[] end = new long[2];
            scanner.scan(r, 1, start, end);
            assertArrayEquals(new long[] {-1, record.length - entries[i].length}, start, "form " + i);
            assertEquals(record.length, end[1], "form " + i);
            view.resolveEntry(r, start[1], end[1]);
            assertEquals(ListKind.INT64, view.kind(), "form " + i);
            if (i == entries.length - 1) {
                assertEquals(1 << 21, view.count(r));
            } else {
                assertEquals(values.length, view.count(r), "form " + i);
                assertArrayEquals(values, pieceBytes(record, view), "form " + i);
            }
        }
    }

    @Test
    void theScannerGoesOnFieldByFieldAfterAnEntryOfAnotherShape() {
        // Not an entry: field 2 of the record, an unknown field shaped like one.
        byte[] unknown = field(2, 0, field(1, 0, utf8("z")), field(2, 0, field(3, 0)));
        byte[] first = field(1, 0, field(1, 0, utf8("x")), field(2, 0, field(3, 0, field(1, 0, new byte[] {1}))));
        // Keyed "ids": of an entry's keys, the last one counts.
        byte[] renamed = field(1, 0, field(1, 0, utf8("x")), field(2, 0, field(3, 0)), field(1, 0, utf8("ids")));
        byte[] other = field(1, 0, field(2, 0, field(3, 0)), field(1, 0, utf8("x"))); // the key after the value
        byte[] last = field(1, 0, field(1, 0, utf8("x")), field(2, 0, field(2, 0, field(1, 0, new byte[4]))));
        byte[] record = concat(unknown, first, renamed, other, last);
        long[] start = {-1, -1, -1};
        long[] end = new long[3];
        new MapScanner(List.of("x", "ids", "z")).scan(new WireReader(MemorySegment.ofArray(record)), 1, start, end);
        int renamedAt = unknown.length + first.length;
        int lastAt = record.length - last.length;
        assertArrayEquals(new long[] {lastAt + 2, renamedAt + 2, -1}, start, "the last x, the renamed entry, no z");
        assertArrayEquals(new long[] {record.length, renamedAt + renamed.length}, Arrays.copyOf(end, 2));
    }

    @Test
    void anEntryOrAFeatureThatRunsPastItsEndIsAnErrorWhateverItsShape() {
        byte[] feature = field(3, 0, field(1, 0, new byte[] {7}));
        // The Feature's length says one byte more than the entry holds.
        byte[] entry = concat(field(1, 0, utf8("ids")), new byte[] {0x12, (byte) (feature.length + 1)}, feature);
        byte[] record = field(1, 0, entry);
        WireReader r = new WireReader(MemorySegment.ofArray(record));
        long[] start = {-1};
        WireFormatException scanned = assertThrows(WireFormatException.class,
                () -> new MapScanner(List.of("ids")).scan(r, 1, start, new long[1]));
        assertEquals(8, scanned.position(), "the Feature's length: after the entry's tag and length, the key's 5 bytes and the tag");
        WireFormatException resolved = assertThrows(WireFormatException.class,
                () -> new FeatureView(TF).resolveEntry(r, 2, record.length));
        assertEquals(8, resolved.position());

        // The Feature's length says one byte less than its list takes.
        byte[] shortFeature = concat(field(1, 0, utf8("ids")), new byte[] {0x12, (byte) (feature.length - 1)}, feature);
        byte[] shortRecord = field(1, 0, shortFeature);
        WireReader s = new WireReader(MemorySegment.ofArray(shortRecord));
        WireFormatException list = assertThrows(WireFormatException.class,
                () -> new FeatureView(TF).resolveEntry(s, 2, shortRecord.length));
        assertEquals(10, list.position(), "the list's length, after the Feature's tag");
    }

    @Test
    void keysMatchOnlyWhenEveryByteIsTheSameWhereverTheyLie() {
        List<String> keys = List.of("", "abc", "abcdefgh", "input_ids", "abcdefghijklmnop", "abcdefghijklmnopq",
                "a key of thirty bytes, 标签");
        MapScanner scanner = new MapScanner(keys);
        byte[] value = field(2, 0, field(3, 0));
        for (int k = 0; k < keys.size(); k++) {
            byte[] key = utf8(keys.get(k));
            for (int p = -1; p < key.length; p++) {
                byte[] variant = key.clone();
                if (p >= 0) {
                    variant[p] ^= (byte) (1 << (p % 8)); // one bit of one byte
                }
                // The key first, with the value after it; and last, ending the record, where no
                // word can be read from its start.
                for (byte[] entry : List.of(concat(field(1, 0, variant), value), concat(value, field(1, 0, variant)))) {
                    byte[] record = field(1, 0, entry);
                    long[] start = new long[keys.size()];
                    Arrays.fill(start, -1);
                    scanner.scan(new WireReader(MemorySegment.ofArray(record)), 1, start, new long[keys.size()]);
                    for (int other = 0; other < keys.size(); other++) {
                        boolean found = p < 0 && other == k;
                        assertEquals(found ? 2 : -1, start[other], "key " + k + " with byte " + p + " changed, as key " + other);
                    }
                }
            }
        }
    }
}
