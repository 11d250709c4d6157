package org.dataloader4j.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.dataloader4j.image.CropMirrorNormalize.Layout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fused resize-crop-mirror-normalize gives, bit for bit, what {@link ImageResize#resize}
 * followed by {@link CropMirrorNormalize#apply} give: shrinking and enlarging, one and three
 * channels, both layouts, mirrored or not, at several crop positions, and one instance reused
 * over images of changing sizes, as a parse thread reuses it.
 */
class ResizeNormalizeTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    @Test
    void equalsResizeThenCropMirrorNormalize() {
        Random random = new Random(42);
        int[][] sizes = {{500, 375}, {37, 290}, {224, 224}, {225, 223}, {17, 9}, {1, 1}, {3000, 4}, {640, 480}};
        for (int channels : new int[] {1, 3}) {
            for (Layout layout : Layout.values()) {
                for (float[] position : new float[][] {{0.5f, 0.5f}, {0f, 1f}, {0.99999994f, 0.3f}}) {
                    CropMirrorNormalize normalize = CropMirrorNormalize.builder().crop(20, 13)
                            .cropPosition(position[0], position[1]).layout(layout)
                            .mean(channels == 3 ? new float[] {123.68f, 116.779f, 103.939f} : new float[] {127.5f})
                            .std(channels == 3 ? new float[] {58.393f, 57.12f, 57.375f} : new float[] {64f})
                            .build();
                    ResizeNormalize fused = new ResizeNormalize(normalize);
                    for (int[] size : sizes) {
                        MemorySegment src = randomImage(random, size[0], size[1], channels);
                        for (int[] resized : new int[][] {{20, 13}, {31, 13}, {20, 40}, {256, 341}}) {
                            for (boolean mirror : new boolean[] {false, true}) {
                                float[] expected = unfused(normalize, src, size[0], size[1], channels, resized, mirror);
                                MemorySegment dst = arena.allocate(normalize.outputBytes(channels) + 8);
                                fused.apply(src, size[0], size[1], channels, resized[0], resized[1], mirror, dst, 8);
                                float[] actual = dst.asSlice(8).toArray(CropMirrorNormalizeTest.F32);
                                assertArrayEquals(expected, actual, () -> "channels=" + channels + " layout=" + layout
                                        + " src=" + size[0] + "x" + size[1] + " resized=" + resized[0] + "x" + resized[1]
                                        + " mirror=" + mirror);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void refusesWhatTheTwoStepsRefuse() {
        CropMirrorNormalize normalize = CropMirrorNormalize.builder().crop(8, 8).build();
        ResizeNormalize fused = new ResizeNormalize(normalize);
        MemorySegment src = arena.allocate(10 * 10 * 3);
        MemorySegment dst = arena.allocate(normalize.outputBytes(3));
        // The resized image smaller than the crop.
        assertThrows(IllegalArgumentException.class, () -> fused.apply(src, 10, 10, 3, 7, 10, false, dst, 0));
        // The source smaller than its size says.
        assertThrows(IllegalArgumentException.class, () -> fused.apply(src, 11, 10, 3, 8, 8, false, dst, 0));
        // No room for the output.
        assertThrows(IllegalArgumentException.class, () -> fused.apply(src, 10, 10, 3, 8, 8, false, dst, 4));
    }

    private float[] unfused(CropMirrorNormalize normalize, MemorySegment src, int width, int height, int channels,
                            int[] resized, boolean mirror) {
        MemorySegment scaled = arena.allocate((long) resized[0] * resized[1] * channels);
        ImageResize.resize(src, width, height, channels, scaled, resized[0], resized[1]);
        MemorySegment out = arena.allocate(normalize.outputBytes(channels));
        normalize.apply(scaled, resized[0], resized[1], channels, mirror, out, 0);
        return out.toArray(CropMirrorNormalizeTest.F32);
    }

    private MemorySegment randomImage(Random random, int width, int height, int channels) {
        byte[] pixels = new byte[width * height * channels];
        random.nextBytes(pixels);
        MemorySegment image = arena.allocate(pixels.length);
        MemorySegment.copy(pixels, 0, image, ValueLayout.JAVA_BYTE, 0, pixels.length);
        return image;
    }
}
