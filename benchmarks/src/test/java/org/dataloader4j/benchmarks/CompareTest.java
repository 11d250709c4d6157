package org.dataloader4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Compare on tiny datasets: every system reads every record and reports in the documented format. No timings are checked. */
class CompareTest {
    private static final int RECORDS = 700;

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void everySystemReadsEveryRecordOfEveryDatasetItReads() throws Exception {
        String text = run("--warmup", "1", "--fork", "false");

        List<String> expected = new ArrayList<>();
        for (CompareDataset d : CompareDataset.values()) {
            for (int threads : List.of(1, 2)) {
                expected.add(result(Dataloader4jSystem.NAME, d, threads));
                if (d.framing() == Framing.OFRECORD) {
                    expected.add(result(ProtobufJavaSystem.NAME, d, threads));
                }
                for (String copy : List.of(MmapCopySystem.NAME, MmapCopySystem.SHUFFLED_NAME)) {
                    if (d.compression() == Compression.NONE) {
                        expected.add(result(copy, d, threads));
                    } else {
                        assertTrue(!text.contains("RESULT " + copy + " " + d.id() + " "), text);
                    }
                }
                if (d.framing() == Framing.TFRECORD) {
                    // Measured where the native library is on the class path, else reported, never left out.
                    expected.add("RESULT " + TensorFlowJavaSystem.NAME + " " + d.id() + " (records_per_s=\\d+ .* records="
                            + RECORDS + " threads=" + threads + "|unavailable threads=" + threads + " reason=\".+\")");
                }
            }
        }
        for (String line : expected) {
            assertTrue(Pattern.compile("(?m)^" + line + "$").matcher(text).find(), "no line " + line + " in\n" + text);
        }
        assertTrue(Pattern.compile("(?m)^DETAIL dataloader4j mnist-ofrecord threads=1 first_batch_ms=\\d+\\.\\d "
                + "alloc_bytes_per_record=\\S+ gc_pauses=\\d+ gc_pause_ms=\\d+ gc_max_pause_ms=\\d+ pass_seconds=\\d+\\.\\d+$")
                .matcher(text).find(), text);
        // Every dataloader4j run splits its pass, and the parts lie within it; no other system reports stages.
        for (CompareDataset d : CompareDataset.values()) {
            for (int threads : List.of(1, 2)) {
                assertStagesWithinThePass(text, d, threads);
            }
        }
        assertEquals(2 * CompareDataset.values().length, text.lines().filter(l -> l.startsWith("STAGES ")).count(), text);
        assertTrue(Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("d4j-compare-") || t.getName().startsWith("protobuf-java-")), "threads left");
    }

    /**
     * Checks the {@code STAGES} line of dataloader4j's run of {@code d} at {@code threads}, a run of
     * one timed pass that built its reader: the build and close together, the parse workers' time
     * in the parser, and the load thread's time in the dataset and waiting for a slot each fit
     * within that pass.
     */
    private static void assertStagesWithinThePass(String text, CompareDataset d, int threads) {
        String number = "(\\d+\\.\\d)";
        Matcher stages = Pattern.compile("(?m)^STAGES dataloader4j " + d.id() + " threads=" + threads + " build_ms=" + number
                + " close_ms=" + number + " parse_ms=" + number + " load_ms=" + number + " load_wait_ms=" + number + "$").matcher(text);
        assertTrue(stages.find(), "no STAGES line for " + d.id() + " threads=" + threads + " in\n" + text);
        Matcher detail = Pattern.compile("(?m)^DETAIL dataloader4j " + d.id() + " threads=" + threads + " .* pass_seconds=(\\d+\\.\\d+)$")
                .matcher(text);
        assertTrue(detail.find(), text);
        // The pass's seconds are rounded to the millisecond, the stages to a tenth of one.
        double passMs = Double.parseDouble(detail.group(1)) * 1000 + 0.5;
        double build = Double.parseDouble(stages.group(1));
        double close = Double.parseDouble(stages.group(2));
        double parse = Double.parseDouble(stages.group(3));
        double load = Double.parseDouble(stages.group(4));
        double loadWait = Double.parseDouble(stages.group(5));
        String line = stages.group();
        assertTrue(build + close <= passMs + 0.1, line + " against a pass of " + passMs + " ms");
        assertTrue(parse <= passMs + 0.05, line + " against a pass of " + passMs + " ms");
        assertTrue(load + loadWait <= passMs + 0.1, line + " against a pass of " + passMs + " ms");
    }

    /** Runs Compare on tiny datasets in {@link #dir} with {@code more} options; checks it succeeded and returns its output. */
    private String run(String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--data", dir.toString(), "--records", Integer.toString(RECORDS),
                "--threads", "1,2", "--passes", "1", "--batch", "64", "--shuffle-buffer", "128"));
        args.addAll(List.of(more));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean ok;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ok = Compare.run(CompareOptions.parse(args.toArray(String[]::new)), out);
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(ok, text);
        return text;
    }

    private static String result(String system, CompareDataset d, int threads) {
        return "RESULT " + system + " " + d.id() + " records_per_s=\\d+ mb_per_s=\\d+\\.\\d seconds=\\d+\\.\\d{3} records="
                + RECORDS + " threads=" + threads;
    }

    @Test
    @Timeout(180)
    void forkedRunsReportFromJvmsOfTheirOwn() throws Exception {
        String text = run("--warmup", "0", "--systems", "dataloader4j,mmap-copy", "--datasets",
                "bert-ofrecord,mnist-tfrecord-gzip");
        List<String> results = text.lines().filter(l -> l.startsWith("RESULT ")).toList();
        assertEquals(6, results.size(), text);
        for (int threads : List.of(1, 2)) {
            for (String line : List.of(result(Dataloader4jSystem.NAME, CompareDataset.BERT_OFRECORD, threads),
                    result(MmapCopySystem.NAME, CompareDataset.BERT_OFRECORD, threads),
                    result(Dataloader4jSystem.NAME, CompareDataset.MNIST_TFRECORD_GZIP, threads))) {
                assertTrue(Pattern.compile("(?m)^" + line + "$").matcher(text).find(), "no line " + line + " in\n" + text);
            }
            assertTrue(text.contains("DETAIL dataloader4j bert-ofrecord threads=" + threads + " "), text);
            assertTrue(text.contains("STAGES dataloader4j bert-ofrecord threads=" + threads + " "), text);
        }
        // Only the parent's header and DATA lines: the children's are not copied.
        assertEquals(2, text.lines().filter(l -> l.startsWith("DATA ")).count(), text);
        assertEquals(0, ProcessHandle.current().children().count(), "a forked JVM outlived its run");
        List<String> forks = text.lines().filter(l -> l.startsWith("FORK ")).toList();
        assertEquals(3, forks.size(), text);
        for (String fork : forks) {
            assertTrue(fork.matches("FORK \\S+ \\S+ pid=\\d+ exit=0"), fork);
            assertFalse(fork.contains(" pid=" + ProcessHandle.current().pid() + " "), "ran in this JVM: " + fork);
        }
    }

    @Test
    @Timeout(180)
    void withReuseOneReaderAndOneSetOfMappingsServeEveryPass() throws Exception {
        // 700 records in batches of 64: each pass of the kept reader ends 4 records into the next epoch.
        String text = run("--warmup", "1", "--passes", "3", "--fork", "false", "--reuse", "true", "--systems",
                "dataloader4j,mmap-copy", "--datasets", "mnist-ofrecord,mnist-tfrecord");
        assertTrue(text.contains(" reuse=true"), text);
        for (int threads : List.of(1, 2)) {
            for (CompareDataset d : List.of(CompareDataset.MNIST_OFRECORD, CompareDataset.MNIST_TFRECORD)) {
                for (String line : List.of(result(Dataloader4jSystem.NAME, d, threads), result(MmapCopySystem.NAME, d, threads))) {
                    assertTrue(Pattern.compile("(?m)^" + line + "$").matcher(text).find(), "no line " + line + " in\n" + text);
                }
                // The timed passes did not build the reader, so none has a first batch to report;
                // every batch is in the steady state, so allocation is measured.
                assertTrue(Pattern.compile("(?m)^DETAIL dataloader4j " + d.id() + " threads=" + threads
                        + " first_batch_ms=n/a alloc_bytes_per_record=\\d+\\.\\d ").matcher(text).find(), text);
                // Nor stages: the reader's counters are not split by pass.
                assertFalse(text.contains("STAGES dataloader4j " + d.id() + " threads=" + threads + " "), text);
            }
        }
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("d4j-compare-")),
                "a kept reader's threads outlived its run");
    }

    @Test
    @Timeout(180)
    void pairedSystemsTakeTurnsInOneJvmPerDatasetAndTheFirstIsSetAgainstEachOther() throws Exception {
        // Named out of `all`'s order: the first named is the one set against the others.
        String text = run("--warmup", "1", "--passes", "3", "--paired", "true", "--systems", "protobuf-java,dataloader4j,mmap-copy",
                "--datasets", "bert-ofrecord");
        assertTrue(text.contains(" paired=true"), text);
        for (int threads : List.of(1, 2)) {
            for (String system : List.of(Dataloader4jSystem.NAME, ProtobufJavaSystem.NAME, MmapCopySystem.NAME)) {
                String line = result(system, CompareDataset.BERT_OFRECORD, threads);
                assertTrue(Pattern.compile("(?m)^" + line + "$").matcher(text).find(), "no line " + line + " in\n" + text);
                // Each system's own three timed passes.
                assertTrue(Pattern.compile("(?m)^DETAIL " + system + " bert-ofrecord threads=" + threads
                        + " .* pass_seconds=\\d+\\.\\d+,\\d+\\.\\d+,\\d+\\.\\d+$").matcher(text).find(), text);
            }
            for (String other : List.of(Dataloader4jSystem.NAME, MmapCopySystem.NAME)) {
                assertTrue(Pattern.compile("(?m)^PAIRED bert-ofrecord threads=" + threads + " a=protobuf-java b=" + other
                        + " rounds=3 a_over_b=\\d+\\.\\d{3} a_over_b_quartiles=\\d+\\.\\d{3},\\d+\\.\\d{3} a_faster=[0-3]/3$")
                        .matcher(text).find(), text);
            }
        }
        assertEquals(4, text.lines().filter(l -> l.startsWith("PAIRED ")).count(), text);
        // One JVM for the dataset, not one per system.
        List<String> forks = text.lines().filter(l -> l.startsWith("FORK ")).toList();
        assertEquals(1, forks.size(), text);
        assertTrue(forks.getFirst().matches("FORK protobuf-java,dataloader4j,mmap-copy bert-ofrecord pid=\\d+ exit=0"), text);
        assertEquals(0, ProcessHandle.current().children().count(), "a forked JVM outlived its run");
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(2.5, Compare.median(new double[] {4.0, 1.0, 3.0, 2.0}));
        assertEquals(3.0, Compare.median(new double[] {5.0, 3.0, 1.0}));
        assertEquals(20.0, Compare.median(new long[] {30, 10}));
    }

    @Test
    void aDatasetIsReusedWithTheSameSettingsAndRewrittenWithOthers() throws Exception {
        DataFiles first = DataFiles.ensure(dir, CompareDataset.BERT_OFRECORD, 50, 2, 3);
        Path file = first.files().get(0);
        FileTime old = FileTime.fromMillis(0);
        Files.setLastModifiedTime(file, old);
        byte[] before = Files.readAllBytes(file);

        DataFiles again = DataFiles.ensure(dir, CompareDataset.BERT_OFRECORD, 50, 2, 3);
        assertEquals(first, again);
        assertEquals(old, Files.getLastModifiedTime(file), "rewritten although the settings are the same");

        DataFiles reseeded = DataFiles.ensure(dir, CompareDataset.BERT_OFRECORD, 50, 2, 4);
        assertEquals(50, reseeded.records());
        assertFalse(Arrays.equals(before, Files.readAllBytes(file)), "the same bytes from another seed");
    }

    @Test
    void theSameSeedDrawsTheSameRecords() {
        for (SyntheticRecords.Kind kind : SyntheticRecords.Kind.values()) {
            List<byte[]> a = SyntheticRecords.payloads(kind, 9, 20, false);
            List<byte[]> b = SyntheticRecords.payloads(kind, 9, 20, false);
            for (int i = 0; i < a.size(); i++) {
                assertArrayEquals(a.get(i), b.get(i), kind + " record " + i);
            }
        }
    }
}
