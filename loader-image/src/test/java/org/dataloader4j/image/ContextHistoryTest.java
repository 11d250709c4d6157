package org.dataloader4j.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A context decodes each image as a new context would: nothing of the images it decoded before
 * changes the pixels or the verdict of the next. libjpeg keeps the quantization and Huffman
 * tables of one stream in its decompressor for the next (abbreviated streams, which records never
 * hold), so a JPEG that lacks a table would otherwise decode with another image's.
 */
class ContextHistoryTest {

    static Stream<ImageCodec> codecs() {
        return Stream.concat(Stream.of(ImageCodecs.imageIO()), ImageCodecs.nativeCodec().stream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    void aJpegWithoutQuantizationTablesIsReadAsInANewContext(ImageCodec codec) throws IOException {
        BufferedImage picture = new BufferedImage(37, 21, BufferedImage.TYPE_3BYTE_BGR);
        for (int y = 0; y < 21; y++) {
            for (int x = 0; x < 37; x++) {
                picture.setRGB(x, y, (x * 6) << 16 | (y * 12) << 8 | (x + y) * 4);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertTrue(ImageIO.write(picture, "jpeg", out));
        byte[] jpeg = out.toByteArray();
        byte[] withoutTables = withoutSegments(jpeg, 0xDB);
        assertTrue(withoutTables.length < jpeg.length, "the JPEG has DQT segments");

        String alone;
        try (ImageCodec.Context context = codec.newContext()) {
            alone = outcome(context, withoutTables);
        }
        try (ImageCodec.Context context = codec.newContext()) {
            outcome(context, jpeg);
            assertEquals(alone, outcome(context, withoutTables), codec.name() + ": after another JPEG");
        }
        // Over many images, through the context's own renewals: the same outcome every time.
        String whole;
        try (ImageCodec.Context context = codec.newContext()) {
            whole = outcome(context, jpeg);
        }
        try (ImageCodec.Context context = codec.newContext()) {
            for (int i = 0; i < 300; i++) {
                assertEquals(whole, outcome(context, jpeg), codec.name() + ": image " + i);
                assertEquals(alone, outcome(context, withoutTables), codec.name() + ": table-less image " + i);
            }
        }
    }

    /** The image's RGB pixels in hex, or why it was refused. */
    private static String outcome(ImageCodec.Context context, byte[] image) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = arena.allocateFrom(ValueLayout.JAVA_BYTE, image);
            ImageInfo info = context.header(bytes);
            MemorySegment pixels = arena.allocate(info.pixels() * 3);
            context.decode(bytes, ColorSpace.RGB, CropWindow.whole(info.width(), info.height()), pixels);
            return HexFormat.of().formatHex(pixels.toArray(ValueLayout.JAVA_BYTE));
        } catch (ImageException e) {
            return "refused: " + e.getMessage();
        }
    }

    /** {@code jpeg} without its marker segments of code {@code marker} before the first scan. */
    private static byte[] withoutSegments(byte[] jpeg, int marker) {
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        kept.write(jpeg, 0, 2);
        int pos = 2;
        while (true) {
            int code = jpeg[pos + 1] & 0xFF;
            int length = ((jpeg[pos + 2] & 0xFF) << 8) | (jpeg[pos + 3] & 0xFF);
            if (code == 0xDA) {
                kept.write(jpeg, pos, jpeg.length - pos);
                return kept.toByteArray();
            }
            if (code != marker) {
                kept.write(jpeg, pos, 2 + length);
            }
            pos += 2 + length;
        }
    }
}
