package org.dataloader4j.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.dataloader4j.testkit.ExpectedBytes;
import org.dataloader4j.testkit.SharedTestData;
import org.dataloader4j.testkit.StrictJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native codec over the decoder edge cases of the shared test data
 * ({@code ../shared/testdata/real/images/derived}, with Pillow's pixels in {@code expected/}):
 * headers, whole images hashed exactly (libjpeg-turbo's ISLOW IDCT and fancy upsampling, as
 * Pillow used), BGR and gray beside RGB, windows equal to the same pixels of the whole image, and
 * damaged images refused with {@link ImageException}. Skipped where the native codec does not
 * load (the reason is the skip message) and, for the shared files, where they are not beside the
 * checkout.
 */
@Timeout(120)
class NativeCodecTest {
    private static final String DERIVED = "images/derived/";
    /** What the test is willing to decode whole; a header declaring more is decoded by its last row. */
    private static final long MAX_TEST_PIXELS = 1L << 24;
    private static final long SEED = 20_240_601L;

    /** How the gray decode of a file is checked. */
    private enum Gray {
        /** Equal to Pillow's {@code convert("L")} ({@code l.sha256}): gray sources, and luma of the same RGB. */
        PILLOW_L,
        /** The BT.601 luma of this codec's own RGB, exactly (where the RGB differs from Pillow's). */
        LUMA_OF_RGB,
        /** libjpeg's Y plane: the luma of the RGB within rounding (2), and Pillow's mean within 0.05. */
        Y_PLANE
    }

    /**
     * A decodable file: the member of its JSON whose {@code sha256} the RGB decode equals, and how
     * its gray decode is checked.
     */
    private record Decodable(String name, String rgb, Gray gray) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<Decodable> DECODABLE = List.of(
            new Decodable("baseline_420.jpg", "image.rgb", Gray.Y_PLANE),
            new Decodable("baseline_422.jpg", "image.rgb", Gray.Y_PLANE),
            new Decodable("baseline_444.jpg", "image.rgb", Gray.Y_PLANE),
            new Decodable("progressive_420.jpg", "image.rgb", Gray.Y_PLANE),
            new Decodable("restart_420.jpg", "image.rgb", Gray.Y_PLANE),
            new Decodable("gray.jpg", "image.rgb", Gray.PILLOW_L),
            // CMYK (Adobe YCCK) converted as Pillow converts it: see d4j_jpeg.c.
            new Decodable("cmyk.jpg", "image.rgb", Gray.PILLOW_L),
            // Alpha dropped, not composited.
            new Decodable("alpha.png", "image.rgb", Gray.PILLOW_L),
            new Decodable("palette.png", "image.rgb", Gray.PILLOW_L),
            new Decodable("interlaced.png", "image.rgb", Gray.PILLOW_L),
            // libpng reduces 16-bit samples by rounding: rgb_round, not Pillow's high byte.
            new Decodable("rgb16.png", "rgb_round", Gray.LUMA_OF_RGB));

    private static final List<String> REFUSED = List.of("truncated_420.jpg", "random.jpg", "huge_sof.jpg");

    /** Windows of the 299 × 150 pictures: block-aligned and not, odd and even, at every edge. */
    private static final List<CropWindow> WINDOWS = List.of(
            new CropWindow(0, 0, 1, 1),
            new CropWindow(0, 0, 2, 2),
            new CropWindow(1, 1, 1, 1),
            new CropWindow(1, 0, 298, 150),
            new CropWindow(8, 8, 8, 8),
            new CropWindow(8, 9, 31, 33),
            new CropWindow(13, 5, 7, 3),
            new CropWindow(13, 17, 100, 101),
            new CropWindow(16, 16, 16, 16),
            new CropWindow(15, 15, 2, 2),
            new CropWindow(17, 31, 64, 64),
            new CropWindow(150, 75, 149, 75),
            new CropWindow(281, 0, 18, 150),
            new CropWindow(0, 140, 299, 10),
            new CropWindow(297, 148, 2, 2),
            new CropWindow(298, 149, 1, 1),
            new CropWindow(7, 7, 2, 143));

    private static final ImageCodec CODEC = ImageCodecs.nativeCodec().orElse(null);

    private ImageCodec.Context context;
    private Arena arena;

    @BeforeEach
    void open() {
        assumeTrue(CODEC != null, () -> "the native codec is unavailable: " + ImageCodecs.nativeUnavailableReason());
        context = CODEC.newContext();
        // Shared: with @Timeout, a test runs on a thread of its own, not this one.
        arena = Arena.ofShared();
    }

    @AfterEach
    void close() {
        if (context != null) {
            context.close();
        }
        if (arena != null) {
            arena.close();
        }
    }

    static List<Decodable> decodable() {
        return DECODABLE;
    }

    static Stream<String> decodableNames() {
        return DECODABLE.stream().map(Decodable::name);
    }

    @Test
    void isTheNativeCodec() {
        assertEquals("native", CODEC.name());
        assertNull(ImageCodecs.nativeUnavailableReason());
    }

    @Test
    void everyDerivedFileIsInATable() throws IOException {
        Path folder = SharedTestData.file(DERIVED);
        TreeSet<String> files;
        try (Stream<Path> list = Files.list(folder)) {
            files = list.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
        TreeSet<String> tabled = Stream.concat(decodableNames(), REFUSED.stream())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(tabled, files, "a file added to " + folder + " should be added to DECODABLE or REFUSED");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decodableNames")
    void headersAreTheExpectedOnes(String name) throws IOException {
        MemorySegment bytes = map(name);
        Map<String, Object> image = object(expected(name), "image");
        ImageInfo info = context.header(bytes);
        assertEquals(string(image, "format"), info.format().id(), name);
        assertEquals(integer(image, "width"), info.width(), name + ": width");
        assertEquals(integer(image, "height"), info.height(), name + ": height");
        assertEquals(integer(image, "components"), info.components(), name + ": components");
        assertEquals("decode", string(expected(name), "expected"), name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decodable")
    void rgbIsTheExpectedPixels(Decodable file) throws IOException {
        byte[] rgb = whole(map(file.name()), ColorSpace.RGB);
        Map<String, Object> rgbExpected = member(expected(file.name()), file.rgb());
        assertEquals(string(rgbExpected, "sha256"), ExpectedBytes.sha256Hex(rgb), file.name() + ": sha256 of " + file.rgb());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decodableNames")
    void bgrIsRgbWithRedAndBlueSwapped(String name) throws IOException {
        MemorySegment bytes = map(name);
        byte[] rgb = whole(bytes, ColorSpace.RGB);
        byte[] bgr = whole(bytes, ColorSpace.BGR);
        assertArrayEquals(TestPixels.swapRedAndBlue(rgb), bgr, name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decodable")
    void grayIsTheLuma(Decodable file) throws IOException {
        MemorySegment bytes = map(file.name());
        byte[] gray = whole(bytes, ColorSpace.GRAY);
        Map<String, Object> l = object(object(expected(file.name()), "image"), "l");
        byte[] luma = luma(whole(bytes, ColorSpace.RGB));
        switch (file.gray()) {
            case PILLOW_L -> assertEquals(string(l, "sha256"), ExpectedBytes.sha256Hex(gray), file.name());
            case LUMA_OF_RGB -> assertArrayEquals(luma, gray, file.name());
            case Y_PLANE -> {
                for (int i = 0; i < gray.length; i++) {
                    int difference = Math.abs(Byte.toUnsignedInt(gray[i]) - Byte.toUnsignedInt(luma[i]));
                    assertTrue(difference <= 2, file.name() + ": pixel " + i + " is " + gray[i] + ", luma " + luma[i]);
                }
                double mean = Arrays.stream(toInts(gray)).average().orElseThrow();
                double expectedMean = ((BigDecimal) l.get("mean")).doubleValue();
                assertEquals(expectedMean, mean, 0.05, file.name() + ": mean");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"truncated_420.jpg", "random.jpg", "huge_sof.jpg"})
    void damagedFilesAreRefused(String name) throws IOException {
        MemorySegment bytes = map(name);
        assertEquals("error", string(expected(name), "expected"), name);
        ImageException e = assertThrows(ImageException.class, () -> {
            ImageInfo info = context.header(bytes);
            // huge_sof.jpg declares 60000 × 60000 pixels, which a caller would refuse; its last row
            // needs the scan data it lacks.
            CropWindow window = info.pixels() <= MAX_TEST_PIXELS ? CropWindow.whole(info.width(), info.height())
                    : new CropWindow(0, info.height() - 1, info.width(), 1);
            context.decode(bytes, ColorSpace.RGB, window, arena.allocate((long) window.width() * window.height() * 3));
        }, name);
        assertFalse(e.getMessage().isBlank(), name);
        // The context decodes on after the error.
        assertEquals(integer(object(expected("gray.jpg"), "image"), "width"), context.header(map("gray.jpg")).width());
        assertEquals(string(object(object(expected("gray.jpg"), "image"), "rgb"), "sha256"),
                ExpectedBytes.sha256Hex(whole(map("gray.jpg"), ColorSpace.RGB)));
    }

    static Stream<Object[]> filesAndColorSpaces() {
        return DECODABLE.stream().flatMap(f -> Arrays.stream(ColorSpace.values()).map(cs -> new Object[] {f.name(), cs}));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("filesAndColorSpaces")
    void windowsAreTheSamePixelsAsTheWholeImage(String name, ColorSpace colorSpace) throws IOException {
        MemorySegment bytes = map(name);
        ImageInfo info = context.header(bytes);
        byte[] whole = whole(bytes, colorSpace);
        List<CropWindow> windows = new ArrayList<>(WINDOWS);
        Random random = new Random(SEED);
        for (int i = 0; i < 100; i++) {
            int x = random.nextInt(info.width());
            int y = random.nextInt(info.height());
            windows.add(new CropWindow(x, y, 1 + random.nextInt(info.width() - x), 1 + random.nextInt(info.height() - y)));
        }
        for (CropWindow window : windows) {
            assertArrayEquals(TestPixels.cut(whole, info.width(), colorSpace.channels(), window), decode(bytes, colorSpace, window),
                    name + " " + colorSpace + " " + window + " (seed " + SEED + ")");
        }
    }

    static Stream<Object[]> filesAndScales() {
        return DECODABLE.stream().flatMap(f -> Stream.of(2, 4, 8).map(scale -> new Object[] {f.name(), scale}));
    }

    /**
     * Scaled down by libjpeg's IDCT, a JPEG is its sides divided by the scale and rounded up; each
     * window is the same pixels as that window of the whole scaled image; and the scaled image is
     * the full one shrunk (each pixel within a few levels, on average, of the mean of the block
     * of full-size pixels it stands for). A PNG decodes at full size.
     */
    @ParameterizedTest(name = "{0} 1/{1}")
    @MethodSource("filesAndScales")
    void scaledWindowsAreWindowsOfTheWholeScaledImage(String name, int scale) throws IOException {
        MemorySegment bytes = map(name);
        ImageInfo info = context.header(bytes);
        CropWindow all = CropWindow.whole(info.width(), info.height());
        MemorySegment out = arena.allocate((long) info.width() * info.height() * 3);
        ImageSize size = context.decode(bytes, ColorSpace.RGB, all, scale, out);
        if (info.format() == ImageFormat.PNG) {
            assertEquals(new ImageSize(info.width(), info.height()), size);
            assertArrayEquals(whole(bytes, ColorSpace.RGB), out.toArray(ValueLayout.JAVA_BYTE));
            return;
        }
        assertEquals(new ImageSize(Math.ceilDiv(info.width(), scale), Math.ceilDiv(info.height(), scale)), size);
        byte[] scaled = out.asSlice(0, (long) size.width() * size.height() * 3).toArray(ValueLayout.JAVA_BYTE);
        Random random = new Random(SEED);
        for (int i = 0; i < 60; i++) {
            int x = random.nextInt(info.width());
            int y = random.nextInt(info.height());
            CropWindow window = new CropWindow(x, y, 1 + random.nextInt(info.width() - x), 1 + random.nextInt(info.height() - y));
            MemorySegment part = arena.allocate((long) window.width() * window.height() * 3);
            ImageSize partSize = context.decode(bytes, ColorSpace.RGB, window, scale, part);
            CropWindow inScaled = new CropWindow(x / scale, y / scale, partSize.width(), partSize.height());
            assertEquals(Math.ceilDiv(x + window.width(), scale), inScaled.x() + inScaled.width(), window::toString);
            assertEquals(Math.ceilDiv(y + window.height(), scale), inScaled.y() + inScaled.height(), window::toString);
            assertArrayEquals(TestPixels.cut(scaled, size.width(), 3, inScaled),
                    part.asSlice(0, (long) partSize.width() * partSize.height() * 3).toArray(ValueLayout.JAVA_BYTE),
                    name + " 1/" + scale + " " + window + " (seed " + SEED + ")");
        }
        byte[] full = whole(bytes, ColorSpace.RGB);
        double difference = 0;
        int counted = 0;
        for (int sy = 0; sy < info.height() / scale; sy++) {
            for (int sx = 0; sx < info.width() / scale; sx++) {
                for (int c = 0; c < 3; c++) {
                    int sum = 0;
                    for (int dy = 0; dy < scale; dy++) {
                        for (int dx = 0; dx < scale; dx++) {
                            sum += full[((sy * scale + dy) * info.width() + sx * scale + dx) * 3 + c] & 0xFF;
                        }
                    }
                    difference += Math.abs((double) sum / (scale * scale) - (scaled[(sy * size.width() + sx) * 3 + c] & 0xFF));
                    counted++;
                }
            }
        }
        double mean = difference / counted;
        assertTrue(mean < 3, () -> name + " 1/" + scale + ": mean difference from the full image's block means " + mean);
    }

    /**
     * A progressive JPEG that ends after its first scans, as a cut-short download can: libjpeg
     * smooths the blocks whose coefficients are missing with the DC values of two blocks either
     * side, which a window must take from left of itself as the whole image does.
     */
    @ParameterizedTest(name = "{0} scans")
    @ValueSource(ints = {1, 2, 3})
    void windowsOfAProgressiveJpegOfItsFirstScansOnlyAreThoseOfTheWholeImage(int scans) throws IOException {
        MemorySegment bytes = arena.allocateFrom(ValueLayout.JAVA_BYTE,
                firstScans(map("progressive_420.jpg").toArray(ValueLayout.JAVA_BYTE), scans));
        ImageInfo info = context.header(bytes);
        byte[] whole = whole(bytes, ColorSpace.RGB);
        for (CropWindow window : WINDOWS) {
            assertArrayEquals(TestPixels.cut(whole, info.width(), 3, window), decode(bytes, ColorSpace.RGB, window),
                    scans + " scans, " + window);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"baseline_420.jpg", "palette.png"})
    void heapAndOffHeapMemoryGiveTheSamePixels(String name) throws IOException {
        MemorySegment mapped = map(name);
        MemorySegment heap = MemorySegment.ofArray(mapped.toArray(ValueLayout.JAVA_BYTE));
        CropWindow window = new CropWindow(13, 17, 100, 101);
        byte[] expected = decode(mapped, ColorSpace.BGR, window);
        byte[] fromHeapBytes = decode(heap, ColorSpace.BGR, window);
        byte[] toHeapOut = new byte[expected.length];
        context.decode(mapped, ColorSpace.BGR, window, MemorySegment.ofArray(toHeapOut));
        assertArrayEquals(expected, fromHeapBytes, name + ": bytes on the heap");
        assertArrayEquals(expected, toHeapOut, name + ": out on the heap");
    }

    @ParameterizedTest(name = "{0} cut to {1}%")
    @MethodSource("cuts")
    void truncatedImagesAreRefused(String name, int percent) throws IOException {
        MemorySegment bytes = map(name);
        MemorySegment cut = bytes.asSlice(0, bytes.byteSize() * percent / 100);
        ImageInfo info = context.header(bytes);
        MemorySegment out = arena.allocate(info.pixels() * 3);
        assertThrows(ImageException.class,
                () -> context.decode(cut, ColorSpace.RGB, CropWindow.whole(info.width(), info.height()), out),
                name + " cut to " + cut.byteSize() + " bytes");
    }

    static Stream<Object[]> cuts() {
        return Stream.of("baseline_420.jpg", "progressive_420.jpg", "palette.png", "interlaced.png")
                .flatMap(name -> Stream.of(10, 50, 90).map(percent -> new Object[] {name, percent}));
    }

    @Test
    void emptyAndRandomBytesAreRefused() {
        Random random = new Random(SEED);
        List<byte[]> inputs = new ArrayList<>();
        inputs.add(new byte[0]);
        inputs.add(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF});
        inputs.add(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'});
        for (int i = 0; i < 50; i++) {
            byte[] noise = new byte[1 + random.nextInt(4096)];
            random.nextBytes(noise);
            // Plain noise, and noise behind each format's signature.
            inputs.add(noise.clone());
            inputs.add(withPrefix(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF}, noise));
            inputs.add(withPrefix(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, noise));
        }
        for (byte[] input : inputs) {
            MemorySegment bytes = arena.allocate(Math.max(1, input.length)).asSlice(0, input.length);
            MemorySegment.copy(MemorySegment.ofArray(input), 0, bytes, 0, input.length);
            String what = input.length + " bytes (seed " + SEED + ")";
            assertThrows(ImageException.class, () -> context.header(bytes), what);
            assertThrows(ImageException.class,
                    () -> context.decode(bytes, ColorSpace.RGB, new CropWindow(0, 0, 1, 1), arena.allocate(3)), what);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"baseline_420.jpg", "palette.png"})
    void aWindowOutsideTheImageOrAShortOutIsAnArgumentError(String name) throws IOException {
        MemorySegment bytes = map(name);
        ImageInfo info = context.header(bytes);
        CropWindow tooWide = new CropWindow(1, 0, info.width(), 1);
        CropWindow tooHigh = new CropWindow(0, info.height(), 1, 1);
        MemorySegment out = arena.allocate(info.pixels() * 3);
        assertThrows(IllegalArgumentException.class, () -> context.decode(bytes, ColorSpace.RGB, tooWide, out), name);
        assertThrows(IllegalArgumentException.class, () -> context.decode(bytes, ColorSpace.RGB, tooHigh, out), name);
        CropWindow whole = CropWindow.whole(info.width(), info.height());
        assertThrows(IllegalArgumentException.class,
                () -> context.decode(bytes, ColorSpace.RGB, whole, out.asSlice(0, out.byteSize() - 1)), name);
        assertDoesNotThrow(() -> context.decode(bytes, ColorSpace.RGB, whole, out), name);
    }

    @ParameterizedTest
    @EnumSource(ColorSpace.class)
    void aClosedContextRefusesWork(ColorSpace colorSpace) throws IOException {
        MemorySegment bytes = map("gray.jpg");
        context.close();
        context.close();
        assertThrows(IllegalStateException.class, () -> context.header(bytes));
        assertThrows(IllegalStateException.class,
                () -> context.decode(bytes, colorSpace, new CropWindow(0, 0, 1, 1), arena.allocate(3)));
    }

    // ---- helpers

    /** The derived file {@code name}, mapped read-only into this test's arena, as a reader maps records. */
    private MemorySegment map(String name) throws IOException {
        try (FileChannel channel = FileChannel.open(SharedTestData.file(DERIVED + name), StandardOpenOption.READ)) {
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
        }
    }

    private byte[] whole(MemorySegment bytes, ColorSpace colorSpace) {
        ImageInfo info = context.header(bytes);
        return decode(bytes, colorSpace, CropWindow.whole(info.width(), info.height()));
    }

    private byte[] decode(MemorySegment bytes, ColorSpace colorSpace, CropWindow window) {
        MemorySegment out = arena.allocate((long) window.width() * window.height() * colorSpace.channels());
        context.decode(bytes, colorSpace, window, out);
        return out.toArray(ValueLayout.JAVA_BYTE);
    }

    /** ITU-R BT.601 luma, as Pillow's RGB to L: {@code (19595 R + 38470 G + 7471 B + 32768) >> 16}. */
    private static byte[] luma(byte[] rgb) {
        byte[] l = new byte[rgb.length / 3];
        for (int i = 0; i < l.length; i++) {
            int r = Byte.toUnsignedInt(rgb[3 * i]);
            int g = Byte.toUnsignedInt(rgb[3 * i + 1]);
            int b = Byte.toUnsignedInt(rgb[3 * i + 2]);
            l[i] = (byte) ((19595 * r + 38470 * g + 7471 * b + 32768) >> 16);
        }
        return l;
    }

    private static int[] toInts(byte[] bytes) {
        int[] ints = new int[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            ints[i] = Byte.toUnsignedInt(bytes[i]);
        }
        return ints;
    }

    /** The JPEG {@code jpeg} up to its scan number {@code scans + 1}, then its end (EOI). */
    private static byte[] firstScans(byte[] jpeg, int scans) {
        int seen = 0;
        for (int i = 0; i + 1 < jpeg.length; i++) {
            // Entropy-coded data holds no FF DA: a coded FF is followed by 00.
            if (jpeg[i] == (byte) 0xFF && jpeg[i + 1] == (byte) 0xDA && ++seen == scans + 1) {
                byte[] cut = Arrays.copyOf(jpeg, i + 2);
                cut[i + 1] = (byte) 0xD9;
                return cut;
            }
        }
        throw new AssertionError("the JPEG has " + seen + " scans, not more than " + scans);
    }

    private static byte[] withPrefix(byte[] prefix, byte[] rest) {
        byte[] out = Arrays.copyOf(prefix, prefix.length + rest.length);
        System.arraycopy(rest, 0, out, prefix.length, rest.length);
        return out;
    }

    private static Map<String, Object> expected(String name) throws IOException {
        return object(StrictJson.parse(SharedTestData.file("images/expected/derived/" + name + ".json")), name);
    }

    /** The object at the dotted {@code path} below {@code root}. */
    private static Map<String, Object> member(Map<String, Object> root, String path) {
        Map<String, Object> at = root;
        for (String key : path.split("\\.")) {
            at = object(at, key);
        }
        return at;
    }

    private static Map<String, Object> object(Map<String, Object> parent, String key) {
        return object(parent.get(key), key);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value, String what) {
        assertTrue(value instanceof Map, what + " is not a JSON object: " + value);
        return (Map<String, Object>) value;
    }

    private static String string(Map<String, Object> object, String key) {
        Object value = object.get(key);
        assertTrue(value instanceof String, key + " is not a JSON string: " + value);
        return (String) value;
    }

    private static long integer(Map<String, Object> object, String key) {
        Object value = object.get(key);
        assertTrue(value instanceof Long, key + " is not a JSON integer: " + value);
        return (Long) value;
    }
}
