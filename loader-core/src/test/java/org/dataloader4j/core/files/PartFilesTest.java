package org.dataloader4j.core.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartFilesTest {

    @Test
    void namesPartsAsOneFlowDoes() {
        assertEquals("part-00003", PartFiles.partName("part-", 5, 3));
        assertEquals("part-3", PartFiles.partName("part-", -1, 3));
        assertEquals("part-12345", PartFiles.partName("part-", 3, 12345));
        assertEquals("data_000", PartFiles.partName("data_", 3, 0));
    }

    @Test
    void listsExistingPartsInIndexOrder(@TempDir Path dir) throws IOException {
        for (String name : List.of("part-000", "part-001", "part-002")) {
            Files.writeString(dir.resolve(name), "1,2\n");
        }
        assertEquals(List.of(dir.resolve("part-000"), dir.resolve("part-001"), dir.resolve("part-002")),
                PartFiles.oneflow(dir, "part-", 3, 3));
    }

    @Test
    void aMissingPartIsAnErrorThatNamesIt(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("part-0"), "1,2\n");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> PartFiles.oneflow(dir, "part-", -1, 2));
        assertTrue(e.getCause() instanceof NoSuchFileException);
        assertTrue(e.getMessage().contains(dir.resolve("part-1").toString()), e.getMessage());
    }

    @Test
    void checksArguments(@TempDir Path dir) {
        assertThrows(IllegalArgumentException.class, () -> PartFiles.oneflow(dir, "part-", -2, 1));
        assertThrows(IllegalArgumentException.class, () -> PartFiles.oneflow(dir, "part-", -1, 0));
        assertThrows(IllegalArgumentException.class, () -> PartFiles.of(List.of()));
    }
}
