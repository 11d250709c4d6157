package org.dataloader4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.RecordReader;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.format.tf.Example;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ImageCompare on a few pictures: the pictures are what the dataset promises, the same from the
 * same seed in all three layouts, and every system reads every picture along every path and
 * reports in the documented format. No timings are checked. Skipped where the real photographs
 * ({@code shared/testdata/real/images}) are not at or above the working directory.
 */
class ImageCompareTest {
    private static final int IMAGES = 24;

    @TempDir
    Path dir;

    private static Path sources() {
        Optional<Path> found = SourcePictures.find();
        assumeTrue(found.isPresent(), SourcePictures.RELATIVE + " is not at or above the working directory");
        return found.get();
    }

    private static ImageFiles ensure(Path root, int images, long seed) throws Exception {
        Path sources = sources();
        return ImageFiles.ensure(root, images, 3, seed, () -> {
            try {
                return SourcePictures.read(sources);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    @Timeout(300)
    void thePicturesAreBaseline420JpegsOfTheirSizeAndTheSameInEveryLayout() throws Exception {
        ImageFiles data = ensure(dir.resolve("a"), IMAGES, 3);
        List<Path> jpegs = data.jpegFiles();
        assertEquals(IMAGES, jpegs.size());
        List<byte[]> ofrecord = new ArrayList<>();
        List<Long> labels = new ArrayList<>();
        List<byte[]> tfrecord = new ArrayList<>();
        List<Long> tfLabels = new ArrayList<>();
        // Picture i is record i / parts of part i % parts.
        List<List<RawRecord>> ofParts = new ArrayList<>();
        List<List<RawRecord>> tfParts = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            ofParts.add(records(data.ofrecord().get(p), Framing.OFRECORD));
            tfParts.add(records(data.tfrecord().get(p), Framing.TFRECORD));
        }
        for (int i = 0; i < IMAGES; i++) {
            OFRecord r = OFRecord.parseFrom(ofParts.get(i % 3).get(i / 3).payload());
            ofrecord.add(r.getFeatureMap().get("image").getBytesList().getValue(0).toByteArray());
            labels.add(r.getFeatureMap().get("label").getInt64List().getValue(0));
            Example e = Example.parseFrom(tfParts.get(i % 3).get(i / 3).payload());
            tfrecord.add(e.getFeatures().getFeatureMap().get("image/encoded").getBytesList().getValue(0).toByteArray());
            tfLabels.add(e.getFeatures().getFeatureMap().get("image/class/label").getInt64List().getValue(0));
        }
        assertEquals(labels, tfLabels);
        int total = 0;
        for (int i = 0; i < IMAGES; i++) {
            Path file = jpegs.get(i);
            byte[] jpeg = Files.readAllBytes(file);
            assertEquals(String.format("%06d.jpg", i), file.getFileName().toString());
            assertEquals(String.format("%04d", labels.get(i)), file.getParent().getFileName().toString(), "the class folder");
            assertArrayEquals(jpeg, ofrecord.get(i), "picture " + i + " in the OFRecords");
            assertArrayEquals(jpeg, tfrecord.get(i), "picture " + i + " in the TFRecords");
            assertTrue(jpeg.length >= ImageNetLike.MIN_BYTES && jpeg.length <= ImageNetLike.MAX_BYTES,
                    "picture " + i + " has " + jpeg.length + " bytes");
            assertBaseline420(jpeg, "picture " + i);
            total += jpeg.length;
        }
        assertEquals(total, data.sizes().totalBytes());
        assertTrue(data.sizes().min() <= data.sizes().median() && data.sizes().median() <= data.sizes().max(), data.sizes().toString());

        FileTime old = FileTime.fromMillis(0);
        Files.setLastModifiedTime(data.ofrecord().getFirst(), old);
        assertEquals(data, ensure(dir.resolve("a"), IMAGES, 3));
        assertEquals(old, Files.getLastModifiedTime(data.ofrecord().getFirst()), "rewritten although the settings are the same");

        ImageFiles again = ensure(dir.resolve("b"), IMAGES, 3);
        for (int i = 0; i < IMAGES; i++) {
            assertArrayEquals(Files.readAllBytes(jpegs.get(i)), Files.readAllBytes(again.jpegFiles().get(i)), "picture " + i);
        }
        ImageFiles reseeded = ensure(dir.resolve("c"), 2, 4);
        assertFalse(Arrays.equals(Files.readAllBytes(jpegs.get(0)), Files.readAllBytes(reseeded.jpegFiles().get(0))),
                "the same picture from another seed");
    }

    private static List<RawRecord> records(Path file, Framing framing) throws IOException {
        List<RawRecord> out = new ArrayList<>();
        try (RecordReader in = RecordReader.open(file, framing, Compression.NONE, true)) {
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                out.add(r);
            }
        }
        return out;
    }

    /** Checks that {@code jpeg}'s frame is baseline (SOF0), 500 × 375, three components sampled 2×2, 1×1, 1×1. */
    private static void assertBaseline420(byte[] jpeg, String what) {
        assertEquals(0xFFD8, u16(jpeg, 0), what + ": no SOI");
        int at = 2;
        while (at + 4 <= jpeg.length) {
            int marker = u16(jpeg, at);
            int length = u16(jpeg, at + 2);
            if (marker >= 0xFFC1 && marker <= 0xFFCF && marker != 0xFFC4 && marker != 0xFFC8 && marker != 0xFFCC) {
                throw new AssertionError(what + ": a frame other than baseline, marker " + Integer.toHexString(marker));
            }
            if (marker == 0xFFC0) {
                assertEquals(ImageNetLike.HEIGHT, u16(jpeg, at + 5), what + " height");
                assertEquals(ImageNetLike.WIDTH, u16(jpeg, at + 7), what + " width");
                assertEquals(3, jpeg[at + 9], what + " components");
                assertEquals(0x22, jpeg[at + 11] & 0xFF, what + " luma sampling");
                assertEquals(0x11, jpeg[at + 14] & 0xFF, what + " Cb sampling");
                assertEquals(0x11, jpeg[at + 17] & 0xFF, what + " Cr sampling");
                return;
            }
            at += 2 + length;
        }
        throw new AssertionError(what + ": no SOF0");
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | (b[at + 1] & 0xFF);
    }

    @Test
    @Timeout(300)
    void everySystemReadsEveryPictureAlongEveryPath() throws Exception {
        String text = run("--fork", "false");
        assertTrue(Pattern.compile("(?m)^DATA images=" + IMAGES + " jpeg_mb=\\d+\\.\\d jpeg_kb_mean=\\d+\\.\\d .* dir=.+$")
                .matcher(text).find(), text);
        for (String system : ImageCompareOptions.ALL_SYSTEMS) {
            for (ImagePath path : ImagePath.values()) {
                for (int threads : List.of(1, 2)) {
                    // The native codec and TensorFlow are measured where their libraries load, else reported, never left out.
                    String line = "RESULT " + system + " " + path.id() + " (images_per_s=\\d+\\.\\d mb_per_s=\\d+\\.\\d"
                            + " seconds=\\d+\\.\\d{3} images=" + IMAGES + " threads=" + threads
                            + (system.equals(Dataloader4jImageSystem.IMAGEIO) ? ")" : "|unavailable threads=" + threads + " reason=\".+\")");
                    assertTrue(Pattern.compile("(?m)^" + line + "$").matcher(text).find(), "no line " + line + " in\n" + text);
                }
            }
        }
        assertTrue(Pattern.compile("(?m)^DETAIL dataloader4j-imageio fused threads=2 first_batch_ms=\\d+\\.\\d gc_pauses=\\d+"
                + " gc_pause_ms=\\d+ gc_max_pause_ms=\\d+ pass_seconds=\\d+\\.\\d{3}$").matcher(text).find(), text);
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("d4j-images-")
                || t.getName().startsWith("image-data-")), "threads left");
    }

    @Test
    @Timeout(300)
    void aForkedSystemReportsFromAJvmOfItsOwn() throws Exception {
        String text = run("--systems", "dataloader4j-imageio", "--paths", "decode", "--threads", "1");
        assertTrue(text.contains("RESULT dataloader4j-imageio decode images_per_s="), text);
        List<String> forks = text.lines().filter(l -> l.startsWith("FORK ")).toList();
        assertEquals(1, forks.size(), text);
        assertTrue(forks.getFirst().matches("FORK dataloader4j-imageio pid=\\d+ exit=0"), text);
        assertFalse(forks.getFirst().contains(" pid=" + ProcessHandle.current().pid() + " "), "ran in this JVM");
        assertEquals(0, ProcessHandle.current().children().count(), "a forked JVM outlived its run");
    }

    /** Runs ImageCompare on {@link #IMAGES} pictures in {@link #dir} with {@code more} options; checks it succeeded. */
    private String run(String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--data", dir.toString(), "--images", Integer.toString(IMAGES),
                "--sources", sources().toString(), "--threads", "1,2", "--warmup", "0", "--passes", "1", "--batch", "8",
                "--shuffle-buffer", "16"));
        args.addAll(List.of(more));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean ok;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ok = ImageCompare.run(ImageCompareOptions.parse(args.toArray(String[]::new)), out);
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(ok, text);
        return text;
    }
}
