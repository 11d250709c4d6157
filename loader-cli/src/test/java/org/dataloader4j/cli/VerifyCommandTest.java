package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RecordWriter;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerifyCommandTest {
    @TempDir
    Path dir;

    @Test
    void realRecordFilesAreAllValid() {
        Path root = SharedTestData.file("SOURCES.md").getParent();
        Cli.Result r = Cli.run("verify", root.resolve("tensorflow-tfx/penguin").toString(),
                root.resolve("tensorflow-transform").toString(), root.resolve("oneflow-benchmark-metafinetuning").toString(),
                root.resolve("calico-baskerville").toString(), root.resolve("tensorflow-tfx/mnist/mnist.tfrecord").toString());
        assertEquals(0, r.code(), r::toString);
        // 100 + 234 penguins, 3 sequence examples, 32 + 32 + 872 + 96 OneFlow records, 1 + 0 calico, 1000 mnist.
        assertEquals(List.of("10 files, 2370 records: all valid"), r.lines());
        assertEquals("", r.err());
    }

    @Test
    void aTruncatedFileIsOneLineWithFileAndOffsetAndExitsOne() throws IOException {
        Path file = dir.resolve("part-00003");
        byte[] real = Files.readAllBytes(SharedTestData.file("oneflow-documentation/dataset/part-0"));
        Files.write(file, java.util.Arrays.copyOf(real, 3181 + 100));
        Cli.Result r = Cli.run("verify", file.toString());
        assertEquals(1, r.code(), r::toString);
        assertEquals(List.of(file + ":3181: length 3173 exceeds file size 3281 (record 1)", "1 file, 1 record: 1 problem"), r.lines());
    }

    @Test
    void aDamagedCrcIsFoundInACompressedTFRecordFile() throws IOException {
        Path file = dir.resolve("data.tfrecord");
        try (RecordWriter w = RecordWriter.create(file, Framing.TFRECORD, Compression.NONE)) {
            for (int i = 0; i < 3; i++) {
                w.write(org.dataloader4j.format.RecordConversion.toExample(Features.record(Map.of("i", Features.int64Feature(i)))).message());
            }
        }
        byte[] bytes = Files.readAllBytes(file);
        int second = bytes.length / 3;
        bytes[second + 14] ^= 1;
        Files.write(file, bytes);
        Cli.Result r = Cli.run("verify", file.toString());
        assertEquals(1, r.code(), r::toString);
        assertEquals(file + ":" + second + ": corrupted record (data CRC mismatch) (record 1)", r.lines().get(0), r::toString);
    }

    /** TensorBoard events are valid TFRecord frames around payloads that are not tf.Examples. */
    @Test
    void payloadsThatAreNotExamplesAreProblemsUnlessFramingOnly() {
        Path file = SharedTestData.file("tensorflow-tfx/tfevents/events.out.tfevents.1646034751");
        Cli.Result r = Cli.run("verify", file.toString());
        assertEquals(1, r.code(), r::toString);
        assertEquals(8, r.lines().size(), r::toString);
        assertEquals(file + ":0: payload is not a tf.Example or tf.SequenceExample: it has fields the schema lacks (fields 1, 3) (record 0)",
                r.lines().get(0));
        assertEquals("1 file, 7 records: 7 problems", r.lines().get(7));

        Cli.Result framing = Cli.run("verify", "--framing-only", file.toString());
        assertEquals(0, framing.code(), framing::toString);
        assertEquals(List.of("1 file, 7 records: all valid"), framing.lines());
    }

    /** On a terminal the bar goes to standard error and is wiped before each result line. */
    @Test
    void theProgressBarIsOnStandardErrorOnlyAndClearedBeforeResults() throws IOException {
        Path file = dir.resolve("part-00000");
        byte[] real = Files.readAllBytes(SharedTestData.file("oneflow-documentation/dataset/part-0"));
        Files.write(file, java.util.Arrays.copyOf(real, 3181 + 100));
        Cli.Result r = Cli.onTerminal("verify", file.toString());
        assertEquals(1, r.code(), r::toString);
        assertTrue(r.err().startsWith("\rverify ["), r::toString);
        assertTrue(r.err().endsWith("\r"), "the bar's line is cleared: " + r);
        assertEquals(List.of(file + ":3181: length 3173 exceeds file size 3281 (record 1)", "1 file, 1 record: 1 problem"),
                r.lines());
        assertEquals("", Cli.run("verify", file.toString()).err(), "no bar off a terminal");
    }

    @Test
    void aMissingFileExitsThree() {
        Cli.Result r = Cli.run("verify", dir.resolve("nope").toString());
        assertEquals(3, r.code(), r::toString);
        assertEquals(List.of("loader: " + dir.resolve("nope") + ": no such file or folder"), r.err().lines().toList());
        assertTrue(r.out().isEmpty(), r::toString);
    }
}
