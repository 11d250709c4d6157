package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void trainsOnACachedDatasetWrittenOnceAndReusedAfterwards() throws Exception {
        Path cache = dir.resolve("cache");
        Cli.Result first = Cli.run("demo", "--cache", cache.toString(), "--epochs", "2");
        assertEquals(0, first.code(), first::toString);
        List<String> lines = first.lines();
        assertTrue(lines.get(0).startsWith("wrote the demo dataset in "), first::toString);
        Pattern epoch = Pattern.compile("epoch (\\d)/2  loss=(\\d+\\.\\d+)  train accuracy=(\\d\\.\\d+)  [\\d,]+ records/s");
        for (int e = 1; e <= 2; e++) {
            Matcher m = epoch.matcher(lines.get(e));
            assertTrue(m.matches(), lines.get(e));
            assertEquals(e, Integer.parseInt(m.group(1)));
        }
        Matcher accuracy = Pattern.compile("test accuracy (\\d\\.\\d+) on 2000 held-out records").matcher(lines.get(3));
        assertTrue(accuracy.matches(), first::toString);
        assertTrue(Double.parseDouble(accuracy.group(1)) > 0.8, first::toString);
        assertTrue(lines.get(4).startsWith("loader: 16,000 records in "), first::toString);
        assertTrue(lines.get(5).startsWith("input wait: the training loop waited "), first::toString);
        Path data = cache.resolve("mnist-like");
        long modified = Files.getLastModifiedTime(data.resolve("part-00000")).toMillis();

        Cli.Result second = Cli.run("demo", "--cache", cache.toString(), "--epochs", "1");
        assertEquals(0, second.code(), second::toString);
        assertEquals("using the cached demo dataset: " + data, second.lines().get(0));
        assertEquals(modified, Files.getLastModifiedTime(data.resolve("part-00000")).toMillis());
    }

    @Test
    @Timeout(120)
    void theCacheIsUnderXdgCacheHome() {
        Cli.Result r = Cli.run(Map.of("XDG_CACHE_HOME", dir.toString()), "demo", "--epochs", "1");
        assertEquals(0, r.code(), r::toString);
        assertTrue(Files.isRegularFile(dir.resolve("dataloader4j/demo/mnist-like/part-00004")), r::toString);
    }

    @Test
    @Timeout(60)
    void miniFitsTheLine() {
        Cli.Result r = Cli.run("demo", "--mini", "--cache", dir.toString());
        assertEquals(0, r.code(), r::toString);
        List<String> lines = r.lines();
        assertEquals(21, lines.size(), r::toString);
        Matcher m = Pattern.compile("fitted w=(-?\\d+\\.\\d{4}) b=(-?\\d+\\.\\d{4})").matcher(lines.get(20));
        assertTrue(m.matches(), r::toString);
        assertEquals(2.0, Double.parseDouble(m.group(1)), 0.05);
        assertEquals(0.0, Double.parseDouble(m.group(2)), 0.05);
    }
}
