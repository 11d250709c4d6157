package org.dataloader4j.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.testkit.ExpectedRecords;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TFRecordFilesTest {
    private static final long SEED = 9;

    @TempDir
    Path dir;

    private List<Path> write(String name, int parts, int records, Compression compression) throws IOException {
        Random random = new Random(SEED);
        try (PartWriter w = PartWriter.create(dir.resolve(name), "part-", 5, parts, Framing.TFRECORD, compression)) {
            for (int i = 0; i < records; i++) {
                byte[] p = new byte[i == 3 ? 0 : random.nextInt(300)];
                random.nextBytes(p);
                w.write(p);
            }
            return w.files();
        }
    }

    private static List<RecordSlice> drain(TFRecordDataset ds) {
        List<RecordSlice> out = new ArrayList<>();
        for (List<RecordSlice> s = ds.next(); !s.isEmpty(); s = ds.next()) {
            out.add(s.get(0));
        }
        return out;
    }

    private static void assertSameAsSequential(List<Path> files, Path indexDir) {
        try (TFRecordDataset seq = new TFRecordDataset(files, 1, false, SEED, Compression.NONE, true);
             IndexedRecordDataset idx = (IndexedRecordDataset) TFRecordFiles.open(files, 1, true, indexDir)) {
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
            }
        }
    }

    @Test
    void theIndexFindsWhatTheSequentialDatasetReadsIncludingEmptyRecords() throws IOException {
        List<Path> files = write("parts", 3, 50, Compression.NONE);
        assertSameAsSequential(files, null);
        try (IndexedRecordDataset idx = (IndexedRecordDataset) TFRecordFiles.open(files, 1, true, null)) {
            assertTrue(idx.index(0).fromSidecar());
            // Written record 3 is the second of part 0 (records go round-robin).
            assertEquals(0, idx.at(1).payload().byteSize());
            assertThrows(IndexOutOfBoundsException.class, () -> idx.at(50));
        }
        // An index built without CRC checks is not reused by a checked scan, nor the other way.
        try (IndexedRecordDataset idx = (IndexedRecordDataset) TFRecordFiles.open(files, 1, false, null)) {
            assertFalse(idx.index(0).fromSidecar());
        }
    }

    @Test
    void aCrcErrorDuringTheScanIsWordedAsTensorFlowWordsIt() throws IOException {
        Path file = write("crc", 1, 5, Compression.NONE).get(0);
        byte[] bytes = Files.readAllBytes(file);
        long second;
        try (TFRecordDataset ds = new TFRecordDataset(List.of(file), 1, false, SEED, Compression.NONE, true)) {
            ds.next();
            second = ds.next().get(0).offset();
        }
        bytes[(int) second + 16] ^= 1;
        Files.write(file, bytes);
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> TFRecordFiles.open(List.of(file), 1, true, null));
        assertEquals("corrupted record at offset " + second + " in " + file + " (data CRC mismatch); record 1", e.getMessage());
        assertEquals(1, e.record());
        assertEquals(second, e.offset());
        assertFalse(Files.exists(RecordIndex.sidecarFor(file, null)));
        try (IndexedRecordDataset idx = (IndexedRecordDataset) TFRecordFiles.open(List.of(file), 1, false, null)) {
            assertEquals(5, idx.size());
        }
    }

    @Test
    void aCompressedFileIsRefused() throws IOException {
        Path file = write("gz", 1, 5, Compression.GZIP).get(0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TFRecordFiles.open(List.of(file), 1, true, null));
        assertTrue(e.getMessage().contains("compression=GZIP"), e.getMessage());
    }

    @Test
    void aRealZlibFileIsRefusedByItsContent() {
        Path path = SharedTestData.file("calico-baskerville/mm10/tfrecords/test-3.tfr");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TFRecordFiles.open(List.of(path), 1, true, dir));
        assertTrue(e.getMessage().contains("compression=ZLIB"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "tensorflow-tfx/mnist/mnist.tfrecord",
            "tensorflow-tfx/tfevents/events.out.tfevents.1646034751",
            "tensorflow-ecosystem/tf-records/part-m-00000",
            "google-research-exoplanet-ml/astrowavenet/test-dataset.tfrecord",
            "google-research-exoplanet-ml/astronet/test_dataset.tfrecord"})
    void realFilesIndexAsTheirExpectedFrames(String file) throws IOException {
        Path path = SharedTestData.file(file);
        ExpectedRecords expected = ExpectedRecords.load(file);
        assumeTrue("none".equals(expected.summary().compression()), file + " is compressed");
        // Never write beside the shared test data.
        try (IndexedRecordDataset idx = (IndexedRecordDataset) TFRecordFiles.open(List.of(path), 1, true, dir)) {
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
