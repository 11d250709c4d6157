package org.dataloader4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.testkit.DocSnippets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The custom format of docs/custom-format.md: every point read once an epoch, resumed exactly, bad files named. */
@Timeout(60)
class PointsFormatTest {
    @TempDir
    Path dir;

    /** A batch as the loop sees it: its step, epoch per row, and coordinates. */
    private record Seen(long step, List<Long> epochs, List<Float> xy) {
        static Seen of(Batch b) {
            List<Long> epochs = new ArrayList<>();
            for (int row = 0; row < b.size(); row++) {
                epochs.add(b.epoch(row));
            }
            List<Float> xy = new ArrayList<>();
            for (float f : b.tensor("xy").toFloatArray()) {
                xy.add(f);
            }
            return new Seen(b.index(), epochs, xy);
        }
    }

    private static List<Seen> readAll(DataReader reader) {
        try (reader) {
            List<Seen> out = new ArrayList<>();
            for (Batch b : reader) {
                out.add(Seen.of(b));
            }
            return out;
        }
    }

    @Test
    void everyPointIsReadOnceAnEpoch() throws IOException {
        Path file = dir.resolve("a.pts");
        PointsFormat.write(file, 100, 1);
        List<Float> expected = new ArrayList<>();
        try (var points = new PointsFormat.PointsDataset(file, 1)) {
            for (var p = points.next(); !p.isEmpty(); p = points.next()) {
                expected.add(p.get(0).x());
            }
        }
        List<Float> read = new ArrayList<>();
        try (DataReader reader = PointsFormat.open(file, 16, 2, null)) {
            assertEquals(OptionalLong.of(7), reader.stepsPerEpoch(), "ceil(100 / 16)");
            for (Batch b : reader) {
                float[] xy = b.tensor("xy").toFloatArray();
                int[] labels = b.tensor("label").toIntArray();
                for (int row = 0; row < b.size(); row++) {
                    read.add(xy[2 * row]);
                    assertEquals(xy[2 * row] + xy[2 * row + 1] > 0 ? 1 : 0, labels[row]);
                }
            }
        }
        List<Float> twice = new ArrayList<>(expected);
        twice.addAll(expected);
        assertEquals(twice.stream().sorted().toList(), read.stream().sorted().toList());
    }

    @Test
    void aRestoredReaderGoesOnWithTheNextBatchAtEveryBatch() throws IOException {
        Path file = dir.resolve("b.pts");
        PointsFormat.write(file, 50, 2);
        List<Seen> whole = new ArrayList<>();
        List<DatasetState> states = new ArrayList<>();
        try (DataReader reader = PointsFormat.open(file, 8, 2, null)) {
            states.add(reader.state());
            for (Batch b : reader) {
                whole.add(Seen.of(b));
                states.add(reader.state());
            }
        }
        assertEquals(13, whole.size(), "100 points in batches of 8");
        for (int k = 0; k < states.size(); k++) {
            List<Seen> rest = readAll(PointsFormat.open(file, 8, 2, states.get(k)));
            assertEquals(whole.subList(k, whole.size()), rest, "resumed after " + k + " batches");
        }
    }

    @Test
    void aFileThatIsNoPointsFileIsNamed() throws IOException {
        Path notPoints = Files.write(dir.resolve("c.pts"), "hello".getBytes(StandardCharsets.US_ASCII));
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> new PointsFormat.PointsDataset(notPoints, 1));
        assertTrue(e.getMessage().contains(notPoints.toString()) && e.getMessage().contains("PTS1"), e.getMessage());

        Path cut = dir.resolve("d.pts");
        PointsFormat.write(cut, 10, 3);
        byte[] bytes = Files.readAllBytes(cut);
        Files.write(cut, Arrays.copyOf(bytes, bytes.length - 5));
        e = assertThrows(CorruptDataException.class, () -> new PointsFormat.PointsDataset(cut, 1));
        assertEquals(9, e.record());
        assertEquals(4 + 9 * 12, e.offset());
    }

    @Test
    void mainResumesWhereItStopped() throws IOException {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            PointsFormat.main(new String[] {dir.resolve("e.pts").toString()});
        } finally {
            System.setOut(old);
        }
        // 2 epochs of 1,000 points in batches of 32: 63 batches, 5 before the restart.
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("then 58 batches from step 5"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void everyJavaBlockOfTheGuideIsTheSample() {
        DocSnippets.assertEveryBlockIsRun(DocSnippets.projectFile("docs/custom-format.md"),
                DocSnippets.projectFile("samples/src/main/java/org/dataloader4j/samples/PointsFormat.java"));
    }
}
