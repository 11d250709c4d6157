package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.RandomAccessDataset;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.core.dataset.DistributedTrainingDataset;
import org.dataloader4j.core.dataset.DistributedTrainingOptions;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.Sharded;
import org.dataloader4j.core.files.RecordFiles;
import org.dataloader4j.core.files.RemoteRecordDataset;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.store.FileStore;
import org.dataloader4j.format.store.FileStores;
import org.dataloader4j.format.store.StoredFile;
import org.dataloader4j.format.testing.CorruptFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records fetched by index through a {@link FileStore} ({@link RemoteRecordDataset}, here over the
 * local store, which counts its range reads as HDFS's and S3's do) against the local index over
 * the same files: the same records in any order, fetched together where the next indices were
 * named, with the local dataset's states and locations.
 */
@Timeout(60)
class RemoteRecordDatasetTest {
    private static final int[] COUNTS = {300, 0, 500};

    @TempDir
    Path dir;

    private List<Path> files() throws IOException {
        Random random = new Random(9);
        List<Path> files = new ArrayList<>();
        for (int f = 0; f < COUNTS.length; f++) {
            Path file = dir.resolve("part-" + f);
            Files.write(file, CorruptFiles.frame(CorruptFiles.payloads(0, COUNTS[f], random,
                    (id, r) -> new byte[1 + r.nextInt(2000)]), Framing.OFRECORD));
            files.add(file);
        }
        return files;
    }

    private static RemoteRecordDataset remote(List<Path> files) throws IOException {
        FileStore store = FileStores.forLocation(files.get(0).toUri(), Map.of());
        List<StoredFile> stored = new ArrayList<>();
        for (Path file : files) {
            stored.add(store.stat(file.toUri()));
        }
        return new RemoteRecordDataset(RecordFiles.open(store, stored, OFRecordFiles.frames(), null, "remote-test-index", 2), 1);
    }

    private static byte[] bytes(RecordSlice slice) {
        return slice.payload().toArray(ValueLayout.JAVA_BYTE);
    }

    private static void assertSame(RecordSlice expected, RecordSlice actual) {
        assertEquals(Path.of(expected.file()).getFileName().toString(), Path.of(actual.file().replaceFirst("^file:", ""))
                .getFileName().toString());
        assertEquals(expected.index(), actual.index());
        assertEquals(expected.offset(), actual.offset());
        assertArrayEquals(bytes(expected), bytes(actual), "record " + expected.index() + " of " + expected.file());
    }

    @Test
    void readsEveryRecordAsTheLocalIndexDoesInAnyOrderNamedOrNot() throws IOException {
        List<Path> files = files();
        try (RandomAccessDataset<RecordSlice> local = OFRecordFiles.open(files, 1, dir.resolve("index"));
             RemoteRecordDataset remote = remote(files)) {
            assertEquals(800, remote.size());
            List<Long> order = new ArrayList<>();
            for (long i = 0; i < remote.size(); i++) {
                order.add(i);
            }
            Collections.shuffle(order, new Random(3));
            // The first half named ahead in chunks of 100, the second asked for unannounced.
            for (int from = 0; from < 400; from += 100) {
                long[] named = order.subList(from, from + 100).stream().mapToLong(Long::longValue).toArray();
                remote.prefetch(named, named.length);
                for (long index : named) {
                    assertSame(local.at(index), remote.at(index));
                }
            }
            long before = remote.readCounts()[0];
            for (long index : order.subList(400, 800)) {
                assertSame(local.at(index), remote.at(index));
            }
            assertEquals(before + 400, remote.readCounts()[0], "an index not named is a round trip of its own");
            assertThrows(IndexOutOfBoundsException.class, () -> remote.at(800));
        }
    }

    @Test
    void aDistributedShareFetchesManyRecordsARoundTrip() throws IOException {
        List<Path> files = files();
        DistributedTrainingOptions options = DistributedTrainingOptions.builder().rank(1).worldSize(3).shuffle(true).seed(5)
                .epochs(2).environment(Map.of()).build();
        RemoteRecordDataset remote = remote(files);
        try (var expected = new DistributedTrainingDataset<>(OFRecordFiles.open(files, 1, dir.resolve("index")), options);
             var actual = new DistributedTrainingDataset<>(remote, options)) {
            int records = 0;
            for (List<Sharded<RecordSlice>> e = expected.next(); !e.isEmpty(); e = expected.next()) {
                List<Sharded<RecordSlice>> a = actual.next();
                assertEquals(e.get(0).index(), a.get(0).index());
                assertSame(e.get(0).sample(), a.get(0).sample());
                records++;
            }
            assertTrue(actual.next().isEmpty());
            assertEquals(2 * 267, records);
            long reads = remote.readCounts()[0];
            // Chunks of 256 records over two files with records: two reads a chunk, three chunks an epoch.
            assertTrue(reads <= 12, reads + " range reads for " + records + " records");
        }
    }

    @Test
    void largeRecordsAreFetchedInPartsAFewAtATime() throws IOException {
        // 60 records of 1 to 2 MiB in two files: more than two fetches' worth, so later parts
        // start only as earlier ones are taken.
        Random random = new Random(4);
        List<Path> files = new ArrayList<>();
        for (int f = 0; f < 2; f++) {
            Path file = dir.resolve("large-" + f);
            Files.write(file, CorruptFiles.frame(CorruptFiles.payloads(0, 30, random,
                    (id, r) -> new byte[(1 << 20) + r.nextInt(1 << 20)]), Framing.OFRECORD));
            files.add(file);
        }
        DistributedTrainingOptions options = DistributedTrainingOptions.builder().rank(0).worldSize(1).shuffle(true).seed(2)
                .environment(Map.of()).build();
        RemoteRecordDataset remote = remote(files);
        try (var expected = new DistributedTrainingDataset<>(OFRecordFiles.open(files, 1, dir.resolve("index")), options);
             var actual = new DistributedTrainingDataset<>(remote, options)) {
            for (List<Sharded<RecordSlice>> e = expected.next(); !e.isEmpty(); e = expected.next()) {
                assertSame(e.get(0).sample(), actual.next().get(0).sample());
            }
            assertTrue(actual.next().isEmpty());
            long reads = remote.readCounts()[0];
            // About 90 MiB in parts of at most 32 MiB: at most 4 parts, each one read per file.
            assertTrue(reads <= 8, reads + " range reads for 60 records");
        }
    }

    @Test
    void resumesAndLocatesAsTheLocalIndexDoes() throws IOException {
        List<Path> files = files();
        try (RandomAccessDataset<RecordSlice> local = OFRecordFiles.open(files, 1, dir.resolve("index"));
             RemoteRecordDataset first = remote(files); RemoteRecordDataset resumed = remote(files)) {
            for (int i = 0; i < 300; i++) {
                assertSame(local.next().get(0), first.next().get(0));
            }
            DatasetState state = first.state();
            assertEquals(local.state(), state, "the local dataset's state");
            resumed.restore(state);
            List<RecordSlice> rest = new ArrayList<>();
            for (List<RecordSlice> r = resumed.next(); !r.isEmpty(); r = resumed.next()) {
                assertSame(local.next().get(0), r.get(0));
                rest.add(r.get(0));
            }
            assertTrue(local.next().isEmpty());
            assertEquals(500, rest.size());

            SampleLocator<RecordSlice> locator = resumed.locator().orElseThrow();
            long[] locations = new long[3 * locator.width()];
            for (int i = 0; i < 3; i++) {
                locator.locate(rest.get(400 - 150 * i), locations, i * locator.width());
            }
            List<RecordSlice> fetched = locator.fetch(locations);
            for (int i = 0; i < 3; i++) {
                assertSame(rest.get(400 - 150 * i), fetched.get(i));
            }
            locations[1] += 1;
            assertThrows(IllegalArgumentException.class, () -> locator.fetch(locations));
        }
    }

    @Test
    void recordsStayReadableAfterCloseAndAFileCutShortIsACorruptRecord() throws IOException {
        List<Path> files = files();
        RemoteRecordDataset remote = remote(files);
        RecordSlice kept = remote.at(10);
        byte[] expected = bytes(kept);
        long cut = remote.at(700).offset();
        CorruptFiles.truncate(files.get(2), cut);
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> remote.at(799));
        assertTrue(e.getMessage().contains("part-2"), e.getMessage());
        assertEquals(499, e.record());
        remote.close();
        assertArrayEquals(expected, bytes(kept));
        assertThrows(IllegalStateException.class, () -> remote.at(0));
    }
}
