package org.dataloader4j.ofrecord;

import static org.dataloader4j.format.testing.CorruptFiles.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataLoaderException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.dataset.DistributedTrainingOptions;
import org.dataloader4j.core.files.MappedRecordLocator;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.testing.FaultRuns;
import org.dataloader4j.core.testing.FramingChecks;
import org.dataloader4j.core.testing.ResumeRuns;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.testing.CorruptFiles;
import org.dataloader4j.format.testing.CorruptFiles.Cut;
import org.dataloader4j.format.testing.CorruptFiles.Fault;
import org.dataloader4j.format.testing.CorruptFiles.ThreeFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * OFRecord readers over seeded damaged files: three files, the middle one with one fault. Strict
 * (the default), a reader delivers every batch before the bad record and fails with the typed
 * error naming its file, record and offset; skipping, it delivers in full batches every good
 * record and, in the bad one's place, the next good record in the files, and counts the bad one.
 * An OFRecord length that cannot be trusted loses the rest of its file, since nothing marks where
 * the next frame starts: the index holds it as one damaged record.
 */
class OFRecordFaultTest {
    private static final int BATCH = 5;
    private static final int SEEDS = 6;
    private static final AtomicInteger NAMES = new AtomicInteger();

    @TempDir
    Path dir;

    private static byte[] record(long id, Random random) {
        float[] values = new float[1 + random.nextInt(8)];
        for (int i = 0; i < values.length; i++) {
            values[i] = id + i / 10f;
        }
        return Features.record(Map.of("id", Features.int64Feature(id), "values", Features.floatFeature(values))).toByteArray();
    }

    private ThreeFiles write(Fault fault, long seed) throws IOException {
        return CorruptFiles.writeThree(dir, Framing.OFRECORD, Compression.NONE, fault, seed, OFRecordFaultTest::record);
    }

    private static OFRecordReader.Builder reader(List<Path> files) {
        return OFRecordReader.builder().files(files).batchSize(BATCH)
                .reader(o -> o.name("ofrecord-fault-" + NAMES.incrementAndGet()).parseThreads(2).ringSize(2))
                .decoder(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64))
                .decoder(OFRecordRawDecoder.of("values", Shape.of(8), DataType.FLOAT32).withDim1VaryingLength());
    }

    /**
     * The ids of the good records: a damaged length loses the rest of its file, a bad payload just
     * itself.
     */
    private static List<Long> good(ThreeFiles f) {
        int bad = f.damaged().badRecord();
        return switch (f.damaged().fault()) {
            case GARBAGE_PAYLOAD -> f.allBut(bad, bad + 1);
            case EMPTY_FILE -> f.allBut(0, f.middle());
            default -> f.allBut(bad, f.middle());
        };
    }

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"TRUNCATED_LAST_RECORD", "TRUNCATED_LENGTH", "LENGTH_BEYOND_FILE",
        "NEGATIVE_LENGTH", "GARBAGE_PAYLOAD"})
    @Timeout(60)
    void aStrictReaderDeliversEveryBatchBeforeTheBadRecordThenNamesIt(Fault fault) throws IOException {
        for (long seed = 0; seed < SEEDS; seed++) {
            ThreeFiles f = write(fault, seed);
            FaultRuns run = FaultRuns.read(reader(f.files()).build(), "id");
            run.assertStrictFailure(f.all(), f.beforeDamage(), BATCH, "b", f.damaged().badRecord(), f.damaged().badOffset());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"TRUNCATED_LAST_RECORD", "TRUNCATED_LENGTH", "LENGTH_BEYOND_FILE",
        "NEGATIVE_LENGTH", "GARBAGE_PAYLOAD", "EMPTY_FILE"})
    @Timeout(60)
    void aSkippingReaderDeliversExactlyTheGoodRecords(Fault fault) throws IOException {
        for (long seed = 0; seed < SEEDS; seed++) {
            ThreeFiles f = write(fault, seed);
            FaultRuns run = FaultRuns.read(reader(f.files()).skipCorrupt(3).build(), "id");
            if (fault == Fault.EMPTY_FILE) {
                run.assertDelivered(good(f), BATCH, 0);
            } else {
                run.assertDelivered(CorruptFiles.repeatAt(good(f), f.beforeDamage()), BATCH, 1);
            }
        }
    }

    /** The mapped dataset words each fault as the stream reader of the file does: bad framing is worded in one place. */
    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"TRUNCATED_LAST_RECORD", "TRUNCATED_LENGTH", "LENGTH_BEYOND_FILE", "NEGATIVE_LENGTH"})
    void theMappedDatasetWordsAFaultAsTheStreamReaderDoes(Fault fault) throws IOException {
        for (long seed = 0; seed < SEEDS; seed++) {
            ThreeFiles f = write(fault, seed);
            Path b = f.files().get(1);
            try (OFRecordDataset ds = new OFRecordDataset(List.of(b), 1, false, seed)) {
                CorruptDataException e = FramingChecks.assertWordedAlike(ds, b, Framing.OFRECORD, Compression.NONE, true);
                assertNotNull(e, fault + " is found");
                assertEquals(f.damaged().badRecord(), e.record(), e.getMessage());
                assertEquals(f.damaged().badOffset(), e.offset(), e.getMessage());
            }
        }
    }

    @Test
    @Timeout(60)
    void anEmptyFileIsNoFaultForAStrictReader() throws IOException {
        ThreeFiles f = write(Fault.EMPTY_FILE, 1);
        FaultRuns.read(reader(f.files()).build(), "id").assertDelivered(good(f), BATCH, 0);
    }

    @Test
    @Timeout(60)
    void moreCorruptRecordsThanTheBudgetFailRead() throws IOException {
        Random random = new Random(5);
        List<byte[]> payloads = new ArrayList<>(CorruptFiles.payloads(0, 30, random, OFRecordFaultTest::record));
        payloads.set(7, new byte[] {0x0F, 1, 2});
        payloads.set(19, new byte[] {0x0F, 3, 4});
        Path file = dir.resolve("two-bad");
        Files.write(file, CorruptFiles.frame(payloads, Framing.OFRECORD));

        FaultRuns one = FaultRuns.read(reader(List.of(file)).skipCorrupt(1).build(), "id");
        CorruptDataException e = one.corruption();
        assertEquals(19, e.record(), e.getMessage());
        assertTrue(e.getMessage().contains("more corrupt records than skipCorrupt(maxRecords=1) allows"), e.getMessage());
        List<Long> replaced = new ArrayList<>(ids(0, 30));
        replaced.set(7, 8L);
        replaced.set(19, 20L);
        assertEquals(replaced.subList(0, 15), one.ids(), "the three full batches before the second bad record");

        FaultRuns two = FaultRuns.read(reader(List.of(file)).skipCorrupt(2).build(), "id");
        two.assertDelivered(replaced, BATCH, 2);

        // 2 of the first 20 records are 10 %: within maxRatio 0.1 at record 20, not within 0.05.
        FaultRuns tenth = FaultRuns.read(reader(List.of(file)).skipCorrupt(0.1).build(), "id");
        assertEquals(2, tenth.skipped(), "skipped at 10 %: " + tenth.failure());
        FaultRuns twentieth = FaultRuns.read(reader(List.of(file)).skipCorrupt(0.05).build(), "id");
        assertTrue(twentieth.corruption().getMessage().contains("maxRatio=0.05"), twentieth.corruption().getMessage());
    }

    @Test
    @Timeout(120)
    void skipsAreTheSameForASeedAndSurviveStateAndRestore() throws IOException {
        ThreeFiles f = write(Fault.GARBAGE_PAYLOAD, 3);
        ThreeFiles g = write(Fault.LENGTH_BEYOND_FILE, 4);
        List<Path> files = List.of(f.files().get(0), f.files().get(1), g.files().get(1), f.files().get(2));
        Function<DatasetState, DataReader> open = state -> {
            OFRecordReader.Builder b = reader(files).skipCorrupt(10).randomShuffle(true).shuffleBufferSize(8).seed(11)
                    .epochs(2).shuffleAfterEpoch(true);
            return (state == null ? b : b.reader(o -> o.restore(state))).build();
        };
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(open);
        // Every record indexed, the damaged ones replaced: g's middle file ends in one damaged record.
        int indexed = 40 + f.middle() + g.damaged().badRecord() + 1;
        assertEquals(2 * indexed, run.batches().stream().mapToInt(ResumeRuns.Seen::size).sum(), "two epochs of every record");
        assertEquals(4, FaultRuns.read(open.apply(null), "id").skipped(), "2 per epoch");
    }

    /**
     * Parse threads replace corrupt records where they meet them, but each by the next good record
     * in the files, whichever thread and slot it falls to: the same records in the same rows, and
     * the same count, for any number of parse threads and ring slots. Runs of bad records, one at
     * the end of the file (replaced from its start), batches split over several threads.
     */
    @Test
    @Timeout(120)
    void skippingGivesTheSameRecordsForAnyParseThreadsAndRing() throws IOException {
        Random random = new Random(21);
        List<byte[]> payloads = new ArrayList<>(CorruptFiles.payloads(0, 1000, random, OFRecordFaultTest::record));
        List<Integer> bad = List.of(3, 64, 65, 66, 400, 511, 512, 998, 999);
        for (int b : bad) {
            payloads.set(b, new byte[] {0x0F, (byte) b});
        }
        Path file = dir.resolve("runs-of-bad");
        Files.write(file, CorruptFiles.frame(payloads, Framing.OFRECORD));
        List<Long> expected = new ArrayList<>();
        for (int id = 0; id < payloads.size(); id++) {
            int next = id;
            while (bad.contains(next)) {
                next = (next + 1) % payloads.size();
            }
            expected.add((long) next);
        }

        FaultRuns first = null;
        for (int threads : new int[] {1, 2, 4}) {
            for (int ring : new int[] {1, 2, 8}) {
                FaultRuns plain = FaultRuns.read(OFRecordReader.builder().files(List.of(file)).batchSize(128).skipCorrupt(20)
                        .reader(o -> o.name("ofrecord-skip-" + NAMES.incrementAndGet()).parseThreads(threads).ringSize(ring))
                        .decoder(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64)).build(), "id");
                plain.assertDelivered(expected, 128, bad.size());
                FaultRuns shuffled = FaultRuns.read(OFRecordReader.builder().files(List.of(file)).batchSize(128).skipCorrupt(20)
                        .randomShuffle(true).seed(5).epochs(2)
                        .reader(o -> o.name("ofrecord-skip-" + NAMES.incrementAndGet()).parseThreads(threads).ringSize(ring))
                        .decoder(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64)).build(), "id");
                assertEquals(2L * bad.size(), shuffled.skipped(), "every bad record, each epoch");
                if (first == null) {
                    first = shuffled;
                } else {
                    assertEquals(first.ids(), shuffled.ids(), threads + " parse threads, " + ring + " slots");
                }
            }
        }
    }

    @Test
    @Timeout(60)
    void aFileShrunkWhileBeingReadFailsAtItsNewEnd() throws IOException {
        List<byte[]> payloads = CorruptFiles.payloads(0, 400, new Random(9), OFRecordFaultTest::record);
        long cut = CorruptFiles.frame(payloads.subList(0, 200), Framing.OFRECORD).length;
        for (boolean skip : new boolean[] {false, true}) {
            readWhileCutting(payloads, new Cut(200, cut, cut), skip);
        }
    }

    /**
     * A file cut on a page boundary inside a record's payload, so that the record's length is
     * still there and the rest of it is gone: the record is named, not the next one, and not
     * read as what the missing page leaves in memory. Short records (read whole as they are
     * framed) and long ones. (A 64 KiB boundary is a page boundary for every page size the JVM
     * runs on; record 50 is past what the load thread can have framed before the cut.)
     */
    @ParameterizedTest
    @ValueSource(ints = {300, 3000})
    @Timeout(60)
    void aFileCutInsideARecordNamesThatRecord(int padding) throws IOException {
        List<byte[]> payloads = CorruptFiles.payloads(0, 1_000_000 / padding, new Random(12), (id, r) -> {
            byte[] values = new byte[padding + r.nextInt(padding)];
            r.nextBytes(values);
            return Features.record(Map.of("id", Features.int64Feature(id), "values", Features.floatFeature(id),
                    "padding", Features.bytesFeature(values))).toByteArray();
        });
        Cut cut = CorruptFiles.cutInsidePayload(payloads, Framing.OFRECORD, 50, 64 * 1024);
        long frame = Framing.OFRECORD.headerBytes() + payloads.get(cut.record()).length;
        assertEquals(padding < 1000, frame <= MappedRecordLocator.READ_AHEAD_FRAME_BYTES, "frame of " + frame + " bytes");
        for (boolean skip : new boolean[] {false, true}) {
            readWhileCutting(payloads, cut, skip);
        }
    }

    /**
     * Reads the OFRecord file of {@code payloads}, cutting it at {@code cut} once the first batch
     * is in hand: a reader must deliver every batch before the one of the cut record and fail
     * naming it, a skipping one too: a file changed under the reader is not a corrupt record.
     */
    private void readWhileCutting(List<byte[]> payloads, Cut cut, boolean skip) throws IOException {
        Path file = dir.resolve("cut-" + NAMES.incrementAndGet());
        Files.write(file, CorruptFiles.frame(payloads, Framing.OFRECORD));
        OFRecordReader.Builder builder = reader(List.of(file)).reader(o -> o.ringSize(1));
        FaultRuns run = FaultRuns.read((skip ? builder.skipCorrupt(1) : builder).build(), "id",
                () -> CorruptFiles.truncate(file, cut.at()));
        run.assertStrictFailure(ids(0, payloads.size()), cut.record(), BATCH, file.getFileName().toString(), cut.record(),
                cut.frameOffset());
        if (skip) {
            assertTrue(run.corruption().reason().contains("the file changed while being read"), run.corruption().getMessage());
        }
    }

    @Test
    @Timeout(60)
    void filesDeletedWhileTheReaderReadsAreReadToTheirEndsSinceEachIsMappedWhenItOpens() throws IOException {
        ThreeFiles f = write(Fault.EMPTY_FILE, 2);
        Files.write(f.files().get(1), CorruptFiles.frame(CorruptFiles.payloads(20, 20, new Random(1), OFRecordFaultTest::record), Framing.OFRECORD));
        List<Long> expected = new ArrayList<>();
        try (DataReader whole = reader(f.files()).build()) {
            for (Batch b : whole) {
                for (int row = 0; row < b.size(); row++) {
                    expected.add(b.tensor("id").getLong(row));
                }
            }
        }
        DataReader reader = reader(f.files()).reader(o -> o.ringSize(1)).build();
        List<Long> ids = new ArrayList<>();
        try (reader) {
            Batch first = reader.read();
            for (Path file : f.files()) {
                Files.delete(file);
            }
            for (Batch b = first; b != null; b = reader.read()) {
                for (int row = 0; row < b.size(); row++) {
                    ids.add(b.tensor("id").getLong(row));
                }
            }
        }
        assertFalse(expected.isEmpty());
        assertEquals(expected, ids, "every file read to its end");
        UncheckedIOException missing = assertThrows(UncheckedIOException.class, () -> reader(f.files()).build());
        assertTrue(missing.getMessage().contains(f.files().get(0).toString()), missing.getMessage());
    }

    @Test
    @Timeout(60)
    void aDistributedReaderRefusesToSkipSinceOneRankWouldTakeFewerSteps() throws IOException {
        ThreeFiles f = write(Fault.EMPTY_FILE, 5);
        DistributedTrainingOptions options = DistributedTrainingOptions.builder().rank(0).worldSize(2).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> reader(f.files()).distributed(options).indexDir(dir.resolve("index")).skipCorrupt(1).build());
        assertTrue(e.getMessage().contains("does not skip corrupt records"), e.getMessage());
    }

    @Test
    @Timeout(60)
    void aRecordWithoutARequiredFeatureIsSkippedLikeAnyOtherCorruptRecord() throws IOException {
        List<byte[]> payloads = new ArrayList<>(CorruptFiles.payloads(0, 20, new Random(4), OFRecordFaultTest::record));
        payloads.set(6, Features.record(Map.of("values", Features.floatFeature(6f))).toByteArray());
        Path file = dir.resolve("missing-id");
        Files.write(file, CorruptFiles.frame(payloads, Framing.OFRECORD));

        CorruptDataException strict = FaultRuns.read(reader(List.of(file)).build(), "id").corruption();
        assertEquals(6, strict.record(), strict.getMessage());
        assertTrue(strict.reason().contains("missing feature id"), strict.getMessage());
        FaultRuns.read(reader(List.of(file)).skipCorrupt(1).build(), "id")
                .assertDelivered(CorruptFiles.repeatAt(ids(0, 20).stream().filter(id -> id != 6).toList(), 6), BATCH, 1);
    }
}
