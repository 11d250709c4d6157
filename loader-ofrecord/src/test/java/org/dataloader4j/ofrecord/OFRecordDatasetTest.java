package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.testing.FramingChecks;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RecordReader;
import org.dataloader4j.format.RecordWriter;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OFRecordDatasetTest {
    private static final long SEED = 11;

    @TempDir
    Path dir;

    /** Writes {@code counts[i]} random payloads to part-i and returns every payload in file order. */
    private List<byte[]> writeParts(int... counts) throws IOException {
        Random random = new Random(SEED);
        List<byte[]> all = new ArrayList<>();
        for (int part = 0; part < counts.length; part++) {
            try (RecordWriter w = RecordWriter.create(dir.resolve("part-" + part))) {
                for (int i = 0; i < counts[part]; i++) {
                    byte[] payload = new byte[1 + random.nextInt(300)];
                    random.nextBytes(payload);
                    w.write(payload);
                    all.add(payload);
                }
            }
        }
        return all;
    }

    private List<Path> parts(int n) {
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            files.add(dir.resolve("part-" + i));
        }
        return files;
    }

    private static List<byte[]> drain(Dataset<RecordSlice> ds) {
        List<byte[]> out = new ArrayList<>();
        for (List<RecordSlice> s = ds.next(); !s.isEmpty(); s = ds.next()) {
            out.add(s.get(0).payload().toArray(ValueLayout.JAVA_BYTE));
        }
        return out;
    }

    @Test
    void readsEveryRecordInFileOrderWithEmptyFilesAnywhere() throws IOException {
        List<byte[]> expected = writeParts(0, 5, 0, 0, 3, 0);
        try (OFRecordDataset ds = new OFRecordDataset(parts(6), 1, false, SEED)) {
            List<byte[]> actual = drain(ds);
            assertEquals(expected.size(), actual.size());
            for (int i = 0; i < expected.size(); i++) {
                assertArrayEquals(expected.get(i), actual.get(i), "record " + i);
            }
        }
    }

    @Test
    void aSliceNamesItsFileIndexAndOffset() throws IOException {
        List<byte[]> payloads = writeParts(3);
        try (OFRecordDataset ds = new OFRecordDataset(parts(1), 1, false, SEED)) {
            long offset = 0;
            for (int i = 0; i < 3; i++) {
                RecordSlice s = ds.next().get(0);
                assertEquals(dir.resolve("part-0").toString(), s.file());
                assertEquals(i, s.index());
                assertEquals(offset, s.offset());
                offset += 8 + payloads.get(i).length;
            }
        }
    }

    @Test
    void epochsRepeatTheFilesAndShuffleAfterEpochReordersThem() throws IOException {
        writeParts(2, 2, 2, 2, 2, 2, 2, 2);
        List<byte[]> plain;
        List<byte[]> shuffled;
        try (OFRecordDataset ds = new OFRecordDataset(parts(8), 3, false, SEED)) {
            plain = drain(ds);
        }
        try (OFRecordDataset ds = new OFRecordDataset(parts(8), 3, true, SEED)) {
            shuffled = drain(ds);
        }
        assertEquals(48, plain.size());
        assertEquals(48, shuffled.size());
        for (int i = 0; i < 16; i++) {
            assertArrayEquals(plain.get(i), plain.get(16 + i), "without shuffle every epoch is the same");
            assertArrayEquals(plain.get(i), shuffled.get(i), "epoch 0 reads the files as given");
        }
        boolean reordered = false;
        for (int i = 16; i < 48; i++) {
            reordered |= !java.util.Arrays.equals(plain.get(i), shuffled.get(i));
        }
        assertTrue(reordered, "later epochs read the files in another order, seed=" + SEED);
    }

    @ParameterizedTest(name = "after {0} records")
    @ValueSource(ints = {0, 1, 4, 5, 9, 10, 17, 20})
    void stateAndRestoreContinueExactly(int taken) throws IOException {
        writeParts(4, 0, 6);
        List<byte[]> rest;
        DatasetState state;
        try (OFRecordDataset ds = new OFRecordDataset(parts(3), 2, true, SEED)) {
            for (int i = 0; i < taken; i++) {
                ds.next();
            }
            state = DatasetStateCodec.fromText(DatasetStateCodec.toText(ds.state()));
            rest = drain(ds);
        }
        try (OFRecordDataset resumed = new OFRecordDataset(parts(3), 2, true, 999)) {
            resumed.restore(state);
            List<byte[]> again = drain(resumed);
            assertEquals(rest.size(), again.size(), "state " + state);
            for (int i = 0; i < rest.size(); i++) {
                assertArrayEquals(rest.get(i), again.get(i));
            }
        }
    }

    /** Appends raw bytes after {@code good} valid records. */
    private Path fileWith(int good, byte[] tail) throws IOException {
        writeParts(good);
        Path file = dir.resolve("part-0");
        Files.write(file, tail, java.nio.file.StandardOpenOption.APPEND);
        return file;
    }

    private static byte[] frameHeader(long length, int payloadBytes) {
        return ByteBuffer.allocate(8 + payloadBytes).order(ByteOrder.LITTLE_ENDIAN).putLong(length).array();
    }

    @Test
    void badFramesAreErrorsNamingFileRecordAndOffsetAfterEveryGoodRecord() throws IOException {
        record Case(byte[] tail, String reason) {
        }
        List<Case> cases = List.of(
                new Case(new byte[] {1, 2, 3}, "truncated length: 3 of 8 bytes"),
                new Case(frameHeader(0, 4), "length 0"),
                new Case(frameHeader(-5, 4), "length -5 is negative"),
                new Case(frameHeader(100, 10), "length 100 exceeds file size"));
        for (Case c : cases) {
            Path file = fileWith(3, c.tail());
            long goodBytes = Files.size(file) - c.tail().length;
            try (OFRecordDataset ds = new OFRecordDataset(List.of(file), 1, false, SEED)) {
                for (int i = 0; i < 3; i++) {
                    assertFalse(ds.next().isEmpty(), "good record " + i);
                }
                CorruptDataException e = assertThrows(CorruptDataException.class, ds::next);
                assertEquals(file.toString(), e.file());
                assertEquals(3, e.record());
                assertEquals(goodBytes, e.offset());
                assertTrue(e.reason().startsWith(c.reason()), e.reason());
            }
            try (OFRecordDataset ds = new OFRecordDataset(List.of(file), 1, false, SEED)) {
                FramingChecks.assertWordedAlike(ds, file, Framing.OFRECORD, Compression.NONE, true);
            }
        }
    }

    @Test
    void oneFlowsMiniCsvReadAsOFRecordIsALengthBeyondTheFile() {
        Path csv = SharedTestData.file("oneflow-documentation/mini_csv_not_ofrecord/part-000");
        try (OFRecordDataset ds = new OFRecordDataset(List.of(csv), 1, false, SEED)) {
            CorruptDataException e = assertThrows(CorruptDataException.class, ds::next);
            assertTrue(e.getMessage().contains("length 3471767528134422065 exceeds file size 80"), e.getMessage());
            assertEquals(0, e.offset());
        }
    }

    /**
     * A record longer than the stream reader can hand out is refused by the mapped reader and the
     * index scan too, in the same words, so that a file reads the same through either.
     */
    @ParameterizedTest(name = "length {0}")
    @ValueSource(longs = {RecordReader.MAX_PAYLOAD + 1L, 1L << 31})
    void aRecordOverTheLargestIsRefusedByTheReaderAndTheIndexAsByTheStream(long length) throws IOException {
        // A sparse file: one frame whose length the file holds, of which only the header is written.
        Path file = dir.resolve("huge");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(8 + length);
            raf.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(length).array());
        }
        String expected = "length " + length + " exceeds the largest record, " + RecordReader.MAX_PAYLOAD
                + " bytes at record 0, offset 0 in " + file;
        try (OFRecordDataset ds = new OFRecordDataset(List.of(file), 1, false, SEED)) {
            assertEquals(expected, FramingChecks.assertWordedAlike(ds, file, Framing.OFRECORD, Compression.NONE, true)
                    .getMessage());
        }
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> OFRecordFiles.open(List.of(file), 1, dir.resolve("index")).close());
        assertEquals(expected, e.getMessage());
    }

    @Test
    void closeUnmapsTheFiles() throws IOException {
        writeParts(2);
        RecordSlice slice;
        try (OFRecordDataset ds = new OFRecordDataset(parts(1), 1, false, SEED)) {
            slice = ds.next().get(0);
            assertTrue(slice.payload().scope().isAlive());
        }
        assertFalse(slice.payload().scope().isAlive());
    }
}
