package org.dataloader4j.cli.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoDataTest {
    @TempDir
    Path cache;

    @Test
    void theSyntheticDatasetIsWrittenOnceAndReusedAfterwards() throws IOException {
        boolean[] written = {false};
        Path dir = DemoData.ensure(cache, written);
        assertTrue(written[0]);
        assertEquals(cache.resolve("mnist-like"), dir);
        for (Path f : DemoData.trainFiles(dir)) {
            assertTrue(Files.isRegularFile(f), f::toString);
        }
        long modified = Files.getLastModifiedTime(DemoData.testFile(dir)).toMillis();

        assertEquals(dir, DemoData.ensure(cache, written));
        assertFalse(written[0]);
        assertEquals(modified, Files.getLastModifiedTime(DemoData.testFile(dir)).toMillis());
    }

    @Test
    void anUnmarkedFolderIsWrittenAgain() throws IOException {
        boolean[] written = {false};
        Path dir = DemoData.ensure(cache, written);
        Files.delete(cache.resolve("mnist-like" + DemoData.MARKER));
        Files.delete(DemoData.testFile(dir));

        DemoData.ensure(cache, written);
        assertTrue(written[0]);
        assertTrue(Files.isRegularFile(DemoData.testFile(dir)));
    }
}
