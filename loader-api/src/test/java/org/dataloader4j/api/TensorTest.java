package org.dataloader4j.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class TensorTest {

    @Test
    void readsLittleEndianElementsRowMajor() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(6 * 4);
            for (int i = 0; i < 6; i++) {
                seg.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 4L * i, 10 * i);
            }
            Tensor t = Tensor.of("t", seg, Shape.of(3, 2), DataType.INT32);

            assertEquals(40, t.getInt(4));
            assertArrayEquals(new int[] {0, 10, 20, 30, 40, 50}, t.toIntArray());
            Tensor rows = t.rows(1, 2);
            assertEquals(Shape.of(2, 2), rows.shape());
            assertArrayEquals(new int[] {20, 30, 40, 50}, rows.toIntArray());
            assertEquals(10, seg.get(ValueLayout.JAVA_BYTE, 4));
        }
    }

    @Test
    void readsFloatsDoublesAndIntsLittleEndianAtAnOddAddress() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(1 + 2 * 8);
            MemorySegment odd = seg.asSlice(1);
            odd.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 4, Float.floatToIntBits(1.5f));
            assertEquals(1.5f, Tensor.of("f", odd, Shape.of(4), DataType.FLOAT32).getFloat(1));
            odd.set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 8, Double.doubleToLongBits(-0.25));
            assertEquals(-0.25, Tensor.of("d", odd, Shape.of(2), DataType.FLOAT64).getDouble(1));
            odd.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, 0x01020304);
            assertEquals(0x01020304, Tensor.of("i", odd, Shape.of(4), DataType.INT32).getInt(0));
        }
    }

    @Test
    void settersWriteWhatGettersRead() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor f = Tensor.of("f", arena.allocate(8), Shape.of(2), DataType.FLOAT32);
            f.setFloat(1, -2.5f);
            assertEquals(-2.5f, f.getFloat(1));
            Tensor l = Tensor.of("l", arena.allocate(16), Shape.of(2), DataType.INT64);
            l.setLong(0, Long.MIN_VALUE);
            assertEquals(Long.MIN_VALUE, l.getLong(0));
            assertEquals((byte) 0x80, l.segment().get(ValueLayout.JAVA_BYTE, 7), "little-endian: sign byte last");
            Tensor u = Tensor.of("u", arena.allocate(1), Shape.of(1), DataType.UINT8);
            u.setByte(0, 200);
            assertEquals(200, u.getByte(0));
            assertThrows(IllegalStateException.class, () -> u.setInt(0, 1));
        }
    }

    @Test
    void readsUint8AsUnsigned() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(2);
            seg.set(ValueLayout.JAVA_BYTE, 0, (byte) 0xff);
            assertEquals(255, Tensor.of("u", seg, Shape.of(2), DataType.UINT8).getByte(0));
            assertEquals(-1, Tensor.of("s", seg, Shape.of(2), DataType.INT8).getByte(0));
        }
    }

    @Test
    void checksTheLeaseBeforeEveryAccess() {
        AtomicBoolean valid = new AtomicBoolean(true);
        Lease lease = () -> {
            if (!valid.get()) {
                throw new IllegalStateException("released");
            }
        };
        try (Arena arena = Arena.ofConfined()) {
            Tensor t = Tensor.of("t", arena.allocate(16), Shape.of(2), DataType.FLOAT64, lease);
            assertEquals(0.0, t.getDouble(1));
            valid.set(false);
            assertThrows(IllegalStateException.class, () -> t.getDouble(1));
            assertThrows(IllegalStateException.class, t::segment);
            assertThrows(IllegalStateException.class, t::toDoubleArray);
        }
    }

    @Test
    void rejectsTheWrongTypeAndATooSmallSegment() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor t = Tensor.of("t", arena.allocate(16), Shape.of(2), DataType.FLOAT64);
            assertThrows(IllegalStateException.class, () -> t.getFloat(0));
            assertThrows(IllegalArgumentException.class,
                    () -> Tensor.of("t", arena.allocate(15), Shape.of(2), DataType.FLOAT64));
        }
    }

    @Test
    void shapesPrintAndCount() {
        assertEquals("(256, 784)", Shape.of(256, 784).toString());
        assertEquals("(3,)", Shape.of(3).toString());
        assertEquals(784, Shape.of(256, 28, 28).rowElements());
        assertEquals(0, Shape.of(0, 5).elementCount());
        assertThrows(IllegalArgumentException.class, () -> Shape.of(2, -1));
    }
}
