package org.dataloader4j.tfrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.image.ColorSpace;
import org.dataloader4j.image.ImageCodec;
import org.dataloader4j.image.ImageCodecs;
import org.dataloader4j.image.ImageDecoder;
import org.dataloader4j.testkit.SharedTestData;
import org.dataloader4j.testkit.StrictJson;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The image records of TFX's CIFAR-10 (PNG), TensorFlow models' FSNS (PNG) and deeplab (JPEG and
 * a grayscale PNG), read through {@code TFRecordReader.imageDecoder}: every record's image decodes
 * to its expected size, and its RGB pixels to their expected SHA-256 (Pillow over libjpeg-turbo
 * and zlib), with each codec. Skipped where the shared test data is not beside the checkout.
 */
@Timeout(120)
class ImageRecordsRealFilesTest {
    private static final AtomicInteger NAMES = new AtomicInteger();

    static Stream<Arguments> files() {
        List<Arguments> all = new ArrayList<>();
        for (String codec : List.of("imageio", "native")) {
            all.add(arguments(codec, "tensorflow-tfx/cifar10/test/cifar10_test.tfrecord", "image"));
            all.add(arguments(codec, "tensorflow-tfx/cifar10/train/cifar10_train.tfrecord", "image"));
            all.add(arguments(codec, "tensorflow-models/attention_ocr/fsns/fsns-00000-of-00001", "image/encoded"));
            all.add(arguments(codec, "tensorflow-models/deeplab/pascal_voc_seg/val-00000-of-00001.tfrecord", "image/encoded"));
            all.add(arguments(codec, "tensorflow-models/deeplab/pascal_voc_seg/val-00000-of-00001.tfrecord",
                    "image/segmentation/class/encoded"));
        }
        return all.stream();
    }

    private static ImageCodec codec(String name) {
        if (name.equals("imageio")) {
            return ImageCodecs.imageIO();
        }
        assumeTrue(ImageCodecs.nativeCodec().isPresent(), () -> "no native codec: " + ImageCodecs.nativeUnavailableReason());
        return ImageCodecs.nativeCodec().orElseThrow();
    }

    @ParameterizedTest(name = "{0}: {1} {2}")
    @MethodSource("files")
    @SuppressWarnings("unchecked")
    void everyImageDecodesToItsExpectedSizeAndPixels(String codecName, String file, String feature) throws IOException {
        ImageCodec codec = codec(codecName);
        Map<String, Object> expected = (Map<String, Object>) StrictJson.parse(SharedTestData.file("images/expected/" + file + ".json"));
        List<Map<String, Object>> records = (List<Map<String, Object>>) expected.get("records");
        List<String> sha = new ArrayList<>();
        List<long[]> sizes = new ArrayList<>();
        try (DataReader reader = TFRecordReader.builder().files(List.of(SharedTestData.file("images/" + file))).batchSize(4)
                .reader(o -> o.name("real-images-" + NAMES.incrementAndGet()).parseThreads(2))
                .imageCodec(codec)
                .imageDecoder(ImageDecoder.of(feature).colorSpace(ColorSpace.RGB).batchPixels(4L * 600 * 600))
                .build()) {
            for (Batch b : reader) {
                RaggedTensor pixels = b.ragged(feature);
                Tensor shape = b.tensor(feature + ".shape");
                for (int row = 0; row < b.size(); row++) {
                    byte[] bytes = pixels.values().segment()
                            .asSlice(pixels.offset(row), pixels.rowLength(row)).toArray(ValueLayout.JAVA_BYTE);
                    sha.add(sha256(bytes));
                    sizes.add(new long[] {shape.getInt(3L * row), shape.getInt(3L * row + 1), shape.getInt(3L * row + 2)});
                }
            }
        }
        assertEquals(records.size(), sha.size(), "one image a record");
        for (int i = 0; i < records.size(); i++) {
            Map<String, Object> features = (Map<String, Object>) records.get(i).get("features");
            Map<String, Object> f = (Map<String, Object>) features.get(feature);
            Map<String, Object> digest = ((List<Map<String, Object>>) f.get("values_digest")).get(0);
            Map<String, Object> image = (Map<String, Object>) digest.get("image");
            assertEquals(((Number) image.get("height")).longValue(), sizes.get(i)[0], "height of record " + i);
            assertEquals(((Number) image.get("width")).longValue(), sizes.get(i)[1], "width of record " + i);
            assertEquals(3, sizes.get(i)[2], "RGB");
            String want = (String) ((Map<String, Object>) image.get("rgb")).get("sha256");
            assertEquals(want, sha.get(i), codecName + ": the RGB pixels of record " + i + " of " + file);
        }
        assertTrue(sha.size() > 0);
    }

    /** CIFAR-10's test records through the evaluation transform: 224 × 224 rows and the records' labels, in order. */
    @org.junit.jupiter.api.Test
    @SuppressWarnings("unchecked")
    void theImageClassificationReaderReadsCifarLabels() throws IOException {
        String file = "tensorflow-tfx/cifar10/test/cifar10_test.tfrecord";
        Map<String, Object> expected = (Map<String, Object>) StrictJson.parse(SharedTestData.file("images/expected/" + file + ".json"));
        List<Long> want = new ArrayList<>();
        for (Map<String, Object> r : (List<Map<String, Object>>) expected.get("records")) {
            Map<String, Object> label = (Map<String, Object>) ((Map<String, Object>) r.get("features")).get("label");
            want.add(((Number) ((List<Object>) label.get("values")).get(0)).longValue());
        }
        List<Long> got = new ArrayList<>();
        try (DataReader reader = TFRecordReader.imageClassification("image", "label", false, 1)
                .files(List.of(SharedTestData.file("images/" + file))).batchSize(16)
                .reader(o -> o.name("real-images-" + NAMES.incrementAndGet())).build()) {
            for (Batch b : reader) {
                assertEquals(org.dataloader4j.api.Shape.of(b.size(), 3, 224, 224), b.tensor("image").shape());
                for (int row = 0; row < b.size(); row++) {
                    got.add((long) b.tensor("label").getInt(row));
                }
            }
        }
        assertEquals(want, got);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
