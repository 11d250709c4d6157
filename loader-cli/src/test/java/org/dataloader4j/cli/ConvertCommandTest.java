package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RecordReader;
import org.dataloader4j.format.proto.Feature;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.image.ColorSpace;
import org.dataloader4j.image.ImageDecoder;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class ConvertCommandTest {
    @TempDir
    Path dir;

    /** TFRecord (gzip) to OFRecord parts and back to gzip TFRecord: every Example comes back equal. */
    @Test
    void realTFRecordsRoundTripThroughOFRecordParts() throws IOException {
        Path in = SharedTestData.file("tensorflow-tfx/penguin/Split-train/data_tfrecord-00000-of-00001.gz");
        Cli.Result toOf = Cli.run("convert", in.toString(), "--parts", "3", "-o", dir.resolve("of").toString());
        assertEquals(0, toOf.code(), toOf::toString);
        assertEquals("converted 234 records of 1 file from tfrecord to ofrecord in " + dir.resolve("of"), toOf.lines().get(0));
        List<Path> parts = List.of(dir.resolve("of/part-00000"), dir.resolve("of/part-00001"), dir.resolve("of/part-00002"));
        assertEquals(List.of(78, 78, 78), parts.stream().map(p -> read(p, Framing.OFRECORD).size()).toList());

        Cli.Result back = Cli.run("convert", dir.resolve("of").toString(), "--compression", "gzip", "-o", dir.resolve("tf").toString());
        assertEquals(0, back.code(), back::toString);
        assertEquals(Compression.GZIP, Compression.detect(dir.resolve("tf/part-00000").toString(),
                Files.readAllBytes(dir.resolve("tf/part-00000")), Framing.TFRECORD));
        List<byte[]> original = read(in, Framing.TFRECORD);
        for (int p = 0; p < 3; p++) {
            List<byte[]> converted = read(dir.resolve("tf").resolve(parts.get(p).getFileName()), Framing.TFRECORD);
            for (int i = 0; i < converted.size(); i++) {
                assertEquals(Example.parseFrom(original.get(p + 3 * i)), Example.parseFrom(converted.get(i)), "record " + (p + 3 * i));
            }
        }
    }

    @Test
    void oneFlowRecordsConvertToTFRecordFilesOfTheSameName() {
        Path in = SharedTestData.file("oneflow-benchmark-metafinetuning/SST-2/train/train.of_record-0");
        Cli.Result r = Cli.run("convert", in.toString(), "-o", dir.toString());
        assertEquals(0, r.code(), r::toString);
        assertEquals("converted 32 records of 1 file from ofrecord to tfrecord in " + dir, r.lines().get(0));
        assertEquals(32, read(dir.resolve(in.getFileName()), Framing.TFRECORD).size());
    }

    @Test
    void csvWithQuotesInfersColumnTypesAndLeavesEmptyFieldsOut() throws IOException {
        Path csv = dir.resolve("data.csv");
        Files.writeString(csv, "id,x,name,score\r\n1,0.5,\"a, b\",3\n2,1.5,\"say \"\"hi\"\"\nthere\",\n\n3,2,plain,4\n");
        Cli.Result r = Cli.run("convert", csv.toString(), "--column", "score:int32", "-o", dir.resolve("out").toString());
        assertEquals(0, r.code(), r::toString);
        assertEquals(List.of("converted 3 rows of " + csv + " to ofrecord in " + dir.resolve("out"),
                "  id: int64", "  x: float", "  name: bytes", "  score: int32"), r.lines());
        List<OFRecord> records = read(dir.resolve("out/part-00000"), Framing.OFRECORD).stream().map(ConvertCommandTest::ofRecord).toList();
        assertEquals(3, records.size());
        Map<String, Feature> second = records.get(1).getFeatureMap();
        assertEquals(List.of(2L), second.get("id").getInt64List().getValueList());
        assertEquals(List.of(1.5f), second.get("x").getFloatList().getValueList());
        assertEquals("say \"hi\"\nthere", second.get("name").getBytesList().getValue(0).toString(StandardCharsets.UTF_8));
        assertFalse(second.containsKey("score"), "an empty field is a missing value");
        assertEquals(List.of(4), records.get(2).getFeatureMap().get("score").getInt32List().getValueList());
        assertEquals("a, b", records.get(0).getFeatureMap().get("name").getBytesList().getValue(0).toString(StandardCharsets.UTF_8));
    }

    @Test
    void aCsvRowWithTheWrongFieldCountNamesItsLine() throws IOException {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "a,b\n1,2\n3\n");
        Cli.Result r = Cli.run("convert", csv.toString(), "-o", dir.resolve("out").toString());
        assertEquals(1, r.code(), r::toString);
        assertEquals(List.of("loader: " + csv + ": line 3: 1 field, but the header has 2"), r.err().lines().toList());
    }

    @Test
    void imageClassFoldersBecomeEncodedBytesAndClassLabels() throws IOException {
        Path images = dir.resolve("images");
        byte[] cat1 = {(byte) 0xff, (byte) 0xd8, 1};
        byte[] cat2 = {(byte) 0x89, 'P', 'N', 'G'};
        byte[] dog = {(byte) 0xff, (byte) 0xd8, 2};
        Files.createDirectories(images.resolve("cat"));
        Files.createDirectories(images.resolve("dog"));
        Files.write(images.resolve("cat/1.jpg"), cat1);
        Files.write(images.resolve("cat/2.PNG"), cat2);
        Files.write(images.resolve("dog/a.jpeg"), dog);
        Files.writeString(images.resolve("dog/README.txt"), "not an image");
        Cli.Result r = Cli.run("convert", images.toString(), "--parts", "2", "-o", dir.resolve("out").toString());
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("class/label 1 = dog (1 images)"), r::toString);
        assertTrue(r.out().contains("skipped 1 files without an image extension"), r::toString);
        List<OFRecord> part0 = read(dir.resolve("out/part-00000"), Framing.OFRECORD).stream().map(ConvertCommandTest::ofRecord).toList();
        List<OFRecord> part1 = read(dir.resolve("out/part-00001"), Framing.OFRECORD).stream().map(ConvertCommandTest::ofRecord).toList();
        assertEquals(2, part0.size());
        assertEquals(1, part1.size());
        assertArrayEquals(cat1, part0.get(0).getFeatureMap().get("encoded").getBytesList().getValue(0).toByteArray());
        assertEquals(List.of(0L), part0.get(0).getFeatureMap().get("class/label").getInt64List().getValueList());
        assertArrayEquals(cat2, part1.get(0).getFeatureMap().get("encoded").getBytesList().getValue(0).toByteArray());
        assertArrayEquals(dog, part0.get(1).getFeatureMap().get("encoded").getBytesList().getValue(0).toByteArray());
        assertEquals(List.of(1L), part0.get(1).getFeatureMap().get("class/label").getInt64List().getValueList());
    }

    /**
     * Real JPEG and PNG files made here, converted and read back through the OFRecord reader's
     * image decoder: every image has its file's size and class, and every PNG (lossless) its
     * file's pixels.
     */
    @Test
    @Timeout(120)
    void convertedImagesDecodeToTheirFilesSizesAndPixels() throws IOException {
        Path images = dir.resolve("photos");
        Random random = new Random(21);
        List<BufferedImage> pictures = new ArrayList<>();
        List<Boolean> isPng = new ArrayList<>();
        List<Long> labels = new ArrayList<>();
        String[] classes = {"daisy", "tulip"};
        for (int c = 0; c < classes.length; c++) {
            Files.createDirectories(images.resolve(classes[c]));
            for (int i = 0; i < 5; i++) {
                BufferedImage picture = TestImages.picture(30 + random.nextInt(60), 30 + random.nextInt(60), random);
                boolean png = i % 2 == 0;
                // Names in order of i, so the records (class by class, name order) follow the lists.
                Files.write(images.resolve(classes[c]).resolve(i + (png ? ".png" : ".jpg")),
                        TestImages.encode(picture, png ? "png" : "jpeg"));
                pictures.add(picture);
                isPng.add(png);
                labels.add((long) c);
            }
        }
        Path out = dir.resolve("out");
        Cli.Result r = Cli.run("convert", "--from", "images", images.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r::toString);
        assertEquals("converted 10 images of 2 classes to ofrecord in " + out + " (features encoded, class/label)", r.lines().get(0));

        try (DataReader reader = OFRecordReader.builder().files(List.of(out.resolve("part-00000"))).batchSize(pictures.size())
                .reader(o -> o.name("convert-images"))
                .decoder(OFRecordRawDecoder.of("class/label", Shape.of(1), DataType.INT64))
                .imageDecoder(ImageDecoder.of("encoded").colorSpace(ColorSpace.RGB))
                .build()) {
            Batch b = reader.read();
            assertEquals(pictures.size(), b.size());
            RaggedTensor pixels = b.ragged("encoded");
            Tensor shape = b.tensor("encoded.shape");
            for (int row = 0; row < b.size(); row++) {
                BufferedImage picture = pictures.get(row);
                assertEquals(List.of(picture.getHeight(), picture.getWidth(), 3),
                        List.of(shape.getInt(3L * row), shape.getInt(3L * row + 1), shape.getInt(3L * row + 2)), "size of image " + row);
                assertEquals(labels.get(row), b.tensor("class/label").getLong(row), "class of image " + row);
                if (isPng.get(row)) {
                    byte[] decoded = pixels.values().segment().asSlice(pixels.offset(row), pixels.rowLength(row))
                            .toArray(ValueLayout.JAVA_BYTE);
                    assertArrayEquals(TestImages.rgb(picture), decoded, "pixels of PNG " + row);
                }
            }
            assertNull(reader.read());
        }
    }

    @Test
    void partsThatWouldOverwriteTheirInputAreRefused() throws IOException {
        Path in = SharedTestData.file("oneflow-documentation/dataset/part-0");
        Path of = dir.resolve("of");
        assertEquals(0, Cli.run("convert", in.toString(), "--to", "ofrecord", "--parts", "1", "-o", of.toString()).code());
        byte[] before = Files.readAllBytes(of.resolve("part-00000"));
        Cli.Result r = Cli.run("convert", of.toString(), "--to", "tfrecord", "--parts", "1", "-o", of.toString());
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().startsWith("loader: the output would overwrite the input"), r::toString);
        assertArrayEquals(before, Files.readAllBytes(of.resolve("part-00000")));
    }

    @Test
    void compressedOFRecordOutputIsRefused() {
        Path in = SharedTestData.file("tensorflow-ecosystem/tf-records/part-m-00000");
        Cli.Result r = Cli.run("convert", in.toString(), "--compression", "gzip", "-o", dir.toString());
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.err().lines().count(), r::toString);
    }

    private static List<byte[]> read(Path file, Framing framing) {
        try {
            return new ArrayList<>(RecordReader.readAll(file, framing, null));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static OFRecord ofRecord(byte[] payload) {
        try {
            return OFRecord.parseFrom(payload);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }
}
