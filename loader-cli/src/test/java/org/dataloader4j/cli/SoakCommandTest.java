package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SoakCommandTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void streamsTheRecordsAndReportsMemoryAtTheStartAndTheEnd() {
        // Far more than one epoch (8,000 records): the reader goes on epoch after epoch.
        Cli.Result r = Cli.run("soak", "--cache", dir.toString(), "--records", "30000", "--warmup", "10000",
                "--threads", "2", "--tolerance", "1000");
        assertEquals(0, r.code(), r::toString);
        List<String> lines = r.lines();
        assertTrue(lines.get(0).startsWith("soak: 30,000 records over 4 files"), r::toString);
        Pattern memory = Pattern.compile(".*resident [\\d.]+ MB, live heap [\\d.]+ MB, reader slots [\\d.]+ MB off-heap.*");
        assertTrue(lines.get(1).startsWith("start, 10,"), r::toString);
        assertTrue(memory.matcher(lines.get(1)).matches(), r::toString);
        Matcher streamed = Pattern.compile("streamed ([\\d,]+) records in .*").matcher(lines.get(lines.size() - 2));
        assertTrue(streamed.matches(), r::toString);
        assertTrue(Long.parseLong(streamed.group(1).replace(",", "")) >= 30_000, r::toString);
        assertTrue(lines.getLast().matches("resident memory [+-][\\d.]+ %, live heap [+-][\\d.]+ % from the start to the end: "
                + "flat within 1000.0 %"), r::toString);
    }

    @Test
    @Timeout(60)
    void refusesAWarmupAsLongAsTheRun() {
        Cli.Result r = Cli.run("soak", "--cache", dir.toString(), "--records", "10", "--warmup", "10");
        assertEquals(2, r.code(), r::toString);
    }
}
