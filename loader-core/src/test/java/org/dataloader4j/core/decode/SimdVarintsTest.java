package org.dataloader4j.core.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import org.dataloader4j.api.DataType;
import org.dataloader4j.core.decode.fast.SimdVarints;
import org.dataloader4j.core.testing.WireWriter;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;
import org.junit.jupiter.api.Test;

/**
 * The Vector API varint decoder against the scalar one, called directly whatever
 * {@code SimdSupport} chose for this JVM: the same values, count, position and errors for packed
 * lists anywhere in a segment, and the steps themselves taking lists of short varints whole.
 */
class SimdVarintsTest {
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final byte POISON = 0x5A;

    private static final class Wire extends WireWriter<Wire> {
    }

    /** Token ids, masks and padding: runs of one-byte values, two- and three-byte values, now and then a long one. */
    private static void value(Random random, Wire w) {
        switch (random.nextInt(12)) {
            case 0, 1, 2, 3, 4 -> w.rawVarint(random.nextInt(2));
            case 5, 6, 7 -> w.rawVarint(random.nextInt(30_522));
            case 8 -> w.rawVarint(random.nextInt(1 << 28));
            case 9 -> w.paddedVarint(random.nextInt(128), 2 + random.nextInt(3));
            case 10 -> w.rawVarint(random.nextBoolean() ? -1 - random.nextInt(1000) : random.nextLong() >>> random.nextInt(64));
            default -> {
                for (int i = random.nextInt(80); i > 0; i--) {
                    w.rawVarint(random.nextInt(128));
                }
            }
        }
    }

    /** A packed list, damaged one time in four so that some varint is malformed or cut. */
    private static byte[] list(Random random) {
        Wire w = new Wire();
        for (int i = random.nextInt(random.nextBoolean() ? 20 : 300); i > 0; i--) {
            value(random, w);
        }
        byte[] p = w.toByteArray();
        return p.length > 0 && random.nextInt(4) == 0 ? ValueCopierTest.damaged(random, p) : p;
    }

    /** What one decoder made of a list: the values written (with the poison around them), the count and end, or the error. */
    private record Outcome(byte[] row, long count, long position, String error) {
    }

    private static Outcome run(MemorySegment record, long start, long end, int at, int max, boolean int32, DataType type,
                               boolean simd, Arena arena) {
        MemorySegment out = arena.allocate((at + max + 20L) * type.byteSize());
        out.fill(POISON);
        WireReader r = new WireReader(record).reset(record, start, end);
        try {
            long count = ValueCopier.copyVarints(r, int32, new long[256], out, type, at, max, simd);
            return new Outcome(out.toArray(ValueLayout.JAVA_BYTE), count, r.position(), null);
        } catch (WireFormatException e) {
            return new Outcome(out.asSlice((at + max) * type.byteSize()).toArray(ValueLayout.JAVA_BYTE), -1, -1,
                    e.getMessage());
        }
    }

    @Test
    void bothDecodersWriteTheSameValuesAndFailTheSameWay() {
        for (long seed = 0; seed < 3000; seed++) {
            Random random = new Random(seed);
            byte[] list = list(random);
            // Bytes with the high bit set around the list, and sometimes fewer than 64 after it
            // before the segment ends.
            int before = random.nextInt(70);
            int after = random.nextBoolean() ? random.nextInt(8) : random.nextInt(100);
            byte[] bytes = new byte[before + list.length + after];
            Arrays.fill(bytes, (byte) 0x81);
            System.arraycopy(list, 0, bytes, before, list.length);
            int at = random.nextInt(3);
            int max = random.nextInt(random.nextBoolean() ? 20 : 320);
            boolean int32 = random.nextBoolean();
            DataType type = random.nextBoolean() ? DataType.INT32 : DataType.INT64;
            String where = "seed " + seed + ", " + list.length + " bytes into " + type + ", max " + max;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment record = random.nextBoolean() ? MemorySegment.ofArray(bytes)
                        : arena.allocate(bytes.length).copyFrom(MemorySegment.ofArray(bytes));
                long end = before + list.length;
                Outcome scalar = run(record, before, end, at, max, int32, type, false, arena);
                Outcome simd = run(record, before, end, at, max, int32, type, true, arena);
                assertEquals(scalar.error(), simd.error(), where);
                assertEquals(scalar.count(), simd.count(), where);
                assertEquals(scalar.position(), simd.position(), where);
                assertArrayEquals(scalar.row(), simd.row(), where);
            }
        }
    }

    @Test
    void theStepsTakeAListOfOneToFourByteVarintsWholeIntoIntsOrLongs() {
        Random random = new Random(11);
        int[] values = new int[500];
        Wire w = new Wire();
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (i % 4) {
                case 0 -> random.nextInt(128);
                case 1 -> random.nextInt(30_522);
                case 2 -> random.nextInt(1 << 21);
                default -> random.nextInt(1 << 28);
            };
            w.rawVarint(values[i]);
        }
        byte[] list = w.toByteArray();
        try (Arena arena = Arena.ofConfined()) {
            // 64 bytes after the list, so that the last window lies inside the segment.
            MemorySegment record = arena.allocate(list.length + 64L);
            MemorySegment.copy(list, 0, record, ValueLayout.JAVA_BYTE, 0, list.length);
            MemorySegment ints = arena.allocate((long) values.length * Integer.BYTES);
            MemorySegment longs = arena.allocate((long) values.length * Long.BYTES);
            WireReader r = new WireReader(record).reset(record, 0, list.length);

            assertEquals(values.length, SimdVarints.decode(r, ints, 0, values.length, false));
            assertEquals(list.length, r.position());
            assertArrayEquals(values, ints.toArray(I32));
            r.reset(record, 0, list.length);
            assertEquals(values.length, SimdVarints.decode(r, longs, 0, values.length, true));
            assertEquals(list.length, r.position());
            assertArrayEquals(Arrays.stream(values).asLongStream().toArray(), longs.toArray(I64));
        }
    }

    @Test
    void theStepsStopBeforeAFiveByteVarintAndLeaveItToTheScalarDecoder() {
        // The long varint among the first group of a window, and among the second.
        for (int before : new int[] {2, 20}) {
            int[] values = new int[before + 2];
            Wire w = new Wire();
            long shortBytes = 0;
            for (int i = 0; i < values.length; i++) {
                values[i] = i == before ? 1 << 28 : 100 + i * 300;
                w.rawVarint(values[i]);
                if (i < before) {
                    shortBytes = w.toByteArray().length;
                }
            }
            byte[] list = w.toByteArray();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment record = arena.allocate(list.length + 64L);
                MemorySegment.copy(list, 0, record, ValueLayout.JAVA_BYTE, 0, list.length);
                MemorySegment out = arena.allocate((long) values.length * Integer.BYTES);
                WireReader r = new WireReader(record).reset(record, 0, list.length);

                assertEquals(before, SimdVarints.decode(r, out, 0, values.length, false), "short varints before the long one");
                assertEquals(shortBytes, r.position());
                assertEquals(values.length, ValueCopier.copyVarints(new WireReader(record).reset(record, 0, list.length), true,
                        new long[256], out, DataType.INT32, 0, values.length, true));
                assertArrayEquals(values, out.toArray(I32));
            }
        }
    }

    @Test
    void onlySegmentsOverBytesOrNativeMemoryAreTaken() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = MemorySegment.ofArray(new byte[8]);
            assertTrue(SimdVarints.takes(arena.allocate(8), bytes));
            assertFalse(SimdVarints.takes(bytes, MemorySegment.ofArray(new int[2])));
            assertFalse(SimdVarints.takes(MemorySegment.ofArray(new long[1]), bytes));
        }
    }
}
