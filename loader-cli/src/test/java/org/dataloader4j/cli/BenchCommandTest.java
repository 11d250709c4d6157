package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dataloader4j.image.ImageCodecs;
import org.dataloader4j.samples.MnistLike;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BenchCommandTest {
    private static final Pattern READ_LOOP = Pattern.compile("  read loop, ([\\d,]+) records .*");
    private static final Pattern IMAGES = Pattern.compile("  images, ([\\d,]+) +[\\d.]+ s  [\\d,]+ images/s");

    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void readsEveryRecordOfEveryEpochThroughTheFullPipeline() throws IOException {
        MnistLike.writeData(dir, 1000, 3, 5);
        Cli.Result r = Cli.run("bench", dir.toString(), "--format", "ofrecord", "--feature", "images:float32:784",
                "--feature", "labels:int64:1", "--batch", "64", "--threads", "2", "--epochs", "3");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.lines().get(0).contains("ofrecord, 3 files") && r.lines().get(0).contains("1,000 records"), r::toString);
        assertEquals(3000, readLoopRecords(r));
        assertTrue(r.out().contains("input stall (inside read())"), r::toString);
        assertTrue(r.out().contains("time to first batch"), r::toString);
        assertTrue(r.out().contains("parse: in the parser") && r.out().contains("load: in the dataset"), r::toString);
        assertTrue(r.out().contains("3,000 samples"), r::toString);
    }

    @Test
    @Timeout(60)
    void benchesARealTFRecordFile() {
        Path mnist = SharedTestData.file("tensorflow-tfx/mnist/mnist.tfrecord");
        Cli.Result r = Cli.run("bench", mnist.toString(), "--feature", "image_floats:float:784", "--feature", "image_class:int64:1",
                "--batch", "100", "--threads", "1");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.lines().get(0).contains("tfrecord, 1 file"), r::toString);
        assertEquals(1000, readLoopRecords(r));
    }

    @Test
    @Timeout(60)
    void skipsACorruptRecordWhenAskedAndFailsOnItWhenNot() throws IOException {
        MnistLike.writeData(dir, 500, 1, 5);
        // A well-framed record whose payload starts with an invalid wire type.
        byte[] garbage = {3, 0, 0, 0, 0, 0, 0, 0, 0x0F, 1, 2};
        Files.write(dir.resolve("part-00000"), garbage, StandardOpenOption.APPEND);
        String[] args = {"bench", dir.toString(), "--format", "ofrecord", "--feature", "images:float32:784",
            "--feature", "labels:int64:1", "--batch", "64", "--threads", "2"};
        assertEquals(1, Cli.run(args).code());
        String[] skipping = Arrays.copyOf(args, args.length + 2);
        skipping[args.length] = "--skip-corrupt";
        skipping[args.length + 1] = "1";
        Cli.Result r = Cli.run(skipping);
        assertEquals(0, r.code(), r::toString);
        // The bad record's place is taken by the next good one, the file's first.
        assertEquals(501, readLoopRecords(r));
        assertTrue(r.out().contains("501 samples, 8 batches parsed, 8 read, 1 corrupt records skipped"), r::toString);
    }

    /** A feature shape that does not fit the records fails the read loop with the parser's one-line cause. */
    @Test
    @Timeout(60)
    void aFeatureThatDoesNotFitIsOneLineAndExitsOne() throws IOException {
        MnistLike.writeData(dir, 10, 1, 5);
        Cli.Result r = Cli.run("bench", dir.toString(), "--feature", "images:float32:10", "--feature", "labels:int64:1");
        assertEquals(1, r.code(), r::toString);
        List<String> err = r.err().lines().toList();
        assertEquals(1, err.size(), r::toString);
        assertTrue(err.get(0).startsWith("loader: " + dir.resolve("part-00000")), r::toString);
    }

    /** The training path over generated PNG and JPEG records: every image of every epoch, and the codec that ran. */
    @Test
    @Timeout(120)
    void benchesTheImageTrainingPathAndNamesTheCodec() throws IOException {
        TestImages.writeRecords(dir, 70, 2, 3);
        Cli.Result r = Cli.run("bench", dir.toString(), "--image", "encoded", "--feature", "label:int64:1",
                "--batch", "16", "--threads", "2", "--epochs", "2");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.lines().get(0).contains("ofrecord, 2 files") && r.lines().get(0).contains("70 records; batch 16"), r::toString);
        String codec = ImageCodecs.preferred().name();
        assertTrue(r.out().contains("images in encoded: training path (random resized crop to 224x224, flip, normalize; "
                + "NCHW float32, seed 0); codec " + codec + " ("), r::toString);
        assertEquals(140, readLoopRecords(r));
        assertEquals(140, images(r));
        assertTrue(r.out().contains("140 samples"), r::toString);
    }

    /** --dct-scaling is named in the report, and runs the training path over every image. */
    @Test
    @Timeout(120)
    void dctScalingIsNamedAndReadsEveryImage() throws IOException {
        TestImages.writeRecords(dir, 30, 1, 5);
        Cli.Result r = Cli.run("bench", dir.toString(), "--image", "encoded", "--dct-scaling", "--threads", "2");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("NCHW float32, seed 0; DCT scaling); codec "), r::toString);
        assertEquals(30, images(r));
        Cli.Result decodeOnly = Cli.run("bench", dir.toString(), "--image", "encoded", "--dct-scaling", "--decode-only");
        assertEquals(2, decodeOnly.code(), decodeOnly::toString);
        assertEquals(List.of("loader: --dct-scaling applies to the training path, not --decode-only"),
                decodeOnly.err().lines().toList());
    }

    /** --decode-only decodes whole images, with the codec asked for. */
    @ParameterizedTest
    @ValueSource(strings = {"imageio", "native"})
    @Timeout(120)
    void decodeOnlyRunsTheCodecAskedFor(String codec) throws IOException {
        if (codec.equals("native")) {
            assumeTrue(ImageCodecs.nativeCodec().isPresent(), () -> "no native codec: " + ImageCodecs.nativeUnavailableReason());
        }
        TestImages.writeRecords(dir, 45, 1, 4);
        Cli.Result r = Cli.run("bench", dir.toString(), "--image", "encoded", "--decode-only", "--codec", codec,
                "--threads", "2");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.lines().get(0).contains("45 records; batch 64"), r::toString);
        assertTrue(r.out().contains("images in encoded: decoded whole to RGB uint8 (--decode-only); codec " + codec + " ("), r::toString);
        assertEquals(45, images(r));
    }

    @Test
    void imageOptionsNeedAnImageAndAKnownCodec() {
        Cli.Result r = Cli.run("bench", dir.toString(), "--feature", "labels:int64:1", "--decode-only");
        assertEquals(2, r.code(), r::toString);
        assertEquals(List.of("loader: --decode-only needs --image FEATURE"), r.err().lines().toList());
        Cli.Result none = Cli.run("bench", dir.toString());
        assertEquals(2, none.code(), none::toString);
        Cli.Result codec = Cli.run("bench", dir.toString(), "--image", "encoded", "--codec", "opencv");
        assertEquals(2, codec.code(), codec::toString);
        assertTrue(codec.err().startsWith("loader: Invalid value for option '--codec': expected native or imageio: codec=opencv"),
                codec::toString);
    }

    @Test
    void aBadFeatureSpecIsAUsageError() {
        Cli.Result r = Cli.run("bench", dir.toString(), "--feature", "images:float32");
        assertEquals(2, r.code(), r::toString);
        assertEquals(List.of("loader: --feature must be NAME:TYPE:SHAPE, e.g. images:float32:784: feature=images:float32"),
                r.err().lines().toList());
    }

    private static long images(Cli.Result r) {
        for (String line : r.lines()) {
            Matcher m = IMAGES.matcher(line);
            if (m.matches()) {
                return Long.parseLong(m.group(1).replace(",", ""));
            }
        }
        throw new AssertionError("no images line: " + r);
    }

    private static long readLoopRecords(Cli.Result r) {
        for (String line : r.lines()) {
            Matcher m = READ_LOOP.matcher(line);
            if (m.matches()) {
                return Long.parseLong(m.group(1).replace(",", ""));
            }
        }
        throw new AssertionError("no read loop line: " + r);
    }
}
