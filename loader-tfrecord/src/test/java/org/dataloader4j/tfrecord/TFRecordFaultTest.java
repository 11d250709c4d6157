package org.dataloader4j.tfrecord;

import static org.dataloader4j.format.testing.CorruptFiles.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.files.MappedFiles;
import org.dataloader4j.core.files.RecordIndex;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.testing.FaultRuns;
import org.dataloader4j.core.testing.FramingChecks;
import org.dataloader4j.core.testing.ResumeRuns;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.testing.CorruptFiles;
import org.dataloader4j.format.testing.CorruptFiles.Cut;
import org.dataloader4j.format.testing.CorruptFiles.Fault;
import org.dataloader4j.format.testing.CorruptFiles.ThreeFiles;
import org.dataloader4j.format.tf.BytesList;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.format.tf.Feature;
import org.dataloader4j.format.tf.Features;
import org.dataloader4j.format.tf.Int64List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TFRecord readers over seeded damaged files: three files, the middle one with one fault. Strict,
 * a reader delivers every batch before the bad record and fails with the typed error naming its
 * file, record and offset; skipping, it delivers the good records in full batches, a mapped file's
 * with the next good record in the bad one's place, a compressed stream's with the bad one left out.
 * In a mapped file the CRCs find the next intact frame, so only the bad record is lost; a damaged
 * compressed stream loses the rest of its file.
 */
class TFRecordFaultTest {
    private static final int BATCH = 5;
    private static final int SEEDS = 6;
    private static final AtomicInteger NAMES = new AtomicInteger();

    @TempDir
    Path dir;

    private static byte[] record(long id, Random random) {
        byte[] blob = new byte[1 + random.nextInt(40)];
        random.nextBytes(blob);
        return Example.newBuilder().setFeatures(Features.newBuilder()
                .putFeature("id", Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(id)).build())
                .putFeature("blob", Feature.newBuilder().setBytesList(BytesList.newBuilder()
                        .addValue(ByteString.copyFrom(blob))).build())).build().toByteArray();
    }

    private ThreeFiles write(Fault fault, Compression compression, long seed) throws IOException {
        return CorruptFiles.writeThree(dir, Framing.TFRECORD, compression, fault, seed, TFRecordFaultTest::record);
    }

    /** A reader of {@code files}, compressed by {@code compression} or, if null, as each file's first bytes say. */
    private static TFRecordReader.Builder reader(List<Path> files, Compression compression) {
        TFRecordReader.Builder builder = TFRecordReader.builder().files(files).batchSize(BATCH)
                .reader(o -> o.name("tfrecord-fault-" + NAMES.incrementAndGet()).parseThreads(2).ringSize(2))
                .feature(FixedLenFeature.of("id", Shape.of(1), DataType.INT64))
                .feature(BytesFeature.of("blob", 40));
        return compression == null ? builder : builder.compression(compression);
    }

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"DAMAGED_STREAM", "EMPTY_FILE"}, mode = EnumSource.Mode.EXCLUDE)
    @Timeout(60)
    void aStrictReaderDeliversEveryBatchBeforeTheBadRecordThenNamesIt(Fault fault) throws IOException {
        for (long seed = 0; seed < SEEDS; seed++) {
            ThreeFiles f = write(fault, Compression.NONE, seed);
            FaultRuns run = FaultRuns.read(reader(f.files(), Compression.NONE).build(), "id");
            run.assertStrictFailure(f.all(), f.beforeDamage(), BATCH, "b", f.damaged().badRecord(), f.damaged().badOffset());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = "DAMAGED_STREAM", mode = EnumSource.Mode.EXCLUDE)
    @Timeout(60)
    void aSkippingReaderOfAMappedFileLosesJustTheBadRecord(Fault fault) throws IOException {
        for (long seed = 0; seed < SEEDS; seed++) {
            ThreeFiles f = write(fault, Compression.NONE, seed);
            FaultRuns run = FaultRuns.read(reader(f.files(), Compression.NONE).skipCorrupt(3).build(), "id");
            int bad = f.damaged().badRecord();
            if (fault == Fault.EMPTY_FILE) {
                run.assertDelivered(f.allBut(0, f.middle()), BATCH, 0);
            } else {
                List<Long> good = f.allBut(bad, Math.min(bad + 1, f.middle()));
                run.assertDelivered(CorruptFiles.repeatAt(good, f.beforeDamage()), BATCH, 1);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = {"GZIP", "ZLIB"})
    @Timeout(60)
    void aDamagedStreamFailsAtItsFirstBadRecordOrLosesTheRestOfItsFile(Compression compression) throws IOException {
        for (long seed = 0; seed < SEEDS; seed++) {
            ThreeFiles f = write(Fault.DAMAGED_STREAM, compression, seed);
            FaultRuns strict = FaultRuns.read(reader(f.files(), compression).build(), "id");
            CorruptDataException e = strict.corruption();
            assertTrue(e.file().endsWith("b"), e.getMessage());
            int bad = Math.toIntExact(e.record());
            assertTrue(bad <= f.middle(), e.getMessage());
            assertEquals(f.all().subList(0, (20 + bad) / BATCH * BATCH), strict.ids(), "every batch before the bad record");

            FaultRuns skipping = FaultRuns.read(reader(f.files(), compression).skipCorrupt(1).build(), "id");
            skipping.assertDelivered(f.allBut(bad, f.middle()), BATCH, 1);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = {"GZIP", "ZLIB"})
    @Timeout(60)
    void aBadRecordInACompressedFileLosesTheRestOfItsFileAndAnEmptyOneNothing(Compression compression) throws IOException {
        ThreeFiles f = write(Fault.BAD_DATA_CRC, compression, 7);
        FaultRuns.read(reader(f.files(), compression).skipCorrupt(1).build(), "id")
                .assertDelivered(f.allBut(f.damaged().badRecord(), f.middle()), BATCH, 1);
        ThreeFiles empty = write(Fault.EMPTY_FILE, compression, 7);
        FaultRuns.read(reader(empty.files(), compression).build(), "id").assertDelivered(empty.allBut(0, empty.middle()), BATCH, 0);
    }

    @Test
    @Timeout(120)
    void skipsAreTheSameForASeedAndSurviveStateAndRestore() throws IOException {
        ThreeFiles f = write(Fault.BAD_LENGTH_CRC, Compression.NONE, 3);
        ThreeFiles g = write(Fault.DAMAGED_STREAM, Compression.GZIP, 4);
        List<Path> files = List.of(f.files().get(0), f.files().get(1), g.files().get(1), f.files().get(2));
        Function<DatasetState, DataReader> open = state -> {
            TFRecordReader.Builder b = reader(files, null).skipCorrupt(10).randomShuffle(true).shuffleBufferSize(8).seed(11)
                    .epochs(2).shuffleAfterEpoch(true);
            return (state == null ? b : b.reader(o -> o.restore(state))).build();
        };
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(open);
        assertEquals(4, FaultRuns.read(open.apply(null), "id").skipped(), "2 per epoch");
        // The damaged stream's file gives the records before its first bad one, as a strict reader finds it.
        long goodInStream = FaultRuns.read(reader(g.files(), Compression.GZIP).build(), "id").corruption().record();
        assertEquals(2 * (40 + f.middle() - 1 + goodInStream), run.batches().stream().mapToInt(ResumeRuns.Seen::size).sum(),
                "two epochs of the good records");
    }

    @Test
    @Timeout(60)
    void theNextIntactFrameIsFoundPastAnyDamage() throws IOException {
        Random random = new Random(3);
        List<byte[]> payloads = CorruptFiles.payloads(0, 40, random, TFRecordFaultTest::record);
        byte[] file = CorruptFiles.frame(payloads, Framing.TFRECORD);
        // Overwrite records 10 to 12 with noise, their frames included.
        int from = CorruptFiles.frame(payloads.subList(0, 10), Framing.TFRECORD).length;
        int to = CorruptFiles.frame(payloads.subList(0, 13), Framing.TFRECORD).length;
        byte[] noise = new byte[to - from];
        random.nextBytes(noise);
        System.arraycopy(noise, 0, file, from, noise.length);
        Path path = dir.resolve("noise");
        Files.write(path, file);
        FaultRuns.read(reader(List.of(path), Compression.NONE).skipCorrupt(1).build(), "id")
                .assertDelivered(CorruptFiles.repeatAt(ids(0, 40).stream().filter(id -> id < 10 || id >= 13).toList(), 10),
                        BATCH, 1);
    }

    /**
     * A file cut on a page boundary inside a record's payload, after the reader mapped it: a
     * strict reader names the cut record, whether it checks the CRCs (which read the payload) or
     * not (the load thread still reads a short frame whole, or a long one's last byte). Short
     * records and long ones; the cut lies past what the load thread can have framed before it.
     */
    @ParameterizedTest
    @CsvSource({"300, true", "300, false", "3000, true", "3000, false"})
    @Timeout(60)
    void aFileCutInsideARecordNamesThatRecord(int padding, boolean verifyCrc) throws IOException {
        Random random = new Random(13);
        List<byte[]> payloads = CorruptFiles.payloads(0, 1_000_000 / padding, random, (id, r) -> {
            byte[] blob = new byte[padding + r.nextInt(padding)];
            r.nextBytes(blob);
            return Example.newBuilder().setFeatures(Features.newBuilder()
                    .putFeature("id", Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(id)).build())
                    .putFeature("padding", Feature.newBuilder().setBytesList(BytesList.newBuilder()
                            .addValue(ByteString.copyFrom(blob))).build())).build().toByteArray();
        });
        Cut cut = CorruptFiles.cutInsidePayload(payloads, Framing.TFRECORD, 50, 64 * 1024);
        Path file = dir.resolve("cut-" + padding + "-" + verifyCrc);
        Files.write(file, CorruptFiles.frame(payloads, Framing.TFRECORD));
        DataReader reader = TFRecordReader.builder()
                .reader(o -> o.name("tfrecord-fault-" + NAMES.incrementAndGet()).parseThreads(2).ringSize(1)).files(List.of(file))
                .batchSize(BATCH).verifyCrc(verifyCrc)
                .feature(FixedLenFeature.of("id", Shape.of(1), DataType.INT64)).build();
        FaultRuns run = FaultRuns.read(reader, "id", () -> CorruptFiles.truncate(file, cut.at()));
        run.assertStrictFailure(ids(0, payloads.size()), cut.record(), BATCH, file.getFileName().toString(), cut.record(),
                cut.frameOffset());
    }

    /**
     * An index scan of a file cut on a page boundary inside a record after it was mapped (as
     * {@code distributed(...)} and {@code loader index} scan): the typed error names the cut
     * record, whether the scan checks the CRCs, which read its payload, or only its length.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    @Timeout(60)
    void anIndexScanOfAFileCutAfterItWasMappedNamesTheCutRecord(boolean verifyCrc) throws IOException {
        List<byte[]> payloads = CorruptFiles.payloads(0, 400, new Random(14), TFRecordFaultTest::record);
        Cut cut = CorruptFiles.cutInsidePayload(payloads, Framing.TFRECORD, 100, 4096);
        Path file = dir.resolve("scan-" + verifyCrc);
        Files.write(file, CorruptFiles.frame(payloads, Framing.TFRECORD));
        try (MappedFiles mappings = new MappedFiles(List.of(file))) {
            MemorySegment mapping = mappings.get(0);
            CorruptFiles.truncate(file, cut.at());
            CorruptDataException e = assertThrows(CorruptDataException.class,
                    () -> RecordIndex.scan(mapping, TFRecordFrames.of(verifyCrc), file));
            assertEquals(cut.record(), e.record(), e.getMessage());
            assertEquals(cut.frameOffset(), e.offset(), e.getMessage());
            assertEquals("the file changed while being read: it had " + mapping.byteSize() + " bytes when mapped and is now "
                    + cut.at() + " bytes at record " + cut.record() + ", offset " + cut.frameOffset() + " in " + file,
                    e.getMessage());
            assertInstanceOf(InternalError.class, e.getCause(), "the JVM's report of the fault");
        }
    }

    /**
     * The mapped dataset words each fault of an uncompressed file as the stream reader of that
     * file does, with the CRCs checked or not: bad framing is worded in one place.
     */
    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"TRUNCATED_LAST_RECORD", "TRUNCATED_LENGTH", "BAD_LENGTH_CRC", "BAD_DATA_CRC",
        "LENGTH_BEYOND_FILE", "NEGATIVE_LENGTH"})
    void theMappedDatasetWordsAFaultAsTheStreamReaderDoes(Fault fault) throws IOException {
        for (long seed = 0; seed < SEEDS; seed++) {
            ThreeFiles f = write(fault, Compression.NONE, seed);
            Path b = f.files().get(1);
            try (TFRecordDataset ds = new TFRecordDataset(List.of(b), 1, false, seed, Compression.NONE, true)) {
                CorruptDataException e = FramingChecks.assertWordedAlike(ds, b, Framing.TFRECORD, Compression.NONE, true);
                assertNotNull(e, fault + " is found");
                assertEquals(f.damaged().badRecord(), e.record(), e.getMessage());
                assertEquals(f.damaged().badOffset(), e.offset(), e.getMessage());
            }
            try (TFRecordDataset ds = new TFRecordDataset(List.of(b), 1, false, seed, Compression.NONE, false)) {
                FramingChecks.assertWordedAlike(ds, b, Framing.TFRECORD, Compression.NONE, false);
            }
        }
    }

    /**
     * A compressed file's errors are the stream reader's, converted once: the dataset reports
     * what the stream reader of the file reports, its cause included. (Damage to a stream is
     * found by the inflater, which is then the cause, or, where the damaged bytes still inflate,
     * by a frame check.)
     */
    @ParameterizedTest
    @EnumSource(value = Compression.class, names = {"GZIP", "ZLIB"})
    void aCompressedFileIsWordedAsTheStreamReaderWordsIt(Compression compression) throws IOException {
        int foundByTheInflater = 0;
        for (Fault fault : List.of(Fault.TRUNCATED_LAST_RECORD, Fault.BAD_DATA_CRC, Fault.LENGTH_BEYOND_FILE, Fault.DAMAGED_STREAM)) {
            for (long seed = 0; seed < SEEDS; seed++) {
                ThreeFiles f = write(fault, compression, seed);
                Path b = f.files().get(1);
                try (TFRecordDataset ds = new TFRecordDataset(List.of(b), 1, false, seed, compression, true)) {
                    CorruptDataException e = FramingChecks.assertWordedAlike(ds, b, Framing.TFRECORD, compression, true);
                    assertNotNull(e, fault + " is found");
                    foundByTheInflater += e.getCause() != null ? 1 : 0;
                }
            }
        }
        assertTrue(foundByTheInflater > 0, "some damaged streams are found by the inflater, the cause kept");
    }
}
