package org.dataloader4j.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.reader.ReaderOptions;
import org.dataloader4j.core.testing.FaultRuns;
import org.dataloader4j.core.testing.ResumeRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Mini readers over seeded damaged files: lines {@code "id,-id"} with one bad line in the middle
 * of three files. Strict, the reader delivers every batch before the bad line and fails naming
 * its file, line and offset; skipping, it delivers exactly the other lines, in full batches.
 */
class MiniFaultTest {
    private static final int BATCH = 4;
    private static final AtomicInteger NAMES = new AtomicInteger();

    @TempDir
    Path dir;

    /** A line that is not two numbers. */
    enum BadLine {
        THREE_FIELDS, NOT_A_NUMBER, ONE_FIELD, BINARY_WITHOUT_LINE_BREAK;

        byte[] bytes(Random random) {
            return switch (this) {
                case THREE_FIELDS -> "1,2,3".getBytes(StandardCharsets.UTF_8);
                case NOT_A_NUMBER -> ("x" + random.nextInt(100) + ",4").getBytes(StandardCharsets.UTF_8);
                case ONE_FIELD -> "17".getBytes(StandardCharsets.UTF_8);
                case BINARY_WITHOUT_LINE_BREAK -> {
                    byte[] b = new byte[MiniDataset.MAX_LINE_BYTES + 1 + random.nextInt(100_000)];
                    for (int i = 0; i < b.length; i++) {
                        int v = 1 + random.nextInt(255);
                        b[i] = (byte) (v == '\n' ? 'x' : v);
                    }
                    yield b;
                }
            };
        }
    }

    /** Files {@code a}, {@code b}, {@code c} of 10 lines each, ids 0 to 29; {@code b}'s line {@code bad} replaced. */
    private record Written(List<Path> files, int bad, long badOffset) {
    }

    private Written write(BadLine kind, long seed) throws IOException {
        Random random = new Random(seed);
        int bad = random.nextInt(10);
        long badOffset = 0;
        List<Path> files = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int line = 0; line < 10; line++) {
                int id = 10 * f + line;
                if (f == 1 && line == bad) {
                    badOffset = out.size();
                    out.writeBytes(kind.bytes(random));
                } else {
                    out.writeBytes((id + "," + (-id)).getBytes(StandardCharsets.UTF_8));
                }
                out.write('\n');
            }
            Path file = dir.resolve(kind + "-" + seed + "-" + (char) ('a' + f));
            Files.write(file, out.toByteArray());
            files.add(file);
        }
        return new Written(files, bad, badOffset);
    }

    private static MiniReader.Builder reader(List<Path> files) {
        return MiniReader.builder().reader(options().build()).files(files).batchSize(BATCH);
    }

    private static ReaderOptions.Builder options() {
        return ReaderOptions.builder().name("mini-fault-" + NAMES.incrementAndGet()).parseThreads(2).ringSize(2);
    }

    private static FaultRuns read(MiniReader.Builder builder) {
        return FaultRuns.read(builder.build(), (batch, row) -> (long) batch.tensor(MiniParser.OUTPUT).getDouble(2L * row));
    }

    private static List<Long> idsBut(long skipped) {
        List<Long> ids = new ArrayList<>();
        for (long id = 0; id < 30; id++) {
            if (id != skipped) {
                ids.add(id);
            }
        }
        return ids;
    }

    @ParameterizedTest
    @EnumSource(BadLine.class)
    @Timeout(60)
    void aStrictReaderDeliversEveryBatchBeforeTheBadLineThenNamesIt(BadLine kind) throws IOException {
        for (long seed = 0; seed < 4; seed++) {
            Written w = write(kind, seed);
            FaultRuns run = read(reader(w.files()));
            run.assertStrictFailure(idsBut(-1), 10 + w.bad(), BATCH, w.files().get(1).getFileName().toString(), w.bad(),
                    w.badOffset());
            assertTrue(run.corruption().getMessage().contains("line " + (w.bad() + 1)), run.corruption().getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(BadLine.class)
    @Timeout(60)
    void aSkippingReaderDeliversExactlyTheOtherLines(BadLine kind) throws IOException {
        for (long seed = 0; seed < 4; seed++) {
            Written w = write(kind, seed);
            read(reader(w.files()).skipCorrupt(1)).assertDelivered(idsBut(10 + w.bad()), BATCH, 1);
        }
    }

    @Test
    @Timeout(60)
    void anEmptyFileIsNoFault() throws IOException {
        Written w = write(BadLine.ONE_FIELD, 1);
        Path empty = Files.write(dir.resolve("empty"), new byte[0]);
        List<Path> files = List.of(w.files().get(0), empty, w.files().get(2));
        FaultRuns run = read(reader(files));
        List<Long> expected = idsBut(-1).stream().filter(id -> id < 10 || id >= 20).toList();
        run.assertDelivered(expected, BATCH, 0);
    }

    @Test
    @Timeout(120)
    void skipsSurviveStateAndRestore() throws IOException {
        Written w = write(BadLine.NOT_A_NUMBER, 2);
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(state -> {
            MiniReader.Builder b = reader(w.files()).skipCorrupt(0.2).randomShuffle(true).shuffleBufferSize(6).seed(5).epochs(2);
            return (state == null ? b : b.reader(options().restore(state).build())).build();
        });
        assertEquals(2 * 29, run.batches().stream().mapToInt(ResumeRuns.Seen::size).sum(), "two epochs of the good lines");
    }

    @Test
    @Timeout(60)
    void aLineTooLongFailsWithoutGrowingABuffer() throws IOException {
        Written w = write(BadLine.BINARY_WITHOUT_LINE_BREAK, 3);
        CorruptDataException e = read(reader(w.files())).corruption();
        assertTrue(e.reason().contains("longer than " + MiniDataset.MAX_LINE_BYTES), e.getMessage());
    }
}
