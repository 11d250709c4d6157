package org.dataloader4j.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.core.files.PartFiles;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.ReaderOptions;
import org.dataloader4j.core.testing.ResumeRuns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The mini reader end to end: part files written to a temporary folder, read back through
 * {@link MiniReader}'s whole pipeline (dataset, shuffle, batching, load and parse threads).
 *
 * <p>Line {@code j} (from 1, below 1000) of file {@code f} holds {@code x = 1000 f + j} and
 * {@code y = x / 4 - 1}, so every row tells where it came from.
 */
class MiniReaderTest {
    private static final AtomicInteger TESTS = new AtomicInteger();

    @TempDir
    Path dir;

    /** This test's reader name: the prefix of its readers' thread names, checked after the test. */
    private final String name = "mini-reader-test-" + TESTS.incrementAndGet();

    /** One parsed row. */
    record Row(double x, double y) {
        static Row of(int file, int line) {
            double x = 1000 * file + line;
            return new Row(x, x / 4 - 1);
        }

        String text() {
            return x + "," + y;
        }

        int file() {
            return (int) x / 1000;
        }
    }

    /** The rows of one batch and the epoch it reported. */
    record Rows(long epoch, List<Row> rows) {
    }

    @AfterEach
    void noReaderThreadOutlivesItsTest() {
        List<String> alive = Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(n -> n.startsWith(name + "-"))
                .toList();
        assertEquals(List.of(), alive, "threads left running after close()");
    }

    // ---- order, batching, shapes ----

    @ParameterizedTest(name = "batchSize={0} parseThreads={1} dropRemainder={2} ringSize={3}")
    @CsvSource({
            "1,   1, false, 1",
            "7,   1, false, 2",
            "7,   4, true,  8",
            "256, 4, false, 1",
            "256, 4, true,  8",
            "500, 2, false, 2",
    })
    @Timeout(10)
    void everyLineOnceInFileOrder(int batchSize, int parseThreads, boolean dropRemainder, int ringSize) throws IOException {
        List<Row> expected = writeParts(-1, 300, 200);

        List<Rows> batches;
        try (DataReader reader = builder(2, -1).batchSize(batchSize).reader(options().parseThreads(parseThreads).ringSize(ringSize).build())
                .dropRemainder(dropRemainder).build()) {
            batches = new ArrayList<>();
            for (Batch batch = reader.read(); batch != null; batch = reader.read()) {
                assertEquals(batches.size(), batch.index());
                assertEquals(0, batch.epoch());
                assertEquals(batchSize, batch.capacity());
                batches.add(rows(batch));
            }
            assertNull(reader.read(), "the end of the data stays the end");
        }

        int full = expected.size() / batchSize;
        int rest = expected.size() % batchSize;
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < full; i++) {
            sizes.add(batchSize);
        }
        if (rest > 0 && !dropRemainder) {
            sizes.add(rest);
        }
        assertEquals(sizes, batches.stream().map(b -> b.rows().size()).toList());
        int delivered = dropRemainder ? full * batchSize : expected.size();
        assertEquals(expected.subList(0, delivered), flatten(batches));
    }

    /**
     * Many short runs, each of which must reach the end of the data: the end is where the load
     * thread refills the slot the parse stage has just handed to the training loop.
     */
    @ParameterizedTest(name = "ringSize={0}")
    @ValueSource(ints = {1, 4})
    @Timeout(20)
    void everyRunReachesTheEndOfTheData(int ringSize) throws IOException {
        List<Row> expected = writeParts(-1, 3, 4);

        for (int run = 0; run < 200; run++) {
            List<Row> rows = flatten(readAll(builder(2, -1).batchSize(2).reader(options().ringSize(ringSize).parseThreads(1).build())));
            assertEquals(expected, rows, "run " + run);
        }
    }

    @Test
    @Timeout(10)
    void crlfLineEndingsAndALastLineWithoutLineBreak() throws IOException {
        write("part-0", "1,2\r\n3.5,-4\r\n5,6");
        write("part-1", "7,8\n9,10");
        write("part-2", "11,12\r\n");

        List<Row> rows = flatten(readAll(builder(3, -1).batchSize(2)));

        assertEquals(List.of(new Row(1, 2), new Row(3.5, -4), new Row(5, 6), new Row(7, 8), new Row(9, 10),
                new Row(11, 12)), rows);
    }

    @Test
    @Timeout(10)
    void anEmptyPartFileIsSkipped() throws IOException {
        write("part-0", "1,2\n");
        write("part-1", "");
        write("part-2", "3,4\n");

        List<Row> rows = flatten(readAll(builder(3, -1).batchSize(4).epochs(2)));

        assertEquals(List.of(new Row(1, 2), new Row(3, 4), new Row(1, 2), new Row(3, 4)), rows);
    }

    // ---- epochs and shuffling ----

    @Test
    @Timeout(10)
    void epochsMakesThatManyPassesInFileOrder() throws IOException {
        List<Row> once = writeParts(-1, 5, 4);

        List<Rows> batches = readAll(builder(2, -1).batchSize(4).epochs(3));

        List<Row> thrice = new ArrayList<>();
        for (int e = 0; e < 3; e++) {
            thrice.addAll(once);
        }
        assertEquals(thrice, flatten(batches));
        // 27 samples: six batches of 4 and one of 3; a batch's epoch is that of its last sample.
        int read = 0;
        for (Rows b : batches) {
            read += b.rows().size();
            assertEquals((read - 1) / once.size(), b.epoch(), "epoch of the batch ending at sample " + read);
        }
    }

    @Test
    @Timeout(10)
    void randomShuffleIsAPermutationFixedByTheSeed() throws IOException {
        List<Row> expected = writeParts(-1, 300, 200);
        int bufferSize = 64;
        long seed = 11;

        List<Row> a = flatten(readAll(builder(2, -1).batchSize(32).randomShuffle(true).shuffleBufferSize(bufferSize).seed(seed)));
        List<Row> b = flatten(readAll(builder(2, -1).batchSize(32).randomShuffle(true).shuffleBufferSize(bufferSize).seed(seed)));
        List<Row> other = flatten(readAll(builder(2, -1).batchSize(32).randomShuffle(true).shuffleBufferSize(bufferSize).seed(seed + 1)));

        assertEquals(sorted(expected), sorted(a), "every line exactly once, seed=" + seed);
        assertNotEquals(expected, a, "shuffled, seed=" + seed);
        assertEquals(a, b, "the same seed gives the same order, seed=" + seed);
        assertNotEquals(a, other, "another seed gives another order, seeds " + seed + " and " + (seed + 1));
        // A sample leaves the buffer at the earliest when it is read: the k-th sample out was
        // read among the first bufferSize + k + 1.
        for (int k = 0; k < a.size(); k++) {
            int readAt = expected.indexOf(a.get(k));
            assertTrue(readAt <= bufferSize + k, "sample " + readAt + " came out at " + k + ", seed=" + seed);
        }
    }

    @Test
    @Timeout(10)
    void shuffleAfterEpochReordersTheFilesFromTheSeed() throws IOException {
        int files = 5;
        int lines = 3;
        int epochs = 4;
        writeParts(-1, lines, lines, lines, lines, lines);
        long seed = 3;

        List<List<Integer>> orders = fileOrders(flatten(readAll(
                builder(files, -1).batchSize(4).epochs(epochs).shuffleAfterEpoch(true).seed(seed))), lines, epochs);
        List<List<Integer>> again = fileOrders(flatten(readAll(
                builder(files, -1).batchSize(4).epochs(epochs).shuffleAfterEpoch(true).seed(seed))), lines, epochs);
        List<List<Integer>> other = fileOrders(flatten(readAll(
                builder(files, -1).batchSize(4).epochs(epochs).shuffleAfterEpoch(true).seed(seed + 1))), lines, epochs);
        List<List<Integer>> unshuffled = fileOrders(flatten(readAll(
                builder(files, -1).batchSize(4).epochs(epochs).seed(seed))), lines, epochs);

        List<Integer> fileOrder = List.of(0, 1, 2, 3, 4);
        assertEquals(fileOrder, orders.getFirst(), "the first epoch reads the files in order");
        assertTrue(orders.stream().skip(1).anyMatch(o -> !o.equals(fileOrder)), "orders=" + orders + " seed=" + seed);
        for (List<Integer> order : orders) {
            assertEquals(fileOrder, order.stream().sorted().toList(), "each file once per epoch: " + orders);
        }
        assertEquals(orders, again, "same seed, same orders, seed=" + seed);
        assertNotEquals(orders, other, "seeds " + seed + " and " + (seed + 1));
        assertEquals(List.of(fileOrder, fileOrder, fileOrder, fileOrder), unshuffled, "without shuffleAfterEpoch");
    }

    // ---- part files ----

    @ParameterizedTest(name = "partNameSuffixLength={0} -> {1}")
    @CsvSource({"3, part-000, part-001", "-1, part-0, part-1", "0, part-0, part-1", "5, part-00000, part-00001"})
    @Timeout(10)
    void partNamesArePaddedToTheSuffixLength(int suffixLength, String first, String second) throws IOException {
        write(first, Row.of(0, 1).text());
        write(second, Row.of(1, 1).text());

        List<Row> rows = flatten(readAll(builder(2, suffixLength).batchSize(2)));

        assertEquals(List.of(Row.of(0, 1), Row.of(1, 1)), rows);
    }

    @Test
    @Timeout(10)
    void aMissingPartFileFailsTheBuildNamingIt() throws IOException {
        write("part-000", "1,2\n");

        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> builder(2, 3).batchSize(1).build());

        NoSuchFileException cause = assertInstanceOf(NoSuchFileException.class, e.getCause());
        assertEquals(dir.resolve("part-001").toString(), cause.getFile());
        assertTrue(e.getMessage().contains("part-001"), e.getMessage());
        // Unpadded names do not match padded files.
        UncheckedIOException unpadded = assertThrows(UncheckedIOException.class, () -> builder(1, -1).batchSize(1).build());
        assertTrue(unpadded.getMessage().contains(dir.resolve("part-0").toString()), unpadded.getMessage());
    }

    // ---- bad input ----

    @ParameterizedTest(name = "bad line \"{0}\"")
    @ValueSource(strings = {"1.0;2.0", "abc,1", "", "1,2,3", "1,"})
    @Timeout(10)
    void aBadLineFailsItsBatchNamingFileAndLineAfterEveryEarlierBatch(String bad) throws IOException {
        writeParts(-1, 5);
        String good1 = Row.of(1, 1).text() + "\n";
        String good2 = Row.of(1, 2).text() + "\n";
        write("part-1", good1 + good2 + bad + "\n" + Row.of(1, 4).text() + "\n");
        Path badFile = dir.resolve("part-1");

        try (DataReader reader = builder(2, -1).batchSize(2).reader(options().parseThreads(1).build()).build()) {
            // Lines 1-5 of part-0 and line 1 of part-1 fill batches 0-2; batch 3 holds line 2 and the bad line 3.
            List<Row> before = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                before.addAll(rows(reader.read()).rows());
            }
            assertEquals(List.of(Row.of(0, 1), Row.of(0, 2), Row.of(0, 3), Row.of(0, 4), Row.of(0, 5), Row.of(1, 1)), before);

            CorruptDataException cause = assertThrows(CorruptDataException.class, reader::read);
            assertEquals(badFile.toString(), cause.file());
            assertEquals(2, cause.record(), "record counts from 0");
            assertEquals(good1.length() + good2.length(), cause.offset(), "byte offset of the line");
            assertTrue(cause.getMessage().contains("line 3"), cause.getMessage());
            assertTrue(cause.getMessage().contains(badFile.toString()), cause.getMessage());
            assertSame(cause, assertThrows(CorruptDataException.class, reader::read), "every later read() throws it again");
        }
    }

    @Test
    @Timeout(10)
    void aBadLineInAParallelParseRangeFailsItsBatch() throws IOException {
        StringBuilder text = new StringBuilder();
        for (int line = 1; line <= 600; line++) {
            text.append(line == 500 ? "500,five hundred" : Row.of(0, line).text()).append('\n');
        }
        write("part-0", text.toString());

        try (DataReader reader = builder(1, -1).batchSize(256).reader(options().parseThreads(4).build()).build()) {
            List<Row> first = rows(reader.read()).rows();
            assertEquals(256, first.size());
            assertEquals(Row.of(0, 256), first.getLast());

            CorruptDataException cause = assertThrows(CorruptDataException.class, reader::read);
            assertTrue(cause.getMessage().contains("line 500"), cause.getMessage());
            assertEquals(dir.resolve("part-0").toString(), cause.file());
        }
    }

    // ---- resume ----

    @ParameterizedTest(name = "randomShuffle={0} shuffleAfterEpoch={1}")
    @CsvSource({"false, false", "true, false", "false, true", "true, true"})
    @Timeout(20)
    void aResumedReaderContinuesWithTheNextBatchAfterEveryBatch(boolean randomShuffle, boolean shuffleAfterEpoch)
            throws IOException {
        writeParts(-1, 23, 17, 9);
        long seed = 5;
        // 2 epochs of 49 lines in batches of 5: 19 full batches and one of 3; batch 9 straddles the epochs.
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(state -> {
            MiniReader.Builder builder = resumable(randomShuffle, shuffleAfterEpoch).seed(seed);
            return (state == null ? builder : builder.reader(resumableOptions().restore(state).build())).build();
        });
        assertEquals(20, run.batches().size());
        if (randomShuffle) {
            for (DatasetState state : run.states()) {
                DatasetState shuffle = ResumeRuns.find(state, "shuffle");
                int buffered = shuffle.list("epochs").length;
                assertTrue(buffered <= 8, state.toString());
                assertEquals(2 * buffered, shuffle.list("locations").length, "a file-and-line, offset pair per buffered line: " + state);
            }
        }
    }

    @Test
    @Timeout(10)
    void theResumeStateCarriesTheSeed() throws IOException {
        writeParts(-1, 23, 17, 9);
        long seed = 5;
        List<Rows> all = readAll(resumable(true, true).seed(seed));
        DatasetState state;
        try (DataReader reader = resumable(true, true).seed(seed).build()) {
            for (int i = 0; i < 7; i++) {
                reader.read();
            }
            state = reader.state();
        }

        List<Rows> tail = readAll(resumable(true, true).seed(seed + 100).reader(resumableOptions().restore(state).build()));

        assertEquals(all.subList(7, all.size()), tail, "resumed with another seed from " + state);
    }

    @Test
    @Timeout(10)
    void aStateOfAnotherRanksFilesIsRefused() throws IOException {
        writeParts(-1, 23, 17, 9, 4);
        DatasetState state;
        try (DataReader reader = builder(4, -1).batchSize(5).shard(0, 2).reader(options().name(name).build()).build()) {
            reader.read();
            state = reader.state();
        }

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> builder(4, -1).batchSize(5).shard(1, 2).reader(options().restore(state).build()).build().close());
        assertTrue(e.getMessage().contains("other files"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> builder(4, -1).batchSize(5).shard(0, 4).reader(options().restore(state).build()).build().close());
        builder(4, -1).batchSize(5).shard(0, 2).reader(options().restore(state).build()).build().close();
    }

    // ---- helpers ----

    /** The reader's options, named after the test so that its threads can be found. */
    private ReaderOptions.Builder options() {
        return ReaderOptions.builder().name(name);
    }

    private MiniReader.Builder builder(int parts, int suffixLength) {
        return MiniReader.builder().reader(options().build()).dataDir(dir).dataPartNum(parts).partNameSuffixLength(suffixLength);
    }

    private ReaderOptions.Builder resumableOptions() {
        return options().ringSize(4).parseThreads(2);
    }

    private MiniReader.Builder resumable(boolean randomShuffle, boolean shuffleAfterEpoch) {
        return builder(3, -1).batchSize(5).epochs(2).reader(resumableOptions().build())
                .randomShuffle(randomShuffle).shuffleBufferSize(8).shuffleAfterEpoch(shuffleAfterEpoch);
    }

    /** Writes {@code part-0 ..} with {@code lines[f]} rows each and returns every row in file order. */
    private List<Row> writeParts(int suffixLength, int... lines) throws IOException {
        List<Row> all = new ArrayList<>();
        for (int f = 0; f < lines.length; f++) {
            StringBuilder text = new StringBuilder();
            for (int j = 1; j <= lines[f]; j++) {
                Row row = Row.of(f, j);
                all.add(row);
                text.append(row.text()).append('\n');
            }
            write(PartFiles.partName("part-", suffixLength, f), text.toString());
        }
        return all;
    }

    private void write(String file, String text) throws IOException {
        Files.writeString(dir.resolve(file), text, StandardCharsets.UTF_8);
    }

    private static List<Rows> readAll(MiniReader.Builder builder) {
        try (DataReader reader = builder.build()) {
            List<Rows> batches = new ArrayList<>();
            for (Batch batch : reader) {
                batches.add(rows(batch));
            }
            return batches;
        }
    }

    /** The rows of {@code batch}, checking that {@code x}, {@code y} and {@code xy} agree. */
    private static Rows rows(Batch batch) {
        int n = batch.size();
        Tensor x = batch.tensor(MiniDecoder.X);
        Tensor y = batch.tensor(MiniDecoder.Y);
        Tensor xy = batch.tensor(MiniParser.OUTPUT);
        assertEquals(List.of(MiniParser.OUTPUT, MiniDecoder.X, MiniDecoder.Y), batch.names());
        for (Tensor t : List.of(x, y, xy)) {
            assertEquals(DataType.FLOAT64, t.dataType(), t.toString());
        }
        assertEquals(Shape.of(n, 1), x.shape());
        assertEquals(Shape.of(n, 1), y.shape());
        assertEquals(Shape.of(n, 2), xy.shape());
        double[] xs = x.toDoubleArray();
        double[] ys = y.toDoubleArray();
        double[] xys = xy.toDoubleArray();
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            assertEquals(xys[2 * i], xs[i], "x of row " + i);
            assertEquals(xys[2 * i + 1], ys[i], "y of row " + i);
            assertEquals(xs[i], x.getDouble(i));
            rows.add(new Row(xs[i], ys[i]));
        }
        return new Rows(batch.epoch(), rows);
    }

    private static List<Row> flatten(List<Rows> batches) {
        return batches.stream().flatMap(b -> b.rows().stream()).toList();
    }

    private static List<Row> sorted(List<Row> rows) {
        return rows.stream().sorted(Comparator.comparingDouble(Row::x)).toList();
    }

    /** The order of the files in each epoch, checking that each file's lines stay together and in order. */
    private static List<List<Integer>> fileOrders(List<Row> rows, int linesPerFile, int epochs) {
        int perEpoch = rows.size() / epochs;
        assertEquals(perEpoch * epochs, rows.size());
        List<List<Integer>> orders = new ArrayList<>();
        for (int e = 0; e < epochs; e++) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < perEpoch; i += linesPerFile) {
                int file = rows.get(e * perEpoch + i).file();
                for (int j = 0; j < linesPerFile; j++) {
                    assertEquals(Row.of(file, j + 1), rows.get(e * perEpoch + i + j), "epoch " + e);
                }
                order.add(file);
            }
            orders.add(order);
        }
        return orders;
    }
}
