package org.dataloader4j.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.testkit.ExpectedRecord;
import org.dataloader4j.testkit.ExpectedRecords;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link FileConversion}: whole files and part-file sets between OFRecord and TFRecord, in any
 * compression. Real TensorFlow files converted to OFRecord still match their expected JSON (the
 * kinds keep their names), real OneFlow files survive OFRecord to TFRecord and back, and files
 * that hold something else than the schema are refused, leaving no output behind.
 */
class FileConversionTest {
    @TempDir
    Path dir;

    /** Converted to gzip-compressed OFRecord, each tf.Example file reads back as its expected values. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "tensorflow-ecosystem/tf-records/part-m-00000",
        "tensorflow-tfx/penguin/Split-eval/data_tfrecord-00000-of-00001.gz",
        "tensorflow-tfx/csv_example_gen/Split-eval/data_tfrecord-00000-of-00012.gz",
        "tensorflow-tfx/mnist/mnist.tfrecord",
        "tensorflow-tfx/tfjs_next_page_prediction/data.tfrecord.gz",
        "google-research-exoplanet-ml/astrowavenet/test-dataset.tfrecord",
        "calico-baskerville/mm10/tfrecords/test-3.tfr",
        "calico-baskerville/mm10/tfrecords/train-7.tfr",
    })
    @Timeout(60)
    void realExamplesConvertToOFRecordsWithTheirValues(String relative) throws IOException {
        Path in = SharedTestData.file(relative);
        ExpectedRecords expected = ExpectedRecords.load(relative);
        Path out = dir.resolve("part-00000");
        FileConversion.Report report = FileConversion.convert(in, out, FileConversion.Options.toOFRecord(Compression.GZIP));
        assertEquals(new FileConversion.Report(1, expected.summary().records(), 0, 0, List.of()), report, relative);
        assertEquals(Compression.GZIP, Compression.detect(out, Framing.OFRECORD), relative + ": even with no records");

        List<byte[]> payloads = RecordReader.readAll(out, Framing.OFRECORD, null);
        assertEquals(expected.summary().records(), payloads.size(), relative);
        for (ExpectedRecord want : expected.records().values()) {
            OFRecord got = OFRecord.parseFrom(payloads.get(Math.toIntExact(want.index())));
            RealOFRecordFilesTest.assertRecord(want, got, relative + ": record " + want.index());
        }
    }

    /** OneFlow's files, int32 lists included, to TFRecord (zlib) and back to OFRecord. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "oneflow-documentation/dataset/part-0",
        "oneflow-benchmark-metafinetuning/SST-2/train/train.of_record-0",
    })
    void realOFRecordsGoToTFRecordAndBack(String relative) throws IOException {
        Path in = SharedTestData.file(relative);
        Path tf = dir.resolve("data.tfrecord.zz");
        Path back = dir.resolve("part-0");
        FileConversion.Report there = FileConversion.convert(in, tf, FileConversion.Options.toTFRecord(Compression.ZLIB));
        FileConversion.Report home = FileConversion.convert(tf, back, FileConversion.Options.toOFRecord(Compression.NONE));
        List<byte[]> original = RecordReader.readAll(in);
        assertTrue(there.exact() && home.exact(), relative);
        assertEquals(original.size(), there.records());
        assertEquals(original.size(), home.records());

        List<byte[]> examples = RecordReader.readAll(tf, Framing.TFRECORD, Compression.ZLIB);
        List<byte[]> result = RecordReader.readAll(back);
        for (int i = 0; i < original.size(); i++) {
            OFRecord o = OFRecord.parseFrom(original.get(i));
            assertEquals(RecordConversion.toExample(o).message(), Example.parseFrom(examples.get(i)), relative + ": record " + i);
            assertEquals(RecordConversion.toOFRecord(RecordConversion.toExample(o).message()).message(),
                    OFRecord.parseFrom(result.get(i)), relative + ": record " + i);
        }
    }

    /** A SequenceExample's feature lists (field 2) and a TensorBoard event are not tf.Examples: refused, not half converted. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "tensorflow-transform/sequence_example/data_tfrecord.gz",
        "tensorflow-tfx/tfevents/events.out.tfevents.1646034751",
    })
    void payloadsThatAreNotExamplesAreRefused(String relative) throws IOException {
        Path in = SharedTestData.file(relative);
        Path out = dir.resolve("part-00000");
        CorruptRecordException e = assertThrows(CorruptRecordException.class,
                () -> FileConversion.convert(in, out, FileConversion.Options.toOFRecord(Compression.NONE)));
        assertEquals(0, e.record(), e::getMessage);
        assertEquals(in.toString(), e.file());
        assertTrue(e.reason().startsWith("payload is not a tf.Example"), e::getMessage);
        assertFalse(Files.exists(out), "no half-written output");
    }

    /** A part-file set stays one, names kept; every narrowed double is counted, the first hundred listed. */
    @Test
    void aPartFileSetConvertsPartByPartAndReportsItsLosses() throws IOException {
        Path src = dir.resolve("src");
        List<Path> parts;
        try (PartWriter w = PartWriter.create(src, 3)) {
            for (int i = 0; i < 150; i++) {
                w.write(Features.record(Map.of("x", Features.doubleFeature(i, i + 0.1), "y", Features.int32Feature(i))));
            }
            parts = w.files();
        }
        Path outDir = dir.resolve("out");
        FileConversion.Report report = FileConversion.convertAll(parts, outDir, FileConversion.Options.toTFRecord(Compression.GZIP));
        assertEquals(3, report.files());
        assertEquals(150, report.records());
        assertEquals(150, report.lossyRecords());
        assertEquals(150, report.lossCount());
        assertEquals(FileConversion.LISTED_LOSSES, report.losses().size());
        assertEquals(new FileConversion.RecordLoss(parts.get(0).toString(), 0,
                new Conversion.Loss("x", "double_list", "float_list", 2, 1, 1)), report.losses().get(0));
        assertEquals(parts.get(1).toString(), report.losses().get(50).file(), "file by file, in order");
        for (int p = 0; p < 3; p++) {
            Path converted = outDir.resolve(parts.get(p).getFileName());
            List<byte[]> examples = RecordReader.readAll(converted, Framing.TFRECORD, null);
            assertEquals(50, examples.size());
            for (int i = 0; i < 50; i++) {
                int record = p + 3 * i;
                Map<String, org.dataloader4j.format.tf.Feature> f = Example.parseFrom(examples.get(i)).getFeatures().getFeatureMap();
                assertEquals(List.of((float) record, (float) (record + 0.1)), f.get("x").getFloatList().getValueList());
                assertEquals(List.of((long) record), f.get("y").getInt64List().getValueList());
            }
        }
    }

    /** Records of several files are spread over new parts in input order: record i goes to part i % parts. */
    @Test
    void convertIntoSpreadsTheRecordsOfAllInputsOverTheParts() throws IOException {
        List<Path> inputs = new ArrayList<>();
        for (int f = 0; f < 2; f++) {
            Path in = dir.resolve("in-" + f + ".tfrecord");
            try (RecordWriter w = RecordWriter.create(in, Framing.TFRECORD, Compression.GZIP)) {
                for (int i = 0; i < 5; i++) {
                    w.write(RecordConversion.toExample(Features.record(Map.of("n", Features.int64Feature(10L * f + i)))).message());
                }
            }
            inputs.add(in);
        }
        Path outDir = dir.resolve("parts");
        FileConversion.Report report;
        try (PartWriter out = PartWriter.create(outDir, 3)) {
            report = FileConversion.convertInto(inputs, out, FileConversion.Options.toOFRecord(Compression.NONE));
        }
        assertEquals(2, report.files());
        assertEquals(10, report.records());
        assertTrue(report.exact());
        long[] expected = {0, 1, 2, 3, 4, 10, 11, 12, 13, 14};
        for (int p = 0; p < 3; p++) {
            List<byte[]> records = RecordReader.readAll(outDir.resolve(String.format("part-%05d", p)));
            for (int i = 0; i < records.size(); i++) {
                assertEquals(List.of(expected[p + 3 * i]),
                        OFRecord.parseFrom(records.get(i)).getFeatureMap().get("n").getInt64List().getValueList());
            }
            assertEquals(p == 0 ? 4 : 3, records.size());
        }
    }

    @Test
    void sameFramingRecompressesPayloadsUnchanged() throws IOException {
        Random random = new Random(9);
        List<byte[]> payloads = new ArrayList<>();
        Path in = dir.resolve("in.tfrecord");
        try (RecordWriter w = RecordWriter.create(in, Framing.TFRECORD, Compression.NONE)) {
            for (int i = 0; i < 20; i++) {
                byte[] p = new byte[random.nextInt(50)]; // not tf.Examples at all, and some empty
                random.nextBytes(p);
                payloads.add(p);
                w.write(p);
            }
        }
        Path out = dir.resolve("out.tfrecord.gz");
        FileConversion.convert(in, out, new FileConversion.Options(Framing.TFRECORD, null, Framing.TFRECORD, Compression.GZIP));
        List<byte[]> read = RecordReader.readAll(out, Framing.TFRECORD, null);
        for (int i = 0; i < payloads.size(); i++) {
            assertArrayEquals(payloads.get(i), read.get(i), "seed=9, record " + i);
        }
    }

    /** OneFlow refuses empty frames, and an Example without features is an empty OFRecord. */
    @Test
    void anExampleWithoutFeaturesCannotBecomeAnOFRecordFrame() throws IOException {
        Path in = dir.resolve("in.tfrecord");
        try (RecordWriter w = RecordWriter.create(in, Framing.TFRECORD, Compression.NONE)) {
            w.write(RecordConversion.toExample(Features.record(Map.of("a", Features.int64Feature(1)))).message());
            w.write(Example.getDefaultInstance());
        }
        Path out = dir.resolve("part-0");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FileConversion.convert(in, out, FileConversion.Options.toOFRecord(Compression.NONE)));
        assertEquals("record 1 of " + in + " has no features: an empty OFRecord cannot be framed (OneFlow refuses empty frames)",
                e.getMessage());
        assertFalse(Files.exists(out));
    }

    @Test
    void inputsAreNeverOverwritten() throws IOException {
        Path a = dir.resolve("a");
        Files.createDirectories(a);
        Path part = a.resolve("part-0");
        try (RecordWriter w = RecordWriter.create(part)) {
            w.write(Features.record(Map.of("x", Features.int64Feature(1))));
        }
        byte[] before = Files.readAllBytes(part);
        assertThrows(IllegalArgumentException.class,
                () -> FileConversion.convert(part, part, FileConversion.Options.toTFRecord(Compression.NONE)));
        assertThrows(IllegalArgumentException.class,
                () -> FileConversion.convertAll(List.of(part), a, FileConversion.Options.toTFRecord(Compression.NONE)));
        assertArrayEquals(before, Files.readAllBytes(part));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> FileConversion.convertAll(List.of(part, dir.resolve("b/part-0")), dir.resolve("out"),
                        FileConversion.Options.toTFRecord(Compression.NONE)));
        assertTrue(twice.getMessage().startsWith("two inputs named part-0"), twice::getMessage);
    }
}
