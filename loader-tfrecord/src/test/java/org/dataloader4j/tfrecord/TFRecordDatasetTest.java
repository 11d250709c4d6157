package org.dataloader4j.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.core.dataset.RecordSlice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TFRecordDatasetTest {
    private static final long SEED = 3;

    @TempDir
    Path dir;

    /** One record framed by hand from the specification. */
    static byte[] frame(byte[] data) {
        ByteBuffer b = ByteBuffer.allocate(16 + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(data.length);
        b.putInt(masked(Arrays.copyOf(b.array(), 8)));
        b.put(data);
        b.putInt(masked(data));
        return b.array();
    }

    static int masked(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        int c = (int) crc.getValue();
        return ((c >>> 15) | (c << 17)) + 0xa282ead8;
    }

    private List<byte[]> payloads(int n) {
        Random random = new Random(SEED);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] p = new byte[random.nextInt(200)];
            random.nextBytes(p);
            out.add(p);
        }
        return out;
    }

    private Path write(String name, List<byte[]> records, String compression) throws IOException {
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        for (byte[] r : records) {
            raw.write(frame(r));
        }
        Path file = dir.resolve(name);
        try (OutputStream out = switch (compression) {
            case "gzip" -> new GZIPOutputStream(Files.newOutputStream(file));
            case "zlib" -> new DeflaterOutputStream(Files.newOutputStream(file));
            default -> Files.newOutputStream(file);
        }) {
            raw.writeTo(out);
        }
        return file;
    }

    private static List<byte[]> drain(TFRecordDataset ds) {
        List<byte[]> out = new ArrayList<>();
        for (List<RecordSlice> s = ds.next(); !s.isEmpty(); s = ds.next()) {
            out.add(s.get(0).payload().toArray(ValueLayout.JAVA_BYTE));
        }
        return out;
    }

    private static void assertSameRecords(List<byte[]> expected, List<byte[]> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), "record " + i);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"none", "gzip", "zlib"})
    void readsEveryRecordIncludingEmptyOnesWhateverTheCompression(String compression) throws IOException {
        List<byte[]> records = payloads(50);
        records.set(7, new byte[0]);
        String suffix = switch (compression) {
            case "gzip" -> ".gz";
            case "zlib" -> ".zz";
            default -> "";
        };
        Path a = write("a.tfrecord" + suffix, records.subList(0, 20), compression);
        Path empty = write("b.tfrecord" + suffix, List.of(), compression);
        Path c = write("c.tfrecord" + suffix, records.subList(20, 50), compression);
        try (TFRecordDataset ds = new TFRecordDataset(List.of(a, empty, c), 1, false, SEED, null, true)) {
            assertSameRecords(records, drain(ds));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"none", "gzip"})
    void aSliceNamesItsFileIndexAndOffset(String compression) throws IOException {
        List<byte[]> records = payloads(3);
        Path file = write("x.tfrecord", records, compression);
        try (TFRecordDataset ds = new TFRecordDataset(List.of(file), 1, false, SEED, null, true)) {
            long offset = 0;
            for (int i = 0; i < 3; i++) {
                RecordSlice s = ds.next().get(0);
                assertEquals(file.toString(), s.file());
                assertEquals(i, s.index());
                assertEquals(offset, s.offset());
                offset += 16 + records.get(i).length;
            }
        }
    }

    /** A file of three good records followed by {@code tail}. */
    private Path withTail(byte[] tail) throws IOException {
        List<byte[]> good = payloads(3);
        Path file = write("bad.tfrecord", good, "none");
        Files.write(file, tail, StandardOpenOption.APPEND);
        return file;
    }

    @Test
    void damagedFramesAreTensorFlowsErrorsAfterEveryGoodRecord() throws IOException {
        byte[] good = frame(new byte[] {1, 2, 3, 4});
        byte[] badData = good.clone();
        badData[13] ^= 1;
        byte[] badLength = good.clone();
        badLength[9] ^= 1;
        record Case(byte[] tail, String what, String detail, boolean checkedOnly) {
        }
        List<Case> cases = List.of(
                new Case(badData, "corrupted record", "data CRC mismatch", true),
                new Case(badLength, "corrupted record", "length CRC mismatch", true),
                new Case(Arrays.copyOf(good, 10), "truncated record", "header: 10 of 12 bytes", false),
                new Case(Arrays.copyOf(good, 15), "truncated record", "length 4 exceeds file size %d", false));
        for (Case c : cases) {
            Path file = withTail(c.tail());
            long goodBytes = Files.size(file) - c.tail().length;
            String detail = String.format(c.detail(), Files.size(file));
            try (TFRecordDataset ds = new TFRecordDataset(List.of(file), 1, false, SEED, null, true)) {
                for (int i = 0; i < 3; i++) {
                    assertFalse(ds.next().isEmpty());
                }
                CorruptDataException e = assertThrows(CorruptDataException.class, ds::next);
                assertEquals(c.what() + " at offset " + goodBytes + " in " + file + " (" + detail + "); record 3", e.getMessage());
                assertEquals(c.what() + " (" + detail + ")", e.reason());
                assertEquals(3, e.record());
                assertEquals(goodBytes, e.offset());
            }
            if (c.checkedOnly()) {
                try (TFRecordDataset unchecked = new TFRecordDataset(List.of(file), 1, false, SEED, null, false)) {
                    assertEquals(4, drain(unchecked).size(), "without CRC checks the damaged record is read: " + c.detail());
                }
            }
        }
    }

    @Test
    void aDamagedGzipStreamIsAnErrorNotAnEarlyEnd() throws IOException {
        Path file = write("z.tfrecord.gz", payloads(200), "gzip");
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
        try (TFRecordDataset ds = new TFRecordDataset(List.of(file), 1, false, SEED, null, true)) {
            CorruptDataException e = assertThrows(CorruptDataException.class, () -> drain(ds));
            assertEquals(file.toString(), e.file());
            assertTrue(e.getMessage().contains(" in " + file), e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0} after {1}")
    @ValueSource(strings = {"none:0", "none:7", "none:31", "gzip:0", "gzip:13", "gzip:40", "zlib:29"})
    void stateAndRestoreContinueExactly(String spec) throws IOException {
        String compression = spec.split(":")[0];
        int taken = Integer.parseInt(spec.split(":")[1]);
        List<byte[]> records = payloads(40);
        String suffix = compression.equals("gzip") ? ".gz" : compression.equals("zlib") ? ".zz" : "";
        List<Path> files = List.of(write("p0" + suffix, records.subList(0, 15), compression),
                write("p1" + suffix, records.subList(15, 40), compression));
        DatasetState state;
        List<byte[]> rest;
        try (TFRecordDataset ds = new TFRecordDataset(files, 2, true, SEED, null, true)) {
            for (int i = 0; i < taken; i++) {
                ds.next();
            }
            state = DatasetStateCodec.fromText(DatasetStateCodec.toText(ds.state()));
            rest = drain(ds);
        }
        try (TFRecordDataset resumed = new TFRecordDataset(files, 2, true, 77, null, true)) {
            resumed.restore(state);
            assertSameRecords(rest, drain(resumed));
        }
    }
}
