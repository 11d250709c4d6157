package org.dataloader4j.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.dataloader4j.image.ImageResize.Side;
import org.dataloader4j.testkit.ExpectedBytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ImageResize} against OpenCV's {@code INTER_LINEAR} for uint8: small cases worked by hand
 * from its fixed-point arithmetic, and larger ones by the SHA-256 of what OpenCV 4.6.0's
 * {@code cv2.resize} gives for the same generated input; and OneFlow's keep-aspect-ratio sizes.
 */
class ImageResizeTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    @Test
    void twoByTwoToFourByFour() {
        // Column weights (x 2048): edge alone, (1536, 512), (512, 1536), edge alone. Output row 0
        // lies above row 0's centre: source rows -1 and 0 both clamp to row 0, with the
        // fraction kept, weights (512, 1536). At (x 1, y 0), D = 10 * 1536 + 200 * 512 = 117760;
        // ((D >> 4) * 512 >> 16) + ((D >> 4) * 1536 >> 16) = 57 + 172, and (229 + 2) >> 2 = 57,
        // where the scalar rounding (2048 * D + 2^21) >> 22 would give 58.
        byte[] out = resize(new byte[] {10, (byte) 200, 50, 90}, 2, 2, 1, 4, 4);
        assertArrayEquals(bytes(
                10, 57, 152, 200,
                20, 58, 134, 173,
                40, 59, 98, 118,
                50, 60, 80, 90), out);
    }

    @Test
    void halvingAveragesEachTwoByTwoBlockRoundingHalfUp() {
        byte[] src = bytes(
                0, 10, 20, 30,
                40, 50, 60, 70,
                80, 90, 100, 110,
                120, 130, 140, 151);
        // (0 + 10 + 40 + 50 + 2) >> 2 = 25, ..., (100 + 110 + 140 + 151 + 2) >> 2 = 125.
        assertArrayEquals(bytes(25, 45, 105, 125), resize(src, 4, 4, 1, 2, 2));
    }

    @Test
    void theSameSizeIsACopy() {
        byte[] src = new byte[5 * 3 * 3];
        for (int i = 0; i < src.length; i++) {
            src[i] = (byte) (i * 37);
        }
        assertArrayEquals(src, resize(src, 5, 3, 3, 5, 3));
    }

    @Test
    void aOnePixelWideImageStretchesDownItsColumn() {
        // Rows: scale 0.6; output row 1 reads rows 0 and 1 at weights (1229, 819):
        // (640 * 1229 >> 16) + (13440 * 819 >> 16) = 12 + 167, and (179 + 2) >> 2 = 45.
        byte[] column = bytes(5, 105, 250);
        assertArrayEquals(bytes(5, 45, 105, 192, 250), resize(column, 1, 3, 1, 1, 5));
        // Every output column reads the one source column.
        assertArrayEquals(bytes(30, 30, 30, 214, 214, 214), resize(column, 1, 3, 1, 3, 2));
    }

    @Test
    void threeChannelsAreInterpolatedApart() {
        byte[] src = bytes(
                255, 0, 0, 0, 255, 0, 0, 0, 255,
                10, 20, 30, 40, 50, 60, 70, 80, 90);
        assertArrayEquals(bytes(
                255, 0, 0, 153, 102, 0, 0, 255, 0, 0, 102, 153, 0, 0, 255,
                133, 10, 15, 87, 67, 21, 20, 153, 30, 29, 85, 116, 35, 40, 173,
                10, 20, 30, 22, 32, 42, 40, 50, 60, 58, 68, 78, 70, 80, 90), resize(src, 3, 2, 3, 5, 3));
    }

    /** Generated images, v = ((i * 2654435761) >>> 13) & 0xFF for byte i, against cv2.resize's output. */
    @ParameterizedTest(name = "{0}x{1}x{2} -> {3}x{4}")
    @CsvSource({
        "13, 17, 3, 31, 29, 6f19d901e70b2a95d7c3e6541635f8728cfdb6376afd992f817e519ff0772287",
        "299, 150, 3, 224, 224, 1f3ee0111d6cf36913d3f433c59af1d9e4d1b758a8c4b091d9a79f5084ab7f5f",
        "64, 48, 1, 17, 100, 3f80d2263d3b4e22576acbb4963ec6c89ec12b1654bdd00320036466a6ac5090",
        "500, 375, 3, 256, 192, cf869623285ae727abbde3cb3ef50d4941d4d4378d98bf53945788509188e661",
        "7, 5, 3, 3, 11, a8bd10147c421ad198f93b536be5bac47a7e5a03dc7fe1f3d627f0c4b708a995",
        "1, 9, 3, 5, 4, 09611cc5a88f85d286a9a3990b529ac5863c42347ff81da89427feab1de3f603",
        "100, 1, 1, 37, 3, 792e984ae65c22bfd84a97bc590adc94b1e051b1a18b23a03edb165956547553",
        "640, 480, 3, 320, 240, 7de9c1e4d9d11575309c2f2f4715e6306bd9704f4972cdc871fd49be767e4cf0",
    })
    void generatedImagesResizeAsOpenCvDoes(int w, int h, int c, int dw, int dh, String sha256) {
        byte[] src = new byte[w * h * c];
        for (int i = 0; i < src.length; i++) {
            src[i] = (byte) (((long) i * 2654435761L) >>> 13);
        }
        assertEquals(sha256, ExpectedBytes.sha256Hex(resize(src, w, h, c, dw, dh)));
    }

    @Test
    void sizesAndSegmentsAreChecked() {
        MemorySegment src = arena.allocate(12);
        MemorySegment dst = arena.allocate(12);
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                () -> ImageResize.resize(src, 2, 2, 3, dst.asSlice(1), 2, 2));
        assertTrue(small.getMessage().startsWith("dst is too small"), small.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ImageResize.resize(src, 3, 2, 3, dst, 2, 2));
        assertThrows(IllegalArgumentException.class, () -> ImageResize.resize(src, 0, 2, 3, dst, 2, 2));
        assertThrows(IllegalArgumentException.class, () -> ImageResize.resize(src, 2, 2, 3, dst, 2, 0));
        assertThrows(IllegalArgumentException.class, () -> ImageResize.resize(src, 2, 2, 0, dst, 2, 2));
    }

    @ParameterizedTest(name = "{0}x{1} {3} {2} min {4} max {5} -> {6}x{7}")
    @CsvSource({
        // shorter side to 224: the longer 224 / 0.75 = 298.67 rounds to 299
        "640, 480, 224, SHORTER, 0, 0, 299, 224",
        "480, 640, 224, SHORTER, 0, 0, 224, 299",
        // the longer side would pass max_size: it becomes 256, the shorter 256 * 0.75
        "640, 480, 224, SHORTER, 0, 256, 256, 192",
        "640, 480, 320, LONGER, 0, 0, 320, 240",
        // the shorter side would fall below min_size: it becomes 250, the longer 333.33 -> 333
        "640, 480, 320, LONGER, 250, 0, 333, 250",
        // halves round to even: 5 * 0.5 = 2.5 -> 2, 7 * 0.5 = 3.5 -> 4
        "4, 2, 5, LONGER, 0, 0, 5, 2",
        "2, 4, 7, LONGER, 0, 0, 4, 7",
        "100, 100, 50, SHORTER, 0, 0, 50, 50",
        "100, 100, 50, LONGER, 0, 0, 50, 50",
    })
    void keepAspectRatioSizesAreOneFlows(int w, int h, int target, Side side, int min, int max, int rw, int rh) {
        assertEquals(new ImageSize(rw, rh), ImageResize.keepAspectRatio(w, h, target, side, min, max));
    }

    @Test
    void keepAspectRatioChecksItsArguments() {
        assertThrows(IllegalArgumentException.class, () -> ImageResize.keepAspectRatio(640, 480, 0, Side.SHORTER, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> ImageResize.keepAspectRatio(640, 480, 224, Side.SHORTER, 0, 200));
        assertThrows(IllegalArgumentException.class, () -> ImageResize.keepAspectRatio(640, 480, 224, Side.LONGER, 300, 0));
        assertThrows(IllegalArgumentException.class, () -> ImageResize.keepAspectRatio(0, 480, 224, Side.LONGER, 0, 0));
        // 1 x 1000 with its longer side to 100 would be 0 pixels wide.
        assertThrows(IllegalArgumentException.class, () -> ImageResize.keepAspectRatio(1, 1000, 100, Side.LONGER, 0, 0));
    }

    private byte[] resize(byte[] src, int w, int h, int c, int dw, int dh) {
        MemorySegment in = arena.allocateFrom(ValueLayout.JAVA_BYTE, src);
        MemorySegment out = arena.allocate((long) dw * dh * c);
        ImageResize.resize(in, w, h, c, out, dw, dh);
        return out.toArray(ValueLayout.JAVA_BYTE);
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }
}
