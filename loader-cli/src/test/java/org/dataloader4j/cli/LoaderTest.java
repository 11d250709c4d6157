package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LoaderTest {

    @ParameterizedTest
    @ValueSource(strings = {"demo", "inspect", "verify", "convert", "index", "bench", "preview", "state"})
    void everyCommandHasHelpWithAnExampleAndTheExitCodes(String command) {
        Cli.Result r = Cli.run(command, "--help");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().startsWith("Usage: loader " + command), r::toString);
        assertTrue(r.out().contains("Example"), r::toString);
        assertTrue(r.out().contains("Exit codes:"), r::toString);
    }

    @Test
    void noCommandPrintsTheUsage() {
        Cli.Result r = Cli.run();
        assertEquals(0, r.code(), r::toString);
        for (String command : List.of("demo", "inspect", "verify", "convert", "index", "bench", "preview", "state")) {
            assertTrue(r.out().contains("  " + command + " "), command + " listed: " + r);
        }
    }

    @Test
    void aWrongCommandLineIsOneLineAndExitsTwo() {
        Cli.Result r = Cli.run("inspect", "--no-such-option", "x");
        assertEquals(2, r.code(), r::toString);
        assertEquals(List.of("loader: Unknown option: '--no-such-option'", "        see 'loader inspect --help'"),
                r.err().lines().toList());
        Cli.Result unknown = Cli.run("frobnicate");
        assertEquals(2, unknown.code(), unknown::toString);
    }

    @Test
    void aBadNumberIsAUsageError() {
        Cli.Result r = Cli.run("inspect", "-n", "-1", "x");
        assertEquals(2, r.code(), r::toString);
        assertEquals(List.of("loader: -n must be >= 0: n=-1"), r.err().lines().toList());
    }
}
