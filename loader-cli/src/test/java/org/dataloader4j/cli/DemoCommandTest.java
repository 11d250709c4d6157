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
    void trainsOnTheRealDigitsAndReachesTheAccuracyOfSoftmaxRegressionOnTheHeldOutFifth() {
        Path cache = dir.resolve("cache");
        Cli.Result r = Cli.run("demo", "--cache", cache.toString());
        assertEquals(0, r.code(), r::toString);
        List<String> lines = r.lines();
        assertEquals("handwritten digits (UCI, CC BY 4.0): 1,797 images of 8x8 pixels, training on the 4 parts in "
                + cache.resolve("digits") + ", testing on part-00004", lines.get(0));
        Pattern epoch = Pattern.compile("epoch (\\d+)/30  loss=(\\d+\\.\\d+)  train accuracy=(\\d\\.\\d+)  [\\d,]+ records/s");
        for (int e = 1; e <= 30; e++) {
            Matcher m = epoch.matcher(lines.get(e));
            assertTrue(m.matches(), lines.get(e));
            assertEquals(e, Integer.parseInt(m.group(1)));
        }
        Matcher accuracy = Pattern.compile("test accuracy (\\d\\.\\d+) on 359 held-out images").matcher(lines.get(31));
        assertTrue(accuracy.matches(), r::toString);
        assertTrue(Double.parseDouble(accuracy.group(1)) >= 0.95, r::toString);
        assertTrue(lines.get(32).startsWith("loader: 43,140 records in "), r::toString);
        assertTrue(lines.get(33).startsWith("input wait: the training loop waited "), r::toString);
        assertEquals(34, lines.size(), r::toString);
    }

    @Test
    @Timeout(120)
    void theCacheIsUnderXdgCacheHome() {
        Cli.Result r = Cli.run(Map.of("XDG_CACHE_HOME", dir.toString()), "demo", "--epochs", "1");
        assertEquals(0, r.code(), r::toString);
        assertTrue(Files.isRegularFile(dir.resolve("dataloader4j/demo/digits/part-00004")), r::toString);
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
