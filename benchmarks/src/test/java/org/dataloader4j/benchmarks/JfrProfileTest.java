package org.dataloader4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** JfrProfile: samples grouped by thread and counted by method, from made-up samples and from a real recording. */
class JfrProfileTest {
    private static final String LOAD = "reader-load";
    private static final String PARSE = "org.example.Parse.decode";
    private static final String SPIN_THREAD = "jfr-profile-spin-7";

    /** Three parse workers, a load thread and a consumer. */
    private static final List<JfrProfile.Sample> SAMPLES = List.of(
            new JfrProfile.Sample("reader-parse-0", PARSE),
            new JfrProfile.Sample("reader-parse-1", PARSE),
            new JfrProfile.Sample("reader-parse-1", "org.example.Parse.copy"),
            new JfrProfile.Sample(LOAD, "org.example.Load.next"),
            new JfrProfile.Sample("main", "org.example.Main.touch"),
            new JfrProfile.Sample("reader-parse-12", PARSE));

    @TempDir
    Path dir;

    @Test
    void parseWorkersCountAsOneGroupAndMethodsAreRankedBySamples() {
        List<JfrProfile.Group> groups = JfrProfile.summarize(SAMPLES);

        // main and the load thread tie at one sample each: then by name.
        assertEquals(List.of("reader-parse-N", "main", LOAD), groups.stream().map(JfrProfile.Group::name).toList());
        JfrProfile.Group parse = groups.getFirst();
        assertEquals(4, parse.samples());
        assertEquals(List.of(Map.entry(PARSE, 3L), Map.entry("org.example.Parse.copy", 1L)), parse.methods());
        assertEquals(1, groups.get(2).samples());
    }

    @Test
    void printsEachGroupsShareOfAllSamples() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        JfrProfile.print(SAMPLES.size(), JfrProfile.summarize(SAMPLES), 1, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertEquals(String.join(System.lineSeparator(),
                "6 execution samples",
                " 66.7 %  reader-parse-N",
                "     50.0 %  " + PARSE,
                " 16.7 %  main",
                "     16.7 %  org.example.Main.touch",
                " 16.7 %  " + LOAD,
                "     16.7 %  org.example.Load.next",
                ""), bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(60)
    void readsTheSamplesOfARecording() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread spinner = new Thread(() -> spin(stop), SPIN_THREAD);
        Path file = dir.resolve("spin.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
            recording.start();
            spinner.start();
            Thread.sleep(500);
            stop.set(true);
            spinner.join();
            recording.stop();
            recording.dump(file);
        } finally {
            stop.set(true);
            spinner.join();
        }

        List<JfrProfile.Sample> samples = JfrProfile.read(file);

        JfrProfile.Group spin = JfrProfile.summarize(samples).stream()
                .filter(g -> g.name().equals("jfr-profile-spin-N")).findFirst().orElseThrow();
        assertTrue(spin.samples() > 0);
        assertEquals(JfrProfileTest.class.getName() + ".spin", spin.methods().getFirst().getKey());
    }

    /** Busy until {@code stop} is set; returns a value so the loop is not removed. */
    private static long spin(AtomicBoolean stop) {
        long x = 0;
        while (!stop.get()) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }
}
