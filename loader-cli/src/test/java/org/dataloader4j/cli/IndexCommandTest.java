package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.dataloader4j.core.files.IndexedRecordDataset;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RecordConversion;
import org.dataloader4j.format.RecordWriter;
import org.dataloader4j.ofrecord.OFRecordFiles;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Indexes copies of the real files: the shared test data is never written to. */
class IndexCommandTest {
    @TempDir
    Path dir;

    @Test
    void writesSidecarsThatReadersThenUseAndKeepsFreshOnes() throws IOException {
        Path of = copy("oneflow-benchmark-metafinetuning/SST-2/eval/eval.of_record-0");
        Path tf = copy("tensorflow-tfx/mnist/mnist.tfrecord");
        Cli.Result r = Cli.run("index", dir.toString());
        assertEquals(0, r.code(), r::toString);
        assertEquals(List.of(of + ": 872 records, " + of + ".d4jidx (written)",
                tf + ": 1000 records, " + tf + ".d4jidx (written)"), r.lines());
        try (IndexedRecordDataset d = (IndexedRecordDataset) OFRecordFiles.open(List.of(of), 1, null)) {
            assertTrue(d.index(0).fromSidecar(), "a reader takes the sidecar instead of scanning");
            assertEquals(872, d.size());
        }
        Cli.Result again = Cli.run("index", dir.toString());
        assertEquals(0, again.code(), again::toString);
        assertTrue(again.lines().get(1).endsWith("(already up to date)"), again::toString);
    }

    @Test
    void theIndexDirOptionKeepsSidecarsElsewhere() throws IOException {
        Path of = copy("oneflow-documentation/dataset/part-0");
        Path sidecars = dir.resolve("sidecars");
        Cli.Result r = Cli.run("index", "--index-dir", sidecars.toString(), of.toString());
        assertEquals(0, r.code(), r::toString);
        assertTrue(Files.isRegularFile(sidecars.resolve("part-0.d4jidx")));
        assertFalse(Files.exists(dir.resolve("part-0.d4jidx")));
    }

    @Test
    void compressedAndDamagedFilesAreOneLineEachAndExitOne() throws IOException {
        Path gz = copy("tensorflow-ecosystem/zipped-tf-records/part-m-00000.gz");
        Path csv = copy("oneflow-documentation/mini_csv_not_ofrecord/part-000");
        Path good = copy("oneflow-documentation/dataset/part-0");
        Cli.Result r = Cli.run("index", gz.toString(), csv.toString(), good.toString());
        assertEquals(1, r.code(), r::toString);
        assertEquals(List.of(
                "loader: " + gz + ": cannot index a tfrecord, gzip file for random access; decompress it first",
                "loader: " + csv + ": length 3471767528134422065 exceeds file size 80 at record 0, offset 0"),
                r.err().lines().toList());
        assertEquals(List.of(good + ": 3 records, " + good + ".d4jidx (written)"), r.lines());
    }

    /**
     * {@code index} reads a file mapped, {@code inspect} as a stream: a damaged frame is the same
     * line from either, in TensorFlow's words for a TFRecord file.
     */
    @Test
    void aDamagedFrameIsTheSameLineFromTheIndexAsFromInspect() throws IOException {
        Path file = dir.resolve("data.tfrecord");
        try (RecordWriter w = RecordWriter.create(file, Framing.TFRECORD, Compression.NONE)) {
            for (int i = 0; i < 3; i++) {
                w.write(RecordConversion.toExample(Features.record(Map.of("i", Features.int64Feature(i)))).message());
            }
        }
        byte[] good = Files.readAllBytes(file);
        int second = good.length / 3;
        byte[] badData = good.clone();
        badData[second + 14] ^= 1;
        record Case(byte[] bytes, String reason) {
        }
        for (Case c : List.of(new Case(badData, "corrupted record (data CRC mismatch)"),
                new Case(Arrays.copyOf(good, second + 5), "truncated record (header: 5 of 12 bytes)"))) {
            Files.write(file, c.bytes());
            String line = "loader: " + file + ": " + c.reason() + " at record 1, offset " + second;
            Cli.Result index = Cli.run("index", file.toString());
            assertEquals(1, index.code(), index::toString);
            assertEquals(List.of(line), index.err().lines().toList());
            Cli.Result inspect = Cli.run("inspect", file.toString());
            assertEquals(1, inspect.code(), inspect::toString);
            assertEquals(List.of(line), inspect.err().lines().toList());
        }
    }

    private Path copy(String relative) throws IOException {
        Path source = SharedTestData.file(relative);
        return Files.copy(source, dir.resolve(source.getFileName()));
    }
}
