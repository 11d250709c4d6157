package org.dataloader4j.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Random;
import org.dataloader4j.image.CropMirrorNormalize.Layout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link CropMirrorNormalize} against OneFlow's arithmetic: which pixel each output reads (crop
 * positions, mirroring, the float rounding of the position), the two layouts holding the same
 * values, and {@code (v - mean) * (1 / std)} in float, bit for bit.
 */
class CropMirrorNormalizeTest {
    static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    @Test
    void cropPositionsPlaceTheCropAsOneFlowDoes() {
        // One channel whose value is its column, plus 16 times its row: 10 x 10.
        MemorySegment src = coordinates(10, 10);
        // Centred: (10 - 5) * 0.5 = 2.5, truncated to 2, on both axes.
        assertArrayEquals(readCoordinates(2, 2, 5), apply(cmn(5, 5, 0.5f, 0.5f), src, 10, 10, 1, false));
        assertArrayEquals(readCoordinates(0, 0, 5), apply(cmn(5, 5, 0f, 0f), src, 10, 10, 1, false));
        assertArrayEquals(readCoordinates(5, 5, 5), apply(cmn(5, 5, 1f, 1f), src, 10, 10, 1, false));
        // (10 - 5) * 0.3f is 1.5000001 in float, truncated to 1; (10 - 5) * 0.8f rounds to 4.0.
        assertArrayEquals(readCoordinates(1, 4, 5), apply(cmn(5, 5, 0.3f, 0.8f), src, 10, 10, 1, false));
    }

    @Test
    void thePositionIsAddedInFloatPixelByPixel() {
        // 5 wide, crop 4, position 0.99999994f: 0.99999994f + ow rounds to 0, 2, 3 and 4 in float,
        // so column 1 is skipped, as OneFlow's kernel does it; mirrored: 4, 3, 2, 0.
        MemorySegment src = coordinates(5, 1);
        float[] out = apply(cmn(4, 1, Math.nextDown(1f), 0f), src, 5, 1, 1, false);
        assertArrayEquals(new float[] {0, 2, 3, 4}, out);
        float[] mirrored = apply(cmn(4, 1, Math.nextDown(1f), 0f), src, 5, 1, 1, true);
        assertArrayEquals(new float[] {4, 3, 2, 0}, mirrored);
    }

    @Test
    void mirrorReversesEachRowOfTheCrop() {
        MemorySegment src = random(12, 9, 3, 11);
        CropMirrorNormalize op = CropMirrorNormalize.builder().crop(8, 5).layout(Layout.NHWC).build();
        float[] plain = apply(op, src, 12, 9, 3, false);
        float[] mirrored = apply(op, src, 12, 9, 3, true);
        for (int y = 0; y < 5; y++) {
            for (int x = 0; x < 8; x++) {
                for (int c = 0; c < 3; c++) {
                    assertEquals(plain[(y * 8 + x) * 3 + c], mirrored[(y * 8 + 7 - x) * 3 + c]);
                }
            }
        }
    }

    @ParameterizedTest(name = "mirror={0}")
    @ValueSource(booleans = {false, true})
    void nchwAndNhwcHoldTheSameValues(boolean mirror) {
        long seed = 424242;
        MemorySegment src = random(33, 21, 3, seed);
        CropMirrorNormalize.Builder builder = CropMirrorNormalize.builder().crop(17, 13).cropPosition(0.37f, 0.81f)
                .mean(123.68f, 116.779f, 103.939f).std(58.393f, 57.12f, 57.375f);
        float[] nchw = apply(builder.layout(Layout.NCHW).build(), src, 33, 21, 3, mirror);
        float[] nhwc = apply(builder.layout(Layout.NHWC).build(), src, 33, 21, 3, mirror);
        for (int c = 0; c < 3; c++) {
            for (int y = 0; y < 13; y++) {
                for (int x = 0; x < 17; x++) {
                    assertEquals(Float.floatToRawIntBits(nchw[(c * 13 + y) * 17 + x]),
                            Float.floatToRawIntBits(nhwc[(y * 17 + x) * 3 + c]), "seed " + seed);
                }
            }
        }
    }

    @Test
    void normalizingMultipliesByTheFloatInverseOfStd() {
        float mean = 123.68f;
        float std = 58.393f;
        // Multiplying by 1 / std and dividing by std differ for some bytes: the test tells them apart.
        int differ = 0;
        for (int v = 0; v < 256; v++) {
            differ += ((float) v - mean) * (1.0f / std) != ((float) v - mean) / std ? 1 : 0;
        }
        assertTrue(differ > 0);
        MemorySegment src = arena.allocate(256);
        for (int v = 0; v < 256; v++) {
            src.set(ValueLayout.JAVA_BYTE, v, (byte) v);
        }
        float[] out = apply(CropMirrorNormalize.builder().crop(256, 1).mean(mean).std(std).build(), src, 256, 1, 1, false);
        for (int v = 0; v < 256; v++) {
            assertEquals(Float.floatToRawIntBits(((float) v - mean) * (1.0f / std)), Float.floatToRawIntBits(out[v]), "v=" + v);
        }
    }

    @Test
    void oneMeanAndStdServeEveryChannelAndDefaultsLeaveValuesAsTheyAre() {
        MemorySegment src = arena.allocateFrom(ValueLayout.JAVA_BYTE, new byte[] {0, 100, (byte) 200, 50, (byte) 255, 10});
        float[] scaled = apply(CropMirrorNormalize.builder().crop(2, 1).mean(100).std(2).layout(Layout.NHWC).build(),
                src, 2, 1, 3, false);
        assertArrayEquals(new float[] {-50, 0, 50, -25, 77.5f, -45}, scaled);
        float[] plain = apply(CropMirrorNormalize.builder().crop(2, 1).build(), src, 2, 1, 3, false);
        assertArrayEquals(new float[] {0, 50, 100, 255, 200, 10}, plain);
    }

    @Test
    void theOutputGoesAtTheOffsetAndNowhereElse() {
        MemorySegment src = coordinates(4, 4);
        CropMirrorNormalize op = cmn(2, 2, 0f, 0f);
        MemorySegment dst = arena.allocate(8 + op.outputBytes(1) + 8);
        dst.fill((byte) 0x7F);
        op.apply(src, 4, 4, 1, false, dst, 8);
        assertEquals(0x7F7F7F7F7F7F7F7FL, dst.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
        assertEquals(0x7F7F7F7F7F7F7F7FL, dst.get(ValueLayout.JAVA_LONG_UNALIGNED, 8 + op.outputBytes(1)));
        assertArrayEquals(new float[] {0, 1, 16, 17}, dst.asSlice(8, 16).toArray(F32));
    }

    @Test
    void argumentsAreChecked() {
        MemorySegment src = coordinates(4, 4);
        CropMirrorNormalize op = cmn(3, 3, 0.5f, 0.5f);
        MemorySegment dst = arena.allocate(op.outputBytes(3));
        IllegalArgumentException large = assertThrows(IllegalArgumentException.class,
                () -> cmn(5, 3, 0.5f, 0.5f).apply(src, 4, 4, 1, false, dst, 0));
        assertTrue(large.getMessage().contains("cropWidth=5"), large.getMessage());
        assertThrows(IllegalArgumentException.class, () -> op.apply(src, 4, 4, 1, false, dst, op.outputBytes(3) - 4));
        assertThrows(IllegalArgumentException.class, () -> op.apply(src, 4, 4, 3, false, dst, 0));
        assertThrows(IllegalArgumentException.class, () -> op.apply(src, 4, 4, 1, false, dst, -1));
        MemorySegment rgb = arena.allocate(4 * 4 * 3);
        IllegalArgumentException means = assertThrows(IllegalArgumentException.class,
                () -> CropMirrorNormalize.builder().crop(3, 3).mean(1, 2).build().apply(rgb, 4, 4, 3, false, dst, 0));
        assertTrue(means.getMessage().contains("mean.length=2"), means.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CropMirrorNormalize.builder().cropPosition(1.5f, 0));
        assertThrows(IllegalArgumentException.class, () -> CropMirrorNormalize.builder().cropPosition(Float.NaN, 0));
        assertThrows(IllegalArgumentException.class, () -> CropMirrorNormalize.builder().std(1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> CropMirrorNormalize.builder().mean());
        assertThrows(IllegalArgumentException.class, () -> CropMirrorNormalize.builder().crop(0, 3));
        assertThrows(IllegalStateException.class, () -> CropMirrorNormalize.builder().build());
    }

    private static CropMirrorNormalize cmn(int w, int h, float x, float y) {
        return CropMirrorNormalize.builder().crop(w, h).cropPosition(x, y).build();
    }

    private float[] apply(CropMirrorNormalize op, MemorySegment src, int w, int h, int c, boolean mirror) {
        MemorySegment dst = arena.allocate(op.outputBytes(c));
        op.apply(src, w, h, c, mirror, dst, 0);
        return dst.toArray(F32);
    }

    /** A one-channel image whose pixel (x, y) holds x + 16 y. */
    private MemorySegment coordinates(int w, int h) {
        MemorySegment src = arena.allocate((long) w * h);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                src.set(ValueLayout.JAVA_BYTE, (long) y * w + x, (byte) (x + 16 * y));
            }
        }
        return src;
    }

    /** What a crop of {@code size × size} at (x0, y0) of {@link #coordinates} holds, unnormalized. */
    private static float[] readCoordinates(int x0, int y0, int size) {
        float[] out = new float[size * size];
        for (int y = 0; y < size; y++) {
            for (int x = 0; x < size; x++) {
                out[y * size + x] = (x0 + x) + 16 * (y0 + y);
            }
        }
        return out;
    }

    private MemorySegment random(int w, int h, int c, long seed) {
        byte[] bytes = new byte[w * h * c];
        new Random(seed).nextBytes(bytes);
        return arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes);
    }
}
