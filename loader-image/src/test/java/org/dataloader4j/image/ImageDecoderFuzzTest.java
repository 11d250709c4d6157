package org.dataloader4j.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.Jazzer;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzzes both image codecs, native and ImageIO, with an encoded image of arbitrary bytes: a JPEG
 * ({@link #decodeJpeg}) or a PNG ({@link #decodePng}), as the seeds of each make it. The input is
 * the image followed by four bytes that place a window in it. Each codec reads the header and,
 * for an image of at most {@link #MAX_PIXELS}, decodes the whole image and the window in every
 * colour space into off-heap memory. Only an {@link ImageException} may escape, and:
 * <ul>
 *   <li>a window is the same pixels as that window of the whole image, which decodes in every
 *       colour space or in none, BGR being RGB with red and blue swapped;</li>
 *   <li>nothing is written past the window's bytes;</li>
 *   <li>where both codecs read the header they read the same one, and where both decode a PNG
 *       they give the same pixels ({@link #agree} says why not a JPEG).</li>
 * </ul>
 * Each codec decodes through one context for the whole run, as a reader's parse thread does, so
 * that what one image leaves in a context meets the next. Where the native codec does not load,
 * ImageIO is checked alone. Regression inputs are in
 * {@code ImageDecoderFuzzTestInputs}; see docs/fuzzing.md.
 */
class ImageDecoderFuzzTest {
    /** The most pixels an image may declare to be decoded here; of a larger one only the header is read. */
    static final long MAX_PIXELS = 1L << 20;
    /** The input's last bytes: the window's left, top, width and height, each in 256ths of what the image leaves. */
    static final int WINDOW_BYTES = 4;
    /** Bytes after a decode's output that must keep what they held. */
    private static final int GUARD = 64;
    private static final byte POISON = (byte) 0xA5;

    /** A codec's name and the context it decodes through here. */
    private record Codec(String name, ImageCodec.Context context) {
    }

    private static final List<Codec> CODECS = new ArrayList<>();

    @BeforeAll
    static void openContexts() {
        List<ImageCodec> codecs = new ArrayList<>(List.of(ImageCodecs.imageIO()));
        ImageCodecs.nativeCodec().ifPresent(codecs::add);
        codecs.forEach(codec -> CODECS.add(new Codec(codec.name(), codec.newContext())));
    }

    @AfterAll
    static void closeContexts() {
        CODECS.forEach(codec -> codec.context().close());
        CODECS.clear();
    }

    @FuzzTest(maxDuration = "10m")
    void decodeJpeg(byte[] input) {
        check(input);
    }

    @FuzzTest(maxDuration = "10m")
    void decodePng(byte[] input) {
        check(input);
    }

    /** What one codec made of an image: its header (null if refused) and its whole pixels by colour space. */
    private record Decoded(String codec, ImageInfo info, Map<ColorSpace, byte[]> pixels) {
    }

    private static void check(byte[] input) {
        int length = Math.max(0, input.length - WINDOW_BYTES);
        byte[] place = Arrays.copyOfRange(input, length, length + WINDOW_BYTES);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment image = arena.allocateFrom(ValueLayout.JAVA_BYTE, Arrays.copyOf(input, length));
            Decoded first = null;
            for (int id = 0; id < CODECS.size(); id++) {
                Decoded decoded = decode(CODECS.get(id), id, image, place, arena);
                if (first != null) {
                    agree(first, decoded);
                }
                first = decoded;
            }
        }
    }

    private static Decoded decode(Codec codec, int id, MemorySegment image, byte[] place, Arena arena) {
        ImageCodec.Context context = codec.context();
        Map<ColorSpace, byte[]> pixels = new EnumMap<>(ColorSpace.class);
        ImageInfo info;
        try {
            info = context.header(image);
        } catch (ImageException e) {
            explore(e, id);
            return new Decoded(codec.name(), null, pixels);
        } catch (RuntimeException e) {
            throw new AssertionError(codec.name() + ": not an ImageException", e);
        }
        if (info.pixels() > MAX_PIXELS) {
            return new Decoded(codec.name(), info, pixels);
        }
        CropWindow whole = CropWindow.whole(info.width(), info.height());
        CropWindow window = window(info, place);
        for (ColorSpace colorSpace : ColorSpace.values()) {
            String what = codec.name() + " " + info + " " + colorSpace;
            byte[] all = decode(context, id, image, colorSpace, whole, arena, what);
            byte[] part = decode(context, id, image, colorSpace, window, arena, what + " " + window);
            if (all != null) {
                pixels.put(colorSpace, all);
                // Rows below a window need not be read, so only a whole image that decodes says
                // that its windows must.
                assertNotNull(part, what + ": the whole image decodes, the window " + window + " does not");
                assertArrayEquals(TestPixels.cut(all, info.width(), colorSpace.channels(), window), part,
                        what + ": the window " + window + " is not those pixels of the whole image");
            }
        }
        scaled(context, id, image, window, 1 << (place[3] & 3), arena, codec.name() + " " + info);
        assertTrue(pixels.isEmpty() || pixels.size() == ColorSpace.values().length,
                codec.name() + " " + info + ": decodes in " + pixels.keySet() + " only");
        if (!pixels.isEmpty()) {
            assertArrayEquals(TestPixels.swapRedAndBlue(pixels.get(ColorSpace.RGB)), pixels.get(ColorSpace.BGR),
                    codec.name() + " " + info + ": BGR is not RGB with red and blue swapped");
        }
        return new Decoded(codec.name(), info, pixels);
    }

    /** {@code window}'s pixels, or null if the image is refused; nothing past them may change. */
    private static byte[] decode(ImageCodec.Context context, int id, MemorySegment image, ColorSpace colorSpace,
            CropWindow window, Arena arena, String what) {
        long bytes = (long) window.width() * window.height() * colorSpace.channels();
        MemorySegment out = arena.allocate(bytes + GUARD).fill(POISON);
        try {
            context.decode(image, colorSpace, window, out);
        } catch (ImageException e) {
            explore(e, id);
            return null;
        } catch (RuntimeException e) {
            throw new AssertionError(what + ": not an ImageException", e);
        }
        MemorySegment guard = out.asSlice(bytes);
        for (long i = 0; i < GUARD; i++) {
            assertEquals(POISON, guard.get(ValueLayout.JAVA_BYTE, i), what + ": wrote byte " + (bytes + i) + " past the window");
        }
        return out.asSlice(0, bytes).toArray(ValueLayout.JAVA_BYTE);
    }

    /** A scaled decode of {@code window}: refused with an ImageException or written within its size, nothing past it. */
    private static void scaled(ImageCodec.Context context, int id, MemorySegment image, CropWindow window, int scale,
            Arena arena, String what) {
        long bytes = (long) window.width() * window.height() * 3;
        MemorySegment out = arena.allocate(bytes + GUARD).fill(POISON);
        ImageSize size;
        try {
            size = context.decode(image, ColorSpace.RGB, window, scale, out);
        } catch (ImageException e) {
            explore(e, id);
            return;
        } catch (RuntimeException e) {
            throw new AssertionError(what + " 1/" + scale + ": not an ImageException", e);
        }
        assertTrue(size.width() <= window.width() && size.height() <= window.height(),
                what + " 1/" + scale + ": " + size + " is larger than the window " + window);
        long written = (long) size.width() * size.height() * 3;
        for (long i = written; i < bytes + GUARD; i++) {
            assertEquals(POISON, out.get(ValueLayout.JAVA_BYTE, i), what + " 1/" + scale + ": wrote byte " + i + " past "
                    + size);
        }
    }

    /**
     * Both codecs' reading of one image, held up against each other: the same header and, for a
     * PNG, the same pixels. JPEG pixels are compared by the unit tests, on real files against
     * Pillow's, not here: libjpeg-turbo's SIMD inverse DCT (native) and libjpeg 6b's C one
     * (ImageIO) give the same pixels for the coefficients of real images, not for the ones out of
     * range that damaged tables or entropy data give, which the fuzzer makes at once.
     */
    private static void agree(Decoded a, Decoded b) {
        if (a.info() == null || b.info() == null) {
            return;
        }
        assertEquals(a.info(), b.info(), a.codec() + " and " + b.codec() + " read different headers");
        if (a.info().format() == ImageFormat.JPEG) {
            return;
        }
        for (ColorSpace colorSpace : ColorSpace.values()) {
            byte[] pa = a.pixels().get(colorSpace);
            byte[] pb = b.pixels().get(colorSpace);
            if (pa != null && pb != null) {
                assertArrayEquals(pa, pb, a.codec() + " and " + b.codec() + " decode " + a.info() + " as " + colorSpace
                        + " to different pixels");
            }
        }
    }

    /**
     * A window that fits the image, placed by the input's last bytes: its left and top at a
     * fraction of the width and height, its size at least one pixel and up to what is left.
     */
    static CropWindow window(ImageInfo info, byte[] place) {
        int x = (int) ((long) Byte.toUnsignedInt(place[0]) * info.width() >> 8);
        int y = (int) ((long) Byte.toUnsignedInt(place[1]) * info.height() >> 8);
        int width = 1 + (int) ((long) Byte.toUnsignedInt(place[2]) * (info.width() - x) >> 8);
        int height = 1 + (int) ((long) Byte.toUnsignedInt(place[3]) * (info.height() - y) >> 8);
        return new CropWindow(x, y, width, height);
    }

    /**
     * Lets the kind of error a codec reports count as coverage: libjpeg, libpng and the JDK's
     * readers are not instrumented, and their messages are what the fuzzer can see of the paths
     * taken in them. Numbers are left out, so that one kind of error is one state.
     */
    private static void explore(ImageException e, int id) {
        String kind = String.valueOf(e.getMessage()).replaceAll("0x\\p{XDigit}+|\\d+", "");
        Jazzer.exploreState((byte) kind.hashCode(), id);
    }
}
