package org.dataloader4j.core.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.core.dataset.RecordSlice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RecordIndexTest {
    private static final long SEED = 11;

    @TempDir
    Path dir;

    /** A toy rule: a one-byte length, the payload, a one-byte footer that must be 0x7f. */
    static final FrameReader TOY = new FrameReader() {
        @Override
        public int headerBytes() {
            return 1;
        }

        @Override
        public int footerBytes() {
            return 1;
        }

        @Override
        public int ruleId() {
            return 99;
        }

        @Override
        public int payloadLength(MemorySegment file, long offset, String name, long record) {
            int length = file.get(ValueLayout.JAVA_BYTE, offset) & 0xff;
            if (offset + 2 + length > file.byteSize() || file.get(ValueLayout.JAVA_BYTE, offset + 1 + length) != 0x7f) {
                throw new CorruptDataException(name, record, offset, "bad toy frame");
            }
            return length;
        }

        @Override
        public int payloadLength(MemorySegment frame, long offset, long fileSize, String name, long record) {
            int length = frame.get(ValueLayout.JAVA_BYTE, 0) & 0xff;
            if (offset + 2 + length > fileSize || frame.get(ValueLayout.JAVA_BYTE, 1 + length) != 0x7f) {
                throw new CorruptDataException(name, record, offset, "bad toy frame");
            }
            return length;
        }
    };

    private static List<byte[]> payloads(int n, long seed) {
        Random random = new Random(seed);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] p = new byte[random.nextInt(40)];
            random.nextBytes(p);
            out.add(p);
        }
        return out;
    }

    private Path write(String name, List<byte[]> records) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] r : records) {
            out.write(r.length);
            out.write(r);
            out.write(0x7f);
        }
        Path file = dir.resolve(name);
        Files.write(file, out.toByteArray());
        return file;
    }

    private static void assertPayloads(List<byte[]> expected, IndexedRecordDataset ds) {
        assertEquals(expected.size(), ds.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), ds.at(i).payload().toArray(ValueLayout.JAVA_BYTE), "record " + i + ", seed " + SEED);
        }
    }

    @Test
    void atCountsAcrossFilesIncludingEmptyOnes() throws IOException {
        List<byte[]> records = payloads(30, SEED);
        Path a = write("a", records.subList(0, 10));
        Path empty = write("b", List.of());
        Path c = write("c", records.subList(10, 30));
        try (IndexedRecordDataset ds = new IndexedRecordDataset(List.of(empty, a, empty, c, empty), TOY, 1, null)) {
            assertPayloads(records, ds);
            RecordSlice s = ds.at(12);
            assertEquals(c.toString(), s.file());
            assertEquals(2, s.index());
            assertEquals(ds.index(3).offset(2), s.offset());
            assertThrows(IndexOutOfBoundsException.class, () -> ds.at(30));
            assertThrows(IndexOutOfBoundsException.class, () -> ds.at(-1));
        }
    }

    @Test
    void nextYieldsEveryRecordInOrderEachEpochAndResumes() throws IOException {
        List<byte[]> records = payloads(7, SEED);
        Path a = write("a", records);
        try (IndexedRecordDataset ds = new IndexedRecordDataset(List.of(a), TOY, 2, null);
             IndexedRecordDataset resumed = new IndexedRecordDataset(List.of(a), TOY, 2, null)) {
            DatasetState mid = null;
            for (int i = 0; i < 14; i++) {
                if (i == 9) {
                    mid = ds.state();
                }
                List<RecordSlice> s = ds.next();
                assertEquals(i / 7, ds.epoch());
                assertArrayEquals(records.get(i % 7), s.get(0).payload().toArray(ValueLayout.JAVA_BYTE));
            }
            assertTrue(ds.next().isEmpty());
            assertTrue(ds.next().isEmpty());
            resumed.restore(DatasetStateCodec.fromText(DatasetStateCodec.toText(mid)));
            for (int i = 9; i < 14; i++) {
                assertArrayEquals(records.get(i % 7), resumed.next().get(0).payload().toArray(ValueLayout.JAVA_BYTE));
            }
            assertTrue(resumed.next().isEmpty());
            resumed.restore(ds.state());
            assertTrue(resumed.next().isEmpty());
        }
    }

    @Test
    void slicesAreValidUntilClose() throws IOException {
        Path a = write("a", payloads(3, SEED));
        IndexedRecordDataset ds = new IndexedRecordDataset(List.of(a), TOY, 1, null);
        RecordSlice s = ds.at(1);
        s.payload().toArray(ValueLayout.JAVA_BYTE);
        ds.close();
        ds.close();
        assertThrows(IllegalStateException.class, () -> s.payload().get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> ds.at(0));
    }

    @Test
    void theSidecarIsWrittenThenReused() throws IOException {
        Path a = write("a", payloads(20, SEED));
        try (IndexedRecordDataset ds = new IndexedRecordDataset(List.of(a), TOY, 1, null)) {
            assertFalse(ds.index(0).fromSidecar());
        }
        Path sidecar = RecordIndex.sidecarFor(a, null);
        assertTrue(Files.isRegularFile(sidecar));
        assertEquals(RecordIndex.HEADER + 4 * 20 + 4, Files.size(sidecar));
        try (IndexedRecordDataset ds = new IndexedRecordDataset(List.of(a), TOY, 1, null)) {
            assertTrue(ds.index(0).fromSidecar());
            assertPayloads(payloads(20, SEED), ds);
        }
    }

    @Test
    void theSidecarCanLiveInAnotherDirectory() throws IOException {
        Path a = write("a", payloads(5, SEED));
        Path indexes = Files.createDirectory(dir.resolve("indexes"));
        try (IndexedRecordDataset ds = new IndexedRecordDataset(List.of(a), TOY, 1, indexes)) {
            assertFalse(ds.index(0).fromSidecar());
        }
        assertTrue(Files.isRegularFile(indexes.resolve("a" + RecordIndex.SUFFIX)));
        assertFalse(Files.exists(RecordIndex.sidecarFor(a, null)));
    }

    @Test
    void aChangedFileIsScannedAgain() throws IOException {
        Path a = write("a", payloads(20, SEED));
        new IndexedRecordDataset(List.of(a), TOY, 1, null).close();
        // Same size and content, another modification time.
        Files.setLastModifiedTime(a, FileTime.fromMillis(Files.getLastModifiedTime(a).toMillis() + 5_000));
        try (IndexedRecordDataset ds = new IndexedRecordDataset(List.of(a), TOY, 1, null)) {
            assertFalse(ds.index(0).fromSidecar());
        }
        // Other size, modification time put back to what the sidecar says.
        FileTime mtime = Files.getLastModifiedTime(a);
        write("a", payloads(21, SEED));
        Files.setLastModifiedTime(a, mtime);
        try (IndexedRecordDataset ds = new IndexedRecordDataset(List.of(a), TOY, 1, null)) {
            assertFalse(ds.index(0).fromSidecar());
            assertPayloads(payloads(21, SEED), ds);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"empty", "truncated", "flipped-length", "flipped-crc", "bad-magic", "bad-version", "other-rule", "longer"})
    void aDamagedSidecarIsNeverTrusted(String damage) throws IOException {
        List<byte[]> records = payloads(20, SEED);
        Path a = write("a", records);
        new IndexedRecordDataset(List.of(a), TOY, 1, null).close();
        Path sidecar = RecordIndex.sidecarFor(a, null);
        byte[] bytes = Files.readAllBytes(sidecar);
        byte[] damaged = switch (damage) {
            case "empty" -> new byte[0];
            case "truncated" -> Arrays.copyOf(bytes, bytes.length - 5);
            case "flipped-length" -> flip(bytes, RecordIndex.HEADER + 4);
            case "flipped-crc" -> flip(bytes, bytes.length - 1);
            case "bad-magic" -> flip(bytes, 0);
            case "bad-version" -> flip(bytes, 8);
            case "other-rule" -> flip(bytes, 12);
            default -> Arrays.copyOf(bytes, bytes.length + 4);
        };
        Files.write(sidecar, damaged);
        try (IndexedRecordDataset ds = new IndexedRecordDataset(List.of(a), TOY, 1, null)) {
            assertFalse(ds.index(0).fromSidecar());
            assertPayloads(records, ds);
        }
        assertArrayEquals(bytes, Files.readAllBytes(sidecar), "the sidecar is rewritten");
    }

    private static byte[] flip(byte[] bytes, int at) {
        byte[] copy = bytes.clone();
        copy[at] ^= 0x10;
        return copy;
    }

    @Test
    void anUnwritableDirectoryKeepsTheIndexInMemory() throws IOException {
        Path a = write("a", payloads(4, SEED));
        Path notADir = Files.writeString(dir.resolve("not-a-dir"), "x");
        try (IndexedRecordDataset ds = new IndexedRecordDataset(List.of(a), TOY, 1, notADir)) {
            assertFalse(ds.index(0).fromSidecar());
            assertPayloads(payloads(4, SEED), ds);
        }
        try (var files = Files.list(dir)) {
            assertEquals(List.of("a", "not-a-dir"), files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void aDamagedFrameFailsTheScanAndWritesNoSidecar() throws IOException {
        Path a = write("a", payloads(4, SEED));
        byte[] bytes = Files.readAllBytes(a);
        bytes[bytes.length - 1] = 0;
        Files.write(a, bytes);
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> new IndexedRecordDataset(List.of(a), TOY, 1, null));
        assertEquals(3, e.record());
        assertFalse(Files.exists(RecordIndex.sidecarFor(a, null)));
    }
}
