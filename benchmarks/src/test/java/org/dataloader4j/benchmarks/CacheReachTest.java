package org.dataloader4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** CacheReach: the cycle it follows visits every line once, and a run reports all three ways. */
class CacheReachTest {
    @Test
    void theCycleVisitsEveryLineOnceBeforeComingBack() {
        int lines = 1000;
        int line = CacheReach.LINE_INTS;
        int[] cycle = CacheReach.cycle(lines, new SplittableRandom(3));
        boolean[] seen = new boolean[lines];
        int at = 0;
        for (int i = 0; i < lines; i++) {
            assertEquals(0, at % line, "a link points at a line's first int");
            assertTrue(!seen[at / line], "line " + at / line + " visited twice");
            seen[at / line] = true;
            at = cycle[at];
        }
        assertEquals(0, at, "the cycle closes after every line");
        int inOrder = 0;
        for (int i = 0; i + 1 < lines; i++) {
            inOrder += cycle[i * line] == (i + 1) * line ? 1 : 0;
        }
        assertTrue(inOrder < lines / 10, "the order is shuffled, not front to back: " + inOrder);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRunReportsEachWayOfReachingTheBuffer() throws InterruptedException {
        CacheReach.Reach r = CacheReach.measure(1, new int[1 << 20], 3);
        assertEquals(1, r.megabytes());
        for (double ns : new double[] {r.memory(), r.sameThread(), r.otherThread()}) {
            assertTrue(ns > 0 && Double.isFinite(ns), "ns per line: " + ns);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CacheReach.print(r, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith("REACH 1 MB: memory "), bytes.toString(StandardCharsets.UTF_8));
    }
}
