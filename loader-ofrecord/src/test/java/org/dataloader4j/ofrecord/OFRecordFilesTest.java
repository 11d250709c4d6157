package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.files.IndexedRecordDataset;
import org.dataloader4j.core.files.RecordIndex;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.testkit.ExpectedRecords;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OFRecordFilesTest {
    private static final long SEED = 5;

    @TempDir
    Path dir;

    private static List<RecordSlice> drain(OFRecordDataset ds) {
        List<RecordSlice> out = new ArrayList<>();
        for (List<RecordSlice> s = ds.next(); !s.isEmpty(); s = ds.next()) {
            out.add(s.get(0));
        }
        return out;
    }

    /** Every record of {@code files} at the same place, with the same bytes, as the sequential dataset. */
    private static void assertSameAsSequential(List<Path> files, Path indexDir) {
        try (OFRecordDataset seq = new OFRecordDataset(files, 1, false, SEED);
             IndexedRecordDataset idx = (IndexedRecordDataset) OFRecordFiles.open(files, 1, indexDir)) {
            List<RecordSlice> expected = drain(seq);
            assertEquals(expected.size(), idx.size());
            for (int i = 0; i < expected.size(); i++) {
                RecordSlice want = expected.get(i);
                RecordSlice got = idx.at(i);
                assertEquals(want.file(), got.file(), "record " + i);
                assertEquals(want.index(), got.index(), "record " + i);
                assertEquals(want.offset(), got.offset(), "record " + i);
                assertArrayEquals(want.payload().toArray(ValueLayout.JAVA_BYTE), got.payload().toArray(ValueLayout.JAVA_BYTE),
                        "record " + i);
                assertArrayEquals(want.payload().toArray(ValueLayout.JAVA_BYTE),
                        idx.next().get(0).payload().toArray(ValueLayout.JAVA_BYTE), "next() " + i);
            }
            assertTrue(idx.next().isEmpty());
        }
    }

    @Test
    void theIndexFindsWhatTheSequentialDatasetReads() throws IOException {
        Random random = new Random(SEED);
        List<Path> files;
        try (PartWriter w = PartWriter.create(dir.resolve("parts"), 3)) {
            for (int i = 0; i < 40; i++) {
                byte[] p = new byte[1 + random.nextInt(300)];
                random.nextBytes(p);
                w.write(p);
            }
            files = w.files();
        }
        assertSameAsSequential(files, null);
        try (IndexedRecordDataset idx = (IndexedRecordDataset) OFRecordFiles.open(files, 1, null)) {
            assertTrue(idx.index(0).fromSidecar());
            assertThrows(IndexOutOfBoundsException.class, () -> idx.at(40));
        }
        assertSameAsSequential(files, null);
    }

    @Test
    void aDamagedFrameIsTheSequentialDatasetsError() throws IOException {
        Path file = dir.resolve("bad");
        PartWriter w = PartWriter.create(dir.resolve("p"), 1);
        try (w) {
            w.write(new byte[] {1, 2, 3});
            w.write(new byte[] {4, 5});
        }
        Files.copy(w.files().get(0), file);
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 1));
        CorruptDataException scan = assertThrows(CorruptDataException.class, () -> OFRecordFiles.open(List.of(file), 1, null));
        CorruptDataException seq;
        try (OFRecordDataset ds = new OFRecordDataset(List.of(file), 1, false, SEED)) {
            ds.next();
            seq = assertThrows(CorruptDataException.class, ds::next);
        }
        assertEquals(seq.getMessage(), scan.getMessage());
        assertEquals(1, scan.record());
        assertFalse(Files.exists(RecordIndex.sidecarFor(file, null)));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "oneflow-documentation/dataset/part-0",
            "oneflow-benchmark-metafinetuning/SST-2/train/train.of_record-0",
            "oneflow-benchmark-metafinetuning/SST-2/dev/dev.of_record-0",
            "oneflow-benchmark-metafinetuning/SST-2/eval/eval.of_record-0",
            "oneflow-benchmark-metafinetuning/k-shot-cross-g1/train/train.of_record-0"})
    void realFilesIndexAsTheirExpectedFrames(String file) throws IOException {
        Path path = SharedTestData.file(file);
        ExpectedRecords expected = ExpectedRecords.load(file);
        // Never write beside the shared test data.
        try (IndexedRecordDataset idx = (IndexedRecordDataset) OFRecordFiles.open(List.of(path), 1, dir)) {
            assertEquals(expected.summary().records(), idx.size());
            if (expected.hasFrames()) {
                for (ExpectedRecords.Frame f : expected.frames()) {
                    RecordSlice s = idx.at(f.index());
                    assertEquals(f.offset(), s.offset(), file + " record " + f.index());
                    assertTrue(f.matches(s.payload().toArray(ValueLayout.JAVA_BYTE)), file + " record " + f.index());
                }
            }
        }
        assertSameAsSequential(List.of(path), dir);
    }
}
