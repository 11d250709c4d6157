package org.dataloader4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report of alternated runs, over runs written as Compare writes them. */
class AbReportTest {
    @TempDir
    Path dir;

    /** A run's output: dataloader4j and protobuf-java at one thread, with a STAGES line and noise between. */
    private void run(String arm, int i, long d4j, long protobuf, double parseMs) throws IOException {
        Files.write(dir.resolve(arm + "-" + i + ".txt"), List.of(
                "Compare: dataloader4j 0.1.0",
                "RESULT dataloader4j bert-ofrecord records_per_s=" + d4j + " mb_per_s=1.0 seconds=0.1 records=100000 threads=1",
                "DETAIL dataloader4j bert-ofrecord threads=1 first_batch_ms=2.0 alloc_bytes_per_record=62.0",
                "STAGES dataloader4j bert-ofrecord threads=1 build_ms=0.8 close_ms=1.0 parse_ms=" + parseMs + " load_ms=21.6 load_wait_ms=3.0",
                "RESULT protobuf-java bert-ofrecord records_per_s=" + protobuf + " mb_per_s=1.0 seconds=0.3 records=100000 threads=1",
                "RESULT tensorflow-java bert-ofrecord unavailable threads=1 reason=\"no native library\""));
    }

    @Test
    void mediansCountsAndRatiosWithinRunsArePairedRunByRun() throws IOException {
        run("a", 1, 1000, 500, 60.0);
        run("b", 1, 1500, 500, 50.0);
        run("a", 2, 2000, 400, 62.5);
        run("b", 2, 1800, 300, 61.0);
        run("a", 3, 1200, 400, 70.0);
        run("b", 3, 1300, 400, 40.0);
        run("a", 4, 900, 300, 80.0); // a run of A without its pair: left out
        List<String> report = AbReport.report(AbReport.runs(dir, "a"), AbReport.runs(dir, "b"), "base", "new");
        assertEquals(List.of(
                "AB pairs=3 a=\"base\" b=\"new\"",
                "AB records_per_s dataloader4j bert-ofrecord threads=1 a=1200 b=1500 b_higher=2/3",
                "AB records_per_s protobuf-java bert-ofrecord threads=1 a=400 b=400 b_higher=0/3",
                "AB parse_ms dataloader4j bert-ofrecord threads=1 a=62.5 b=50.0 b_higher=0/3",
                // A: 2.0, 5.0, 3.0; B: 3.0, 6.0, 3.25.
                "AB ratio dataloader4j/protobuf-java bert-ofrecord threads=1 a=3.00 (2.00-5.00) b=3.25 (3.00-6.00) runs=3,3"),
                report);
    }
}
