package org.dataloader4j.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The round trips on the local disk, through {@code file:} URIs. */
class LocalSparkRoundTripTest extends SparkRoundTripContract {
    @TempDir
    Path tmp;

    private int folders;

    @Override
    String folder() throws IOException {
        return "file:" + Files.createDirectories(tmp).resolve("data-" + folders++);
    }
}
