package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.testing.CorruptFiles;
import org.dataloader4j.image.ColorSpace;
import org.dataloader4j.image.CropWindow;
import org.dataloader4j.image.ImageCodec;
import org.dataloader4j.image.ImageCodecs;
import org.dataloader4j.image.ImageDecoder;
import org.dataloader4j.image.ImageResize;
import org.dataloader4j.image.ImageSize;
import org.dataloader4j.image.ImageTransform;
import org.dataloader4j.image.RandomCrop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * OFRecord readers of image records, over PNGs made here (lossless, so every pixel is known):
 * whole images in each colour space, random windows that are OneFlow's, the fused path against
 * the ops it fuses, the same rows for any parse threads and ring, and corrupt images failing or
 * skipped like any corrupt record.
 */
@Timeout(120)
class OFRecordImageReaderTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final int RECORDS = 40;

    @TempDir
    Path dir;

    /** A picture of {@code width × height} with every pixel's RGB drawn from {@code random}. */
    private static BufferedImage picture(int width, int height, Random random) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                image.setRGB(x, y, random.nextInt(1 << 24));
            }
        }
        return image;
    }

    private static byte[] png(BufferedImage image) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(image, "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The RGB bytes of {@code image}'s window, row-major HWC. */
    private static byte[] rgb(BufferedImage image, CropWindow w) {
        byte[] out = new byte[w.width() * w.height() * 3];
        int i = 0;
        for (int y = w.y(); y < w.y() + w.height(); y++) {
            for (int x = w.x(); x < w.x() + w.width(); x++) {
                int p = image.getRGB(x, y);
                out[i++] = (byte) (p >> 16);
                out[i++] = (byte) (p >> 8);
                out[i++] = (byte) p;
            }
        }
        return out;
    }

    private List<BufferedImage> pictures = new ArrayList<>();

    /** One OFRecord file of {@link #RECORDS} records: "image" a PNG of 20–79 × 20–79 pixels, "label" its index. */
    private Path file() throws IOException {
        Random random = new Random(3);
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            BufferedImage picture = picture(20 + random.nextInt(60), 20 + random.nextInt(60), random);
            pictures.add(picture);
            payloads.add(Features.record(Map.of("image", Features.bytesFeature(png(picture)),
                    "label", Features.int64Feature(i))).toByteArray());
        }
        Path file = dir.resolve("images");
        Files.write(file, CorruptFiles.frame(payloads, Framing.OFRECORD));
        return file;
    }

    private static OFRecordReader.Builder reader(Path file, ImageCodec codec) {
        return OFRecordReader.builder().files(List.of(file)).batchSize(8).imageCodec(codec)
                .reader(o -> o.name("images-" + NAMES.incrementAndGet()).parseThreads(2))
                .decoder(OFRecordRawDecoder.of("label", Shape.of(1), DataType.INT64));
    }

    private static List<ImageCodec> codecs() {
        List<ImageCodec> codecs = new ArrayList<>(List.of(ImageCodecs.imageIO()));
        ImageCodecs.nativeCodec().ifPresent(codecs::add);
        return codecs;
    }

    @Test
    void wholeImagesDecodeToTheirPixelsInEachColourSpace() throws IOException {
        Path file = file();
        for (ImageCodec codec : codecs()) {
            for (ColorSpace cs : List.of(ColorSpace.RGB, ColorSpace.BGR)) {
                try (DataReader reader = reader(file, codec).imageDecoder(ImageDecoder.of("image").colorSpace(cs)).build()) {
                    assertTrue(reader.metrics().parser().contains("codec=" + codec.name()), reader.metrics().parser());
                    for (Batch b : reader) {
                        RaggedTensor pixels = b.ragged("image");
                        Tensor shape = b.tensor("image.shape");
                        for (int row = 0; row < b.size(); row++) {
                            int id = (int) b.tensor("label").getLong(row);
                            BufferedImage picture = pictures.get(id);
                            assertEquals(picture.getHeight(), shape.getInt(3L * row));
                            assertEquals(picture.getWidth(), shape.getInt(3L * row + 1));
                            assertEquals(3, shape.getInt(3L * row + 2));
                            byte[] want = rgb(picture, CropWindow.whole(picture.getWidth(), picture.getHeight()));
                            if (cs == ColorSpace.BGR) {
                                swap(want);
                            }
                            assertArrayEquals(want, bytes(pixels, row), codec.name() + " " + cs + " record " + id);
                        }
                    }
                }
            }
        }
    }

    private static void swap(byte[] rgb) {
        for (int i = 0; i < rgb.length; i += 3) {
            byte r = rgb[i];
            rgb[i] = rgb[i + 2];
            rgb[i + 2] = r;
        }
    }

    private static byte[] bytes(RaggedTensor t, int row) {
        return t.values().segment().asSlice(t.offset(row), t.rowLength(row)).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void randomWindowsAreOneFlowsAndHoldTheirPixels() throws IOException {
        Path file = file();
        RandomCrop crop = RandomCrop.builder().seed(77).build();
        // The windows OneFlow draws: one generator a batch slot, calls in batch order.
        List<RandomCrop.Slot> slots = crop.slots(8);
        List<CropWindow> want = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            BufferedImage p = pictures.get(i);
            want.add(slots.get(i % 8).next(p.getWidth(), p.getHeight()));
        }
        for (ImageCodec codec : codecs()) {
            try (DataReader reader = reader(file, codec).imageDecoder(ImageDecoder.of("image").colorSpace(ColorSpace.RGB)
                    .randomCrop(crop)).reader(o -> o.parseThreads(3).ringSize(8)).build()) {
                for (Batch b : reader) {
                    for (int row = 0; row < b.size(); row++) {
                        int id = (int) b.tensor("label").getLong(row);
                        CropWindow w = want.get(id);
                        Tensor shape = b.tensor("image.shape");
                        assertEquals(w.height(), shape.getInt(3L * row), "record " + id);
                        assertEquals(w.width(), shape.getInt(3L * row + 1), "record " + id);
                        assertArrayEquals(rgb(pictures.get(id), w), bytes(b.ragged("image"), row), codec.name() + " record " + id);
                    }
                }
            }
        }
    }

    /** Every float of every batch of the fused training path. */
    private List<float[]> fused(Path file, int threads, int ring) {
        List<float[]> rows = new ArrayList<>();
        try (DataReader reader = reader(file, ImageCodecs.imageIO())
                .imageTransform(ImageTransform.training("image", 5).size(16, 24))
                .reader(o -> o.parseThreads(threads).ringSize(ring)).build()) {
            for (Batch b : reader) {
                rows.add(b.tensor("image").segment().toArray(ValueLayout.JAVA_FLOAT));
            }
        }
        return rows;
    }

    @Test
    void theFusedPathGivesTheSameRowsForAnyParseThreadsAndRing() throws IOException {
        Path file = file();
        List<float[]> first = fused(file, 1, 2);
        for (int[] config : new int[][] {{2, 2}, {2, 8}, {4, 8}, {3, 16}}) {
            List<float[]> other = fused(file, config[0], config[1]);
            assertEquals(first.size(), other.size());
            for (int b = 0; b < first.size(); b++) {
                assertArrayEquals(first.get(b), other.get(b), "batch " + b + " with " + config[0] + " threads, ring " + config[1]);
            }
        }
    }

    /**
     * With DCT scaling, the native codec decodes large JPEGs at a fraction of their size before
     * resizing: rows close to, but not the same as, those of the full-size decode. ImageIO, which
     * cannot, gives the same rows either way.
     */
    @Test
    void dctScalingShrinksLargeJpegsOnTheNativeCodecOnly() throws IOException {
        Random random = new Random(5);
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            BufferedImage image = new BufferedImage(400 + random.nextInt(80), 300 + random.nextInt(60), BufferedImage.TYPE_INT_RGB);
            double phase = random.nextDouble() * 6;
            for (int y = 0; y < image.getHeight(); y++) {
                for (int x = 0; x < image.getWidth(); x++) {
                    int r = (int) (127.5 + 127.5 * Math.sin(x / 37.0 + phase));
                    int g = y * 255 / image.getHeight();
                    int b = (int) (127.5 + 127.5 * Math.cos((x + y) / 53.0));
                    image.setRGB(x, y, r << 16 | g << 8 | b);
                }
            }
            ByteArrayOutputStream jpeg = new ByteArrayOutputStream();
            ImageIO.write(image, "jpg", jpeg);
            payloads.add(Features.record(Map.of("image", Features.bytesFeature(jpeg.toByteArray()),
                    "label", Features.int64Feature(i))).toByteArray());
        }
        Path file = dir.resolve("large");
        Files.write(file, CorruptFiles.frame(payloads, Framing.OFRECORD));
        // The shorter side, 300-359, resized to 40: a quarter of it is still 40 or more.
        ImageTransform eval = ImageTransform.of("image").size(32, 32).resizeShorter(40);
        for (ImageCodec codec : codecs()) {
            float[] full = rows(reader(file, codec).imageTransform(eval).build());
            float[] scaled = rows(reader(file, codec).imageTransform(eval.dctScaling(true)).build());
            if (codec.name().equals("imageio")) {
                assertArrayEquals(full, scaled);
                continue;
            }
            double difference = 0;
            for (int i = 0; i < full.length; i++) {
                difference += Math.abs(full[i] - scaled[i]);
            }
            // In pixel levels, given ImageNet's std of about 57.
            double levels = difference / full.length * 57;
            assertTrue(levels > 0 && levels < 3, () -> "mean difference " + levels + " levels");
        }
    }

    /** Every value of the "image" output of every batch of {@code reader}, which it closes. */
    private static float[] rows(DataReader reader) {
        try (reader) {
            List<Float> values = new ArrayList<>();
            for (Batch b : reader) {
                Tensor t = b.tensor("image");
                for (long i = 0; i < t.shape().elementCount(); i++) {
                    values.add(t.getFloat(i));
                }
            }
            float[] out = new float[values.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = values.get(i);
            }
            return out;
        }
    }

    @Test
    void theEvaluationPathIsResizeThenCentreCropThenNormalize() throws IOException {
        Path file = file();
        ImageTransform eval = ImageTransform.of("image").size(16, 16).resizeShorter(20);
        try (DataReader reader = reader(file, ImageCodecs.imageIO()).imageTransform(eval).build();
             Arena arena = Arena.ofConfined()) {
            for (Batch b : reader) {
                for (int row = 0; row < b.size(); row++) {
                    BufferedImage p = pictures.get((int) b.tensor("label").getLong(row));
                    int w = p.getWidth();
                    int h = p.getHeight();
                    ImageSize resized = ImageResize.keepAspectRatio(w, h, 20, ImageResize.Side.SHORTER, 0, 0);
                    int rw = resized.width();
                    int rh = resized.height();
                    assertEquals(20, Math.min(rw, rh));
                    MemorySegment src = arena.allocateFrom(ValueLayout.JAVA_BYTE, rgb(p, CropWindow.whole(w, h)));
                    MemorySegment dst = arena.allocate((long) rw * rh * 3);
                    ImageResize.resize(src, w, h, 3, dst, rw, rh);
                    int x0 = (rw - 16) / 2;
                    int y0 = (rh - 16) / 2;
                    float[] mean = eval.mean();
                    float[] std = eval.std();
                    Tensor out = b.tensor("image");
                    for (int c = 0; c < 3; c++) {
                        for (int y = 0; y < 16; y++) {
                            for (int x = 0; x < 16; x++) {
                                int v = dst.get(ValueLayout.JAVA_BYTE, (((long) (y0 + y) * rw) + x0 + x) * 3 + c) & 0xFF;
                                float want = (v - mean[c]) * (1f / std[c]);
                                assertEquals(want, out.getFloat((((long) row * 3 + c) * 16 + y) * 16 + x), 0f);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void aCorruptImageFailsItsBatchNamingTheFeatureOrIsSkipped() throws IOException {
        Random random = new Random(8);
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            byte[] image = png(picture(10, 12, random));
            if (i == 9) {
                image = new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, 1, 2, 3};
            }
            payloads.add(Features.record(Map.of("image", Features.bytesFeature(image), "label", Features.int64Feature(i))).toByteArray());
        }
        Path file = dir.resolve("bad-image");
        Files.write(file, CorruptFiles.frame(payloads, Framing.OFRECORD));
        for (ImageCodec codec : codecs()) {
            List<Long> labels = new ArrayList<>();
            CorruptDataException e = assertThrows(CorruptDataException.class, () -> {
                try (DataReader reader = reader(file, codec).imageDecoder(ImageDecoder.of("image")).build()) {
                    for (Batch b : reader) {
                        for (int row = 0; row < b.size(); row++) {
                            labels.add(b.tensor("label").getLong(row));
                        }
                    }
                }
            });
            assertEquals(9, e.record(), e.getMessage());
            assertTrue(e.getMessage().contains("feature image"), e.getMessage());
            assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L), labels, "the batch before");

            List<Long> skipped = new ArrayList<>();
            try (DataReader reader = reader(file, codec).imageDecoder(ImageDecoder.of("image")).skipCorrupt(1).build()) {
                for (Batch b : reader) {
                    for (int row = 0; row < b.size(); row++) {
                        skipped.add(b.tensor("label").getLong(row));
                        assertEquals(12, b.tensor("image.shape").getInt(3L * row), "every row has a decoded image");
                    }
                }
                assertEquals(1, reader.metrics().corruptSkipped());
            }
            List<Long> want = new ArrayList<>();
            for (long i = 0; i < 20; i++) {
                want.add(i == 9 ? 10 : i);
            }
            assertEquals(want, skipped, "record 9 replaced by record 10");
        }
    }

    @Test
    void anImageOverMaxPixelsIsRefusedBeforeItIsDecoded() throws IOException {
        Path file = file();
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> {
            try (DataReader reader = reader(file, ImageCodecs.imageIO()).imageDecoder(ImageDecoder.of("image").maxPixels(400)).build()) {
                reader.forEach(b -> { });
            }
        });
        assertTrue(e.getMessage().contains("maxPixels=400"), e.getMessage());
    }

    @Test
    void theImageClassificationReaderGivesImagesAndInt32Labels() throws IOException {
        Path file = file();
        for (boolean training : new boolean[] {true, false}) {
            List<Integer> labels = new ArrayList<>();
            try (DataReader reader = OFRecordReader.imageClassification("image", "label", training, 9)
                    .files(List.of(file)).batchSize(8).imageCodec(ImageCodecs.imageIO())
                    .reader(o -> o.name("classification-" + NAMES.incrementAndGet())).build()) {
                for (Batch b : reader) {
                    assertEquals(Shape.of(b.size(), 3, 224, 224), b.tensor("image").shape());
                    assertEquals(DataType.INT32, b.tensor("label").dataType());
                    for (int row = 0; row < b.size(); row++) {
                        labels.add(b.tensor("label").getInt(row));
                    }
                }
            }
            List<Integer> sorted = new ArrayList<>(labels);
            sorted.sort(null);
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                all.add(i);
            }
            assertEquals(all, sorted, "every record once");
            assertEquals(training, !labels.equals(all), "shuffled only for training");
        }
    }
}
