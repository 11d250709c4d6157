package org.dataloader4j.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.awt.color.ICC_Profile;
import java.awt.image.BufferedImage;
import java.awt.image.WritableRaster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.imageio.ImageIO;
import javax.imageio.ImageTypeSpecifier;
import org.dataloader4j.testkit.ExpectedBytes;
import org.dataloader4j.testkit.SharedTestData;
import org.dataloader4j.testkit.StrictJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The ImageIO codec against the decoder edge cases kept in
 * {@code ../shared/testdata/real/images/derived} (skipped where absent), whose expected JSON gives
 * the header fields and Pillow's pixels (libjpeg-turbo, ISLOW, fancy upsampling): every decodable
 * file, baseline, progressive, restart-interval, gray and CMYK JPEGs and every PNG, gives
 * Pillow's RGB and L bytes exactly; windows are the same window of the whole image; the error
 * files, truncated and damaged bytes throw {@link ImageException} and nothing else. Synthetic
 * PNGs and an embedded colour profile cover what the files do not.
 */
class ImageIoCodecTest {
    private static final String DERIVED = "images/derived/";
    /** The expected values of {@code images/derived/NAME} are in {@code images/expected/derived/NAME.json}. */
    private static final String EXPECTED = "images/expected/derived/";

    private final Arena arena = Arena.ofConfined();
    private ImageCodec.Context context;

    @BeforeEach
    void open() {
        context = ImageCodecs.imageIO().newContext();
    }

    @AfterEach
    void close() {
        context.close();
        arena.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"baseline_420.jpg", "baseline_422.jpg", "baseline_444.jpg", "progressive_420.jpg",
        "restart_420.jpg", "gray.jpg", "cmyk.jpg", "alpha.png", "interlaced.png", "palette.png", "rgb16.png",
        "truncated_420.jpg", "huge_sof.jpg"})
    void headerGivesTheSizeAndComponentsOfTheFile(String name) throws IOException {
        Map<String, Object> image = image(name);
        ImageInfo info = context.header(bytes(name));
        assertEquals(image.get("format"), info.format().id(), name);
        assertEquals(image.get("width"), (long) info.width(), name + ": width");
        assertEquals(image.get("height"), (long) info.height(), name + ": height");
        assertEquals(image.get("components"), (long) info.components(), name + ": components");
    }

    @Test
    void headerOfAHugeFrameIsReadWithoutDecoding() throws IOException {
        // 60000 x 60000 declared in 397 bytes: known from the header before anything is allocated.
        ImageInfo info = context.header(bytes("huge_sof.jpg"));
        assertEquals(3_600_000_000L, info.pixels());
    }

    /** Every decodable file, JPEG as well as PNG, gives Pillow's RGB bytes exactly. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"baseline_420.jpg", "baseline_422.jpg", "baseline_444.jpg", "progressive_420.jpg",
        "restart_420.jpg", "gray.jpg", "cmyk.jpg", "alpha.png", "interlaced.png", "palette.png"})
    void rgbIsPillowsExactly(String name) throws IOException {
        assertEquals(sha256(name, "rgb"), ExpectedBytes.sha256Hex(decodeWhole(name, ColorSpace.RGB)), name);
    }

    /** 16-bit samples are rounded as libpng rounds them, so both codecs agree: {@code rgb_round}, not Pillow's high byte. */
    @Test
    @SuppressWarnings("unchecked")
    void sixteenBitSamplesAreRoundedAsLibpngRoundsThem() throws IOException {
        Map<String, Object> json = json("rgb16.png");
        String rgb = ExpectedBytes.sha256Hex(decodeWhole("rgb16.png", ColorSpace.RGB));
        assertEquals(((Map<String, Object>) json.get("rgb_round")).get("sha256"), rgb);
    }

    /** GRAY is Pillow's {@code convert("L")}: BT.601 luma of the RGB pixels, or the gray samples as they are. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"baseline_420.jpg", "baseline_422.jpg", "baseline_444.jpg", "progressive_420.jpg",
        "restart_420.jpg", "gray.jpg", "cmyk.jpg", "alpha.png", "interlaced.png", "palette.png"})
    void grayIsPillowsL(String name) throws IOException {
        assertEquals(sha256(name, "l"), ExpectedBytes.sha256Hex(decodeWhole(name, ColorSpace.GRAY)), name);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"baseline_420.jpg", "gray.jpg", "cmyk.jpg", "alpha.png", "palette.png", "rgb16.png"})
    void bgrIsRgbWithRedAndBlueSwapped(String name) throws IOException {
        byte[] rgb = decodeWhole(name, ColorSpace.RGB);
        byte[] bgr = decodeWhole(name, ColorSpace.BGR);
        assertArrayEquals(TestPixels.swapRedAndBlue(rgb), bgr, name);
    }

    @Test
    void grayJpegAsRgbHasThreeEqualChannels() throws IOException {
        byte[] gray = decodeWhole("gray.jpg", ColorSpace.GRAY);
        byte[] rgb = decodeWhole("gray.jpg", ColorSpace.RGB);
        for (int i = 0; i < gray.length; i++) {
            assertEquals(gray[i], rgb[3 * i]);
            assertEquals(gray[i], rgb[3 * i + 1]);
            assertEquals(gray[i], rgb[3 * i + 2]);
        }
    }

    /** Windows at the corners, across block and MCU edges, and at random, are cut from the whole image. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"baseline_420.jpg", "baseline_422.jpg", "progressive_420.jpg", "restart_420.jpg",
        "gray.jpg", "cmyk.jpg", "alpha.png", "interlaced.png", "palette.png", "rgb16.png"})
    void aWindowIsTheSameWindowOfTheWholeImage(String name) throws IOException {
        MemorySegment bytes = bytes(name);
        ImageInfo info = context.header(bytes);
        int w = info.width();
        int h = info.height();
        for (ColorSpace cs : List.of(ColorSpace.BGR, ColorSpace.GRAY)) {
            byte[] whole = decode(bytes, cs, CropWindow.whole(w, h));
            List<CropWindow> windows = new java.util.ArrayList<>(List.of(
                    new CropWindow(0, 0, 1, 1), new CropWindow(w - 1, h - 1, 1, 1), new CropWindow(0, h - 1, w, 1),
                    new CropWindow(w - 1, 0, 1, h), new CropWindow(15, 7, 17, 9), new CropWindow(16, 16, 16, 16),
                    new CropWindow(1, 1, w - 2, h - 2)));
            long seed = 20240611L + name.hashCode();
            Random random = new Random(seed);
            for (int i = 0; i < 12; i++) {
                int x = random.nextInt(w);
                int y = random.nextInt(h);
                windows.add(new CropWindow(x, y, 1 + random.nextInt(w - x), 1 + random.nextInt(h - y)));
            }
            for (CropWindow window : windows) {
                assertArrayEquals(TestPixels.cut(whole, w, cs.channels(), window), decode(bytes, cs, window),
                        name + " " + cs + " " + window + " (seed " + seed + ")");
            }
        }
    }

    @Test
    void theErrorFilesThrowImageException() throws IOException {
        for (String name : List.of("truncated_420.jpg", "random.jpg", "huge_sof.jpg")) {
            assertEquals("error", json(name).get("expected"), name);
        }
        ImageException truncated = assertThrows(ImageException.class,
                () -> decode(bytes("truncated_420.jpg"), ColorSpace.RGB, CropWindow.whole(299, 150)));
        assertTrue(truncated.getMessage().contains("truncated"), truncated.getMessage());
        ImageException random = assertThrows(ImageException.class, () -> context.header(bytes("random.jpg")));
        assertTrue(random.getMessage().startsWith("not a JPEG or PNG"), random.getMessage());
        assertThrows(ImageException.class, () -> decode(bytes("random.jpg"), ColorSpace.RGB, new CropWindow(0, 0, 1, 1)));
        // Even a 16 x 16 window of the 60000 x 60000 frame fails, and as ImageException.
        assertThrows(ImageException.class, () -> decode(bytes("huge_sof.jpg"), ColorSpace.GRAY, new CropWindow(0, 0, 16, 16)));
    }

    /** A JPEG cut anywhere is refused; a PNG cut anywhere is refused unless all its pixel data is there. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"baseline_420.jpg", "progressive_420.jpg", "gray.jpg", "palette.png", "alpha.png"})
    void truncatedBytesThrowImageException(String name) throws IOException {
        byte[] full = Files.readAllBytes(SharedTestData.file(DERIVED + name));
        MemorySegment whole = arena.allocateFrom(ValueLayout.JAVA_BYTE, full);
        ImageInfo info = context.header(whole);
        byte[] pixels = decode(whole, ColorSpace.RGB, CropWindow.whole(info.width(), info.height()));
        for (int length = 0; length < full.length; length += length < 64 ? 1 : 331) {
            MemorySegment cut = whole.asSlice(0, length);
            try {
                byte[] decoded = decode(cut, ColorSpace.RGB, CropWindow.whole(info.width(), info.height()));
                if (name.endsWith(".jpg")) {
                    fail(name + " cut to " + length + " bytes decoded");
                }
                assertArrayEquals(pixels, decoded, name + " cut to " + length + " bytes decoded to other pixels");
            } catch (ImageException expected) {
                // refused, as it should be
            }
        }
        if (name.endsWith(".jpg")) {
            // All the scan data is there, only the EOI marker is not: still a truncated file.
            assertThrows(ImageException.class, () -> decode(whole.asSlice(0, full.length - 2), ColorSpace.RGB,
                    CropWindow.whole(info.width(), info.height())));
        }
    }

    /** Random damage either decodes to some pixels or throws ImageException; no other exception gets out. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"baseline_420.jpg", "progressive_420.jpg", "palette.png", "interlaced.png"})
    void damagedBytesThrowOnlyImageException(String name) throws IOException {
        byte[] full = Files.readAllBytes(SharedTestData.file(DERIVED + name));
        long seed = 7_000_003L + name.hashCode();
        Random random = new Random(seed);
        for (int trial = 0; trial < 60; trial++) {
            byte[] damaged = full.clone();
            int flips = 1 + random.nextInt(8);
            for (int i = 0; i < flips; i++) {
                damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
            }
            MemorySegment bytes = arena.allocateFrom(ValueLayout.JAVA_BYTE, damaged);
            try {
                ImageInfo info = context.header(bytes);
                if (info.pixels() <= 1 << 22) {
                    decode(bytes, ColorSpace.BGR, CropWindow.whole(info.width(), info.height()));
                }
            } catch (ImageException expected) {
                // refused, as it may be
            } catch (RuntimeException e) {
                throw new AssertionError(name + " trial " + trial + " (seed " + seed + ") threw " + e, e);
            }
        }
    }

    @Test
    void damagedHeadersThrowImageExceptionSayingWhat() throws IOException {
        byte[] jpeg = Files.readAllBytes(SharedTestData.file(DERIVED + "baseline_420.jpg"));
        byte[] png = Files.readAllBytes(SharedTestData.file(DERIVED + "alpha.png"));
        assertHeaderError(new byte[0], "no bytes");
        assertHeaderError(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF}, "truncated JPEG");
        assertHeaderError(Arrays.copyOf(png, 20), "truncated PNG");
        int sof = indexOf(jpeg, (byte) 0xFF, (byte) 0xC0);
        assertHeaderError(Arrays.copyOf(jpeg, sof + 6), "truncated JPEG");
        byte[] badLength = jpeg.clone();
        badLength[sof + 3]++;
        assertHeaderError(badLength, "damaged JPEG");
        byte[] noMarker = jpeg.clone();
        noMarker[2] = 0x12;
        assertHeaderError(noMarker, "not a JPEG or PNG");
        byte[] badSegment = jpeg.clone();
        badSegment[4 + ((jpeg[4] & 0xFF) << 8 | (jpeg[5] & 0xFF))] = 0x00;
        assertHeaderError(badSegment, "damaged JPEG");
        byte[] scanFirst = jpeg.clone();
        scanFirst[3] = (byte) 0xDA;
        assertHeaderError(scanFirst, "before any frame header");
        byte[] badCrc = png.clone();
        badCrc[19]++;
        assertHeaderError(badCrc, "IHDR CRC");
        byte[] notIhdr = png.clone();
        notIhdr[12] = 'X';
        assertHeaderError(notIhdr, "not IHDR");
    }

    @Test
    void anEmbeddedColourProfileLeavesThePixelsAsLibjpegDecodesThem() throws IOException {
        // Pillow and OpenCV ignore the profile; without care the JDK would convert to sRGB.
        byte[] jpeg = Files.readAllBytes(SharedTestData.file(DERIVED + "baseline_420.jpg"));
        byte[] profile = ICC_Profile.getInstance(java.awt.color.ColorSpace.CS_LINEAR_RGB).getData();
        byte[] tag = "ICC_PROFILE\0".getBytes(StandardCharsets.US_ASCII);
        int length = 2 + tag.length + 2 + profile.length;
        ByteArrayOutputStream spliced = new ByteArrayOutputStream();
        spliced.write(jpeg, 0, 2);
        spliced.write(new byte[] {(byte) 0xFF, (byte) 0xE2, (byte) (length >> 8), (byte) length});
        spliced.write(tag);
        spliced.write(new byte[] {1, 1});
        spliced.write(profile);
        spliced.write(jpeg, 2, jpeg.length - 2);
        MemorySegment bytes = arena.allocateFrom(ValueLayout.JAVA_BYTE, spliced.toByteArray());
        byte[] rgb = decode(bytes, ColorSpace.RGB, CropWindow.whole(299, 150));
        assertEquals(sha256("baseline_420.jpg", "rgb"), ExpectedBytes.sha256Hex(rgb));
        byte[] window = decode(bytes, ColorSpace.RGB, new CropWindow(40, 30, 50, 20));
        assertArrayEquals(TestPixels.cut(rgb, 299, 3, new CropWindow(40, 30, 50, 20)), window);
    }

    @Test
    void sixteenBitGrayPngIsRounded() throws IOException {
        BufferedImage image = new BufferedImage(7, 3, BufferedImage.TYPE_USHORT_GRAY);
        WritableRaster raster = image.getRaster();
        byte[] expected = new byte[7 * 3];
        for (int i = 0; i < expected.length; i++) {
            int v = (i * 9973 + 255) & 0xFFFF;
            raster.setSample(i % 7, i / 7, 0, v);
            expected[i] = (byte) ((v * 255 + 32767) / 65535);
        }
        MemorySegment bytes = png(image);
        assertEquals(new ImageInfo(ImageFormat.PNG, 7, 3, 1), context.header(bytes));
        assertArrayEquals(expected, decode(bytes, ColorSpace.GRAY, CropWindow.whole(7, 3)));
    }

    @Test
    void grayAndAlphaPngDropsTheAlpha() throws IOException {
        BufferedImage image = ImageTypeSpecifier.createGrayscale(8, java.awt.image.DataBuffer.TYPE_BYTE, false, false)
                .createBufferedImage(5, 4);
        WritableRaster raster = image.getRaster();
        byte[] expected = new byte[5 * 4 * 3];
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 5; x++) {
                int v = 13 * x + 50 * y;
                raster.setSample(x, y, 0, v);
                raster.setSample(x, y, 1, 255 - 40 * y);
                Arrays.fill(expected, (y * 5 + x) * 3, (y * 5 + x) * 3 + 3, (byte) v);
            }
        }
        MemorySegment bytes = png(image);
        assertEquals(2, context.header(bytes).components());
        assertArrayEquals(expected, decode(bytes, ColorSpace.RGB, CropWindow.whole(5, 4)));
    }

    @Test
    void oneBitPngIsBlackAndWhite() throws IOException {
        BufferedImage image = new BufferedImage(9, 2, BufferedImage.TYPE_BYTE_BINARY);
        byte[] expected = new byte[9 * 2];
        for (int i = 0; i < expected.length; i++) {
            int bit = (i * 5 / 3) & 1;
            image.getRaster().setSample(i % 9, i / 9, 0, bit);
            expected[i] = (byte) (bit * 255);
        }
        assertArrayEquals(expected, decode(png(image), ColorSpace.GRAY, CropWindow.whole(9, 2)));
    }

    @Test
    void windowsThatDoNotFitAndSmallOutputsAreIllegalArguments() throws IOException {
        MemorySegment bytes = bytes("baseline_420.jpg");
        MemorySegment out = arena.allocate(299 * 150 * 3);
        IllegalArgumentException wide = assertThrows(IllegalArgumentException.class,
                () -> context.decode(bytes, ColorSpace.RGB, new CropWindow(1, 0, 299, 150), out));
        assertTrue(wide.getMessage().contains("width=299"), wide.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> context.decode(bytes, ColorSpace.RGB, new CropWindow(0, 150, 1, 1), out));
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                () -> context.decode(bytes, ColorSpace.RGB, CropWindow.whole(299, 150), out.asSlice(1)));
        assertTrue(small.getMessage().contains("needed=134550"), small.getMessage());
        context.decode(bytes, ColorSpace.GRAY, CropWindow.whole(299, 150), out.asSlice(0, 299 * 150));
    }

    @Test
    void aClosedContextFailsFastAndClosesOnce() throws IOException {
        MemorySegment bytes = bytes("palette.png");
        context.decode(bytes, ColorSpace.RGB, new CropWindow(0, 0, 2, 2), arena.allocate(12));
        context.close();
        context.close();
        assertThrows(IllegalStateException.class, () -> context.header(bytes));
        assertThrows(IllegalStateException.class,
                () -> context.decode(bytes, ColorSpace.RGB, new CropWindow(0, 0, 2, 2), arena.allocate(12)));
    }

    @Test
    void oneContextDecodesImageAfterImageOfEitherFormat() throws IOException {
        byte[] jpeg = decodeWhole("baseline_420.jpg", ColorSpace.RGB);
        byte[] png = decodeWhole("palette.png", ColorSpace.RGB);
        assertThrows(ImageException.class,
                () -> decode(bytes("truncated_420.jpg"), ColorSpace.RGB, CropWindow.whole(299, 150)));
        assertArrayEquals(png, decodeWhole("palette.png", ColorSpace.RGB));
        assertArrayEquals(jpeg, decodeWhole("baseline_420.jpg", ColorSpace.RGB));
    }

    private void assertHeaderError(byte[] bytes, String says) {
        MemorySegment segment = arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes);
        ImageException header = assertThrows(ImageException.class, () -> context.header(segment));
        assertTrue(header.getMessage().contains(says), header.getMessage());
        ImageException decode = assertThrows(ImageException.class,
                () -> context.decode(segment, ColorSpace.RGB, new CropWindow(0, 0, 1, 1), arena.allocate(3)));
        assertEquals(header.getMessage(), decode.getMessage());
    }

    private static int indexOf(byte[] bytes, byte a, byte b) {
        for (int i = 0; i + 1 < bytes.length; i++) {
            if (bytes[i] == a && bytes[i + 1] == b) {
                return i;
            }
        }
        throw new AssertionError("marker not found");
    }

    private MemorySegment png(BufferedImage image) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertTrue(ImageIO.write(image, "png", out));
        return arena.allocateFrom(ValueLayout.JAVA_BYTE, out.toByteArray());
    }

    private byte[] decodeWhole(String name, ColorSpace colorSpace) throws IOException {
        MemorySegment bytes = bytes(name);
        ImageInfo info = context.header(bytes);
        return decode(bytes, colorSpace, CropWindow.whole(info.width(), info.height()));
    }

    private byte[] decode(MemorySegment bytes, ColorSpace colorSpace, CropWindow window) {
        MemorySegment out = arena.allocate((long) window.width() * window.height() * colorSpace.channels());
        context.decode(bytes, colorSpace, window, out);
        return out.toArray(ValueLayout.JAVA_BYTE);
    }

    private MemorySegment bytes(String name) throws IOException {
        return arena.allocateFrom(ValueLayout.JAVA_BYTE, Files.readAllBytes(SharedTestData.file(DERIVED + name)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String name) throws IOException {
        return (Map<String, Object>) StrictJson.parse(SharedTestData.file(EXPECTED + name + ".json"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> image(String name) throws IOException {
        return (Map<String, Object>) json(name).get("image");
    }

    @SuppressWarnings("unchecked")
    private static String sha256(String name, String field) throws IOException {
        Map<String, Object> image = image(name);
        assertEquals("decode", json(name).get("expected"), name);
        return (String) ((Map<String, Object>) image.get(field)).get("sha256");
    }
}
