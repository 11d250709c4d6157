package org.dataloader4j.core.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.dataloader4j.api.DataType;
import org.dataloader4j.core.testing.WireWriter;
import org.dataloader4j.core.wire.FeatureSchema;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link ValueCopier#countAndCopy} against the two walks it replaces, {@link FeatureView#count}
 * and then {@link ValueCopier#copy}: the same count, the same values, the same error for a bad
 * varint wherever it is, and never a write past the row; with the copier of either path.
 */
class ValueCopierTest {
    /** OFRecord's numbering: bytes, float, double, int32 and int64 lists are fields 1 to 5. */
    private static final FeatureSchema SCHEMA = FeatureSchema.of(
            ListKind.BYTES, ListKind.FLOAT, ListKind.DOUBLE, ListKind.INT32, ListKind.INT64);
    private static final byte POISON = 0x5A;

    private static final class Wire extends WireWriter<Wire> {
    }

    /** A value of 1 to 10 bytes, mostly one-byte ones in runs, as {@code VarintRunsTest} draws them. */
    private static long value(Random random) {
        return random.nextInt(4) != 0 ? random.nextInt(128) : switch (random.nextInt(4)) {
            case 0 -> 128 + random.nextInt(30_000);
            case 1 -> random.nextInt(1 << 28);
            case 2 -> -1 - random.nextInt(1000);
            default -> random.nextLong() >>> random.nextInt(64);
        };
    }

    /** A packed payload of {@code n} values of {@code kind}, maybe damaged so that some varint is bad. */
    private static byte[] payload(Random random, ListKind kind, int n) {
        Wire w = new Wire();
        for (int i = 0; i < n; i++) {
            switch (kind) {
                case FLOAT -> w.rawFixed32(random.nextInt());
                case DOUBLE -> w.rawFixed64(random.nextLong());
                default -> w.rawVarint(value(random));
            }
        }
        byte[] p = w.toByteArray();
        return p.length == 0 || random.nextInt(3) != 0 ? p : damaged(random, p);
    }

    /** {@code p}, a non-empty packed list, damaged one of three ways so that some value is bad or cut. */
    static byte[] damaged(Random random, byte[] p) {
        switch (random.nextInt(3)) {
            // A continuation bit set: two varints merge, or the last runs past the end.
            case 0 -> p[random.nextInt(p.length)] |= (byte) 0x80;
            // Ten continuation bytes: a malformed varint, somewhere.
            case 1 -> {
                int at = random.nextInt(p.length);
                Arrays.fill(p, at, Math.min(p.length, at + 10), (byte) 0xFF);
            }
            // A cut: a fixed-width list of partial values, or a varint list ending inside one.
            default -> p = Arrays.copyOf(p, random.nextInt(p.length));
        }
        return p;
    }

    /** A Feature of {@code kind} in one to three pieces, packed runs and single unpacked values mixed. */
    private static byte[] feature(Random random, ListKind kind) {
        Wire list = new Wire();
        int pieces = 1 + random.nextInt(3);
        for (int i = 0; i < pieces; i++) {
            if (kind.fixedWidth() == 0 && random.nextInt(4) == 0) {
                list.varint(1, value(random));
            } else {
                list.bytes(1, payload(random, kind, random.nextInt(random.nextBoolean() ? 12 : 150)));
            }
        }
        return new Wire().bytes(SCHEMA.fieldNumber(kind), list).toByteArray();
    }

    @ParameterizedTest
    @EnumSource(DecodeMode.class)
    void countAndCopyCountsCopiesAndFailsAsCountThenCopy(DecodeMode mode) {
        ValueCopier copier = new ValueCopier(mode);
        ListKind[] kinds = {ListKind.INT32, ListKind.INT64, ListKind.INT32, ListKind.INT64, ListKind.FLOAT, ListKind.DOUBLE};
        DataType[] types = DataType.values();
        for (long seed = 0; seed < 3000; seed++) {
            Random random = new Random(seed);
            ListKind kind = kinds[random.nextInt(kinds.length)];
            DataType type = types[random.nextInt(types.length)];
            byte[] bytes = feature(random, kind);
            FeatureView view = new FeatureView(SCHEMA);
            WireReader r = new WireReader(MemorySegment.ofArray(bytes));
            view.resolveFeature(r, 0, bytes.length);
            int at = random.nextInt(3);
            int max = random.nextInt(160);
            int size = Math.toIntExact(type.byteSize());
            // Room past the row, to see that nothing is written there.
            byte[] expected = new byte[(at + max + 16) * size];
            byte[] actual = new byte[expected.length];
            Arrays.fill(expected, POISON);
            Arrays.fill(actual, POISON);
            String where = "seed " + seed + ", " + kind + " into " + type + ", max " + max;

            long count;
            try {
                count = view.count(r);
            } catch (WireFormatException e) {
                WireFormatException got = assertThrows(WireFormatException.class, () -> copier.countAndCopy(
                        r, view, MemorySegment.ofArray(actual), type, at, max), where);
                assertEquals(e.getMessage(), got.getMessage(), where);
                assertPoisonFrom(actual, (at + max) * size, where);
                continue;
            }
            copier.copy(r, view, MemorySegment.ofArray(expected), type, at, max);
            assertEquals(count, copier.countAndCopy(r, view, MemorySegment.ofArray(actual), type, at, max), where);
            assertArrayEquals(expected, actual, where);
            assertPoisonFrom(actual, (at + max) * size, where);
        }
    }

    @ParameterizedTest
    @EnumSource(DecodeMode.class)
    void longVarintListsKeepEveryValueInEveryType(DecodeMode mode) {
        ValueCopier copier = new ValueCopier(mode);
        // Longer than the chunks varints are decoded in, so that values cross from chunk to chunk.
        DataType[] types = {DataType.INT64, DataType.INT32, DataType.FLOAT32, DataType.FLOAT64, DataType.INT8};
        for (long seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            boolean int32 = random.nextBoolean();
            DataType type = types[random.nextInt(types.length)];
            int n = 200 + random.nextInt(1000);
            long[] values = new long[n];
            Wire packed = new Wire();
            for (int i = 0; i < n; i++) {
                values[i] = value(random);
                packed.rawVarint(values[i]);
            }
            byte[] bytes = new Wire().bytes(SCHEMA.fieldNumber(int32 ? ListKind.INT32 : ListKind.INT64),
                    new Wire().bytes(1, packed.toByteArray())).toByteArray();
            FeatureView view = new FeatureView(SCHEMA);
            WireReader r = new WireReader(MemorySegment.ofArray(bytes));
            view.resolveFeature(r, 0, bytes.length);
            int max = random.nextInt(n + 10);
            MemorySegment out = MemorySegment.ofArray(new long[max + 1]);
            String where = "seed " + seed + ", " + (int32 ? "int32" : "int64") + " list of " + n + " into " + type
                    + ", max " + max;

            assertEquals(n, copier.countAndCopy(r, view, out, type, 0, max), where);
            for (int i = 0; i < Math.min(n, max); i++) {
                // An int32 list's value is its varint's low 32 bits, as protobuf reads it.
                long v = int32 ? (int) values[i] : values[i];
                String at = where + ", value " + i;
                switch (type) {
                    case INT64 -> assertEquals(v, out.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i), at);
                    case INT32 -> assertEquals((int) v, out.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i), at);
                    case FLOAT32 -> assertEquals((float) v, out.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i), at);
                    case FLOAT64 -> assertEquals((double) v, out.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i), at);
                    default -> assertEquals((byte) v, out.get(ValueLayout.JAVA_BYTE, i), at);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(DecodeMode.class)
    void aListOfOneOneByteValueIsWrittenInEveryTypeAndOneWithItsHighBitSetIsCut(DecodeMode mode) {
        ValueCopier copier = new ValueCopier(mode);
        for (DataType type : DataType.values()) {
            for (ListKind kind : List.of(ListKind.INT32, ListKind.INT64)) {
                byte[] bytes = new Wire().bytes(SCHEMA.fieldNumber(kind), new Wire().bytes(1, new byte[] {0x7F}))
                        .toByteArray();
                FeatureView view = new FeatureView(SCHEMA);
                WireReader r = new WireReader(MemorySegment.ofArray(bytes));
                view.resolveFeature(r, 0, bytes.length);
                int size = Math.toIntExact(type.byteSize());
                byte[] out = new byte[3 * size];
                Arrays.fill(out, POISON);
                String where = kind + " into " + type;
                assertEquals(1, copier.countAndCopy(r, view, MemorySegment.ofArray(out), type, 1, 1), where);
                byte[] expected = new byte[3 * size];
                Arrays.fill(expected, POISON);
                ValueCopier.putLong(MemorySegment.ofArray(expected), type, 1, 127);
                assertArrayEquals(expected, out, where);
                assertEquals(1, copier.countAndCopy(r, view, MemorySegment.ofArray(out), type, 0, 0),
                        "counted, not written, where the row is full: " + where);
                assertArrayEquals(expected, out, where);
                byte[] copied = new byte[3 * size];
                Arrays.fill(copied, POISON);
                assertEquals(1, copier.copy(r, view, MemorySegment.ofArray(copied), type, 1, 1), where);
                assertArrayEquals(expected, copied, "copied as a ragged row's second pass does: " + where);

                bytes[bytes.length - 1] = (byte) 0xFF;
                view.resolveFeature(r, 0, bytes.length);
                WireFormatException cut = assertThrows(WireFormatException.class, () -> view.count(r), where);
                WireFormatException got = assertThrows(WireFormatException.class,
                        () -> copier.countAndCopy(r, view, MemorySegment.ofArray(out), type, 1, 1), where);
                assertEquals(cut.getMessage(), got.getMessage(), where);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(DecodeMode.class)
    void aBadVarintPastTheLastValueCopiedStillFails(DecodeMode mode) {
        ValueCopier copier = new ValueCopier(mode);
        // 0, 1, 2, then ten continuation bytes: malformed at byte 3 of the payload.
        byte[] payload = {0, 1, 2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1};
        byte[] bytes = new Wire().bytes(5, new Wire().bytes(1, payload)).toByteArray();
        FeatureView view = new FeatureView(SCHEMA);
        WireReader r = new WireReader(MemorySegment.ofArray(bytes));
        view.resolveFeature(r, 0, bytes.length);
        MemorySegment out = MemorySegment.ofArray(new long[2]);
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> copier.countAndCopy(r, view, out, DataType.INT64, 0, 2));
        assertEquals("malformed varint", e.reason());
        assertEquals(view.start(0) + 3, e.position());
    }

    @ParameterizedTest
    @EnumSource(DecodeMode.class)
    void aBytesListIsNotCountedInItsValues(DecodeMode mode) {
        ValueCopier copier = new ValueCopier(mode);
        byte[] bytes = new Wire().bytes(1, new Wire().bytes(1, new byte[] {1, 2, 3})).toByteArray();
        FeatureView view = new FeatureView(SCHEMA);
        WireReader r = new WireReader(MemorySegment.ofArray(bytes));
        view.resolveFeature(r, 0, bytes.length);
        assertThrows(IllegalArgumentException.class,
                () -> copier.countAndCopy(r, view, MemorySegment.ofArray(new byte[3]), DataType.UINT8, 0, 3));
    }

    private static void assertPoisonFrom(byte[] out, int from, String where) {
        for (int i = from; i < out.length; i++) {
            if (out[i] != POISON) {
                fail("byte " + i + " past the row was written: " + where);
            }
        }
    }
}
