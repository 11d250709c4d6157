package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.testkit.SharedTestData;
import org.dataloader4j.testkit.StrictJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code loader inspect --decode-images}: the images in records, described by their header and the hash of their pixels. */
@Timeout(120)
class InspectImagesTest {
    @TempDir
    Path dir;

    /**
     * Every image of the real image records (PNG and JPEG) is the object the expected values
     * give: format, size, components, and the SHA-256 of Pillow's RGB pixels; every other bytes
     * value is still its base64.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "tensorflow-tfx/cifar10/test/cifar10_test.tfrecord",
        "tensorflow-tfx/cifar10/train/cifar10_train.tfrecord",
        "tensorflow-models/attention_ocr/fsns/fsns-00000-of-00001",
        "tensorflow-models/deeplab/pascal_voc_seg/val-00000-of-00001.tfrecord",
    })
    @SuppressWarnings("unchecked")
    void jsonOfRealImageRecordsHasTheExpectedImages(String relative) throws IOException {
        Path file = SharedTestData.file("images/" + relative);
        Map<String, Object> expected = (Map<String, Object>) StrictJson.parse(SharedTestData.file("images/expected/" + relative + ".json"));
        List<Map<String, Object>> records = (List<Map<String, Object>>) expected.get("records");
        Cli.Result r = Cli.run("inspect", "--json", "--decode-images", file.toString());
        assertEquals(0, r.code(), r::toString);
        assertEquals("", r.err(), r::toString);
        List<String> lines = r.lines();
        assertEquals(records.size(), lines.size(), "one line per record");
        int images = 0;
        for (int i = 0; i < records.size(); i++) {
            Map<String, Object> features = (Map<String, Object>) records.get(i).get("features");
            Map<String, Object> actual = (Map<String, Object>) ((Map<String, Object>) Cli.json(lines.get(i))).get("features");
            for (Map.Entry<String, Object> e : features.entrySet()) {
                Map<String, Object> want = (Map<String, Object>) e.getValue();
                if (!want.get("type").equals("bytes")) {
                    continue;
                }
                String where = relative + " record " + i + " " + e.getKey();
                List<Object> values = (List<Object>) ((Map<String, Object>) actual.get(e.getKey())).get("values");
                if (want.containsKey("values_b64")) {
                    assertEquals(want.get("values_b64"), values, where);
                    continue;
                }
                List<Map<String, Object>> digests = (List<Map<String, Object>>) want.get("values_digest");
                assertEquals(digests.size(), values.size(), where);
                for (int v = 0; v < digests.size(); v++) {
                    Map<String, Object> image = (Map<String, Object>) digests.get(v).get("image");
                    if (image == null) {
                        assertInstanceOf(String.class, values.get(v), where);
                        continue;
                    }
                    Map<String, Object> object = new LinkedHashMap<>();
                    object.put("type", "image");
                    object.put("format", image.get("format"));
                    object.put("width", image.get("width"));
                    object.put("height", image.get("height"));
                    object.put("channels", image.get("components"));
                    object.put("rgb_sha256", ((Map<String, Object>) image.get("rgb")).get("sha256"));
                    assertEquals(object, values.get(v), where + " value " + v);
                    images++;
                }
            }
        }
        assertTrue(images >= records.size(), "an image a record at least: " + images);
    }

    /**
     * A damaged JPEG among good images is an error object and an error line naming the file,
     * record and feature, and the command exits 1 after printing every record; the good images
     * are described, a PNG's hash being that of the pixels it was made from.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aDamagedImageIsAnErrorObjectAndExitsOne() throws IOException {
        Random random = new Random(11);
        BufferedImage small = TestImages.picture(20, 10, random);
        byte[] png = TestImages.encode(small, "png");
        byte[] jpeg = TestImages.encode(TestImages.picture(64, 48, random), "jpeg");
        byte[] cut = Arrays.copyOf(jpeg, jpeg.length / 2);
        try (PartWriter w = PartWriter.create(dir, 1)) {
            w.write(Features.record(Map.of("encoded", Features.bytesFeature(png), "label", Features.int64Feature(0))));
            w.write(Features.record(Map.of("encoded", Features.bytesFeature(cut), "label", Features.int64Feature(1))));
            w.write(Features.record(Map.of("encoded", Features.bytesFeature(jpeg), "label", Features.int64Feature(2))));
        }
        Path part = dir.resolve("part-00000");

        Cli.Result r = Cli.run("inspect", "--json", "--decode-images", part.toString());
        assertEquals(1, r.code(), r::toString);
        List<String> lines = r.lines();
        assertEquals(3, lines.size(), r::toString);
        Map<String, Object> good = encoded(lines.get(0));
        assertEquals(Map.of("type", "image", "format", "png", "width", 20L, "height", 10L, "channels", 3L,
                "rgb_sha256", TestImages.sha256(TestImages.rgb(small))), good);
        Map<String, Object> broken = encoded(lines.get(1));
        assertEquals(List.of("type", "error"), List.copyOf(broken.keySet()), r::toString);
        assertEquals("image", broken.get("type"));
        String error = (String) broken.get("error");
        assertTrue(error.contains("JPEG"), r::toString);
        Map<String, Object> decoded = encoded(lines.get(2));
        assertEquals(List.of("jpeg", 64L, 48L, 3L), List.of(decoded.get("format"), decoded.get("width"), decoded.get("height"),
                decoded.get("channels")), r::toString);
        List<String> err = r.err().lines().toList();
        assertEquals(1, err.size(), r::toString);
        assertEquals("loader: " + part + ": feature encoded: " + error + " at record 1, offset " + offsetOf(lines.get(1)), err.get(0));

        // Without the option, the same record is printed as before: the image's bytes in base64.
        Cli.Result plain = Cli.run("inspect", "--json", part.toString());
        assertEquals(0, plain.code(), plain::toString);
        Map<String, Object> features = (Map<String, Object>) ((Map<String, Object>) Cli.json(plain.lines().get(0))).get("features");
        assertEquals(List.of(Base64.getEncoder().encodeToString(png)), ((Map<String, Object>) features.get("encoded")).get("values"));
    }

    /** Without --json, an image is its format and width × height × channels; a damaged one its error. */
    @Test
    void textShowsEachImageAsItsFormatAndSize() throws IOException {
        Random random = new Random(12);
        byte[] jpeg = TestImages.encode(TestImages.picture(50, 37, random), "jpeg");
        try (PartWriter w = PartWriter.create(dir, 1)) {
            w.write(Features.record(Map.of("encoded", Features.bytesFeature(jpeg))));
            w.write(Features.record(Map.of("encoded", Features.bytesFeature(Arrays.copyOf(jpeg, 300)))));
        }
        Cli.Result r = Cli.run("inspect", "--decode-images", dir.toString());
        assertEquals(1, r.code(), r::toString);
        assertTrue(r.out().contains("    encoded  jpeg 50×37×3\n"), r::toString);
        List<String> err = r.err().lines().toList();
        assertEquals(1, err.size(), r::toString);
        String prefix = "loader: " + dir.resolve("part-00000") + ": feature encoded: ";
        assertTrue(err.get(0).startsWith(prefix) && err.get(0).contains(" at record 1, offset "), r::toString);
        String error = err.get(0).substring(prefix.length(), err.get(0).lastIndexOf(" at record 1, offset "));
        assertTrue(r.out().contains("    encoded  " + error + "\n"), "the second record shows its error: " + r);

        Cli.Result plain = Cli.run("inspect", dir.toString());
        assertEquals(0, plain.code(), plain::toString);
        assertTrue(plain.out().contains("    encoded  bytes[1]  0xffd8ff"), plain::toString);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> encoded(String line) {
        Map<String, Object> features = (Map<String, Object>) ((Map<String, Object>) Cli.json(line)).get("features");
        return (Map<String, Object>) ((List<Object>) ((Map<String, Object>) features.get("encoded")).get("values")).get(0);
    }

    @SuppressWarnings("unchecked")
    private static long offsetOf(String line) {
        return (Long) ((Map<String, Object>) Cli.json(line)).get("offset");
    }
}
