package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.RecordWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Remote locations where no store reads them: this module's tests run without loader-hadoop, as
 * {@code ./loader} does unless told where it is. (With it, the same commands read {@code hdfs://}
 * and {@code s3a://} files: loader-hadoop's tests run them against real servers.)
 */
class RemoteInputsTest {

    @Test
    void aRemoteLocationWithoutAStoreSaysWhatToAddAndShowsNoCredentials() {
        String location = "s3a://d4j-access:d4j-SECRET@bucket/train";
        for (String[] args : new String[][] {{"inspect", location}, {"verify", location}, {"index", location, "--index-dir", "x"},
            {"bench", location, "--feature", "x:int64:1"}, {"convert", location, "-o", "out"}}) {
            Cli.Result r = Cli.run(args);
            assertEquals(2, r.code(), r.toString());
            assertTrue(r.err().startsWith("loader: no file store reads s3a:// locations such as s3a://bucket/train: put"
                    + " loader-hadoop and your Hadoop client"), r.err());
            assertTrue(r.err().contains("LOADER_CLASSPATH"), r.err());
            assertFalse(r.toString().contains("d4j-SECRET"), r.toString());
        }
    }

    @Test
    void localFilesAreReadAsEverAndFileUrisAsPaths(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("part-0");
        try (RecordWriter out = RecordWriter.create(file)) {
            out.write(Features.record(Map.of("id", Features.int64Feature(7))).toByteArray());
        }
        Cli.Result byPath = Cli.run("verify", file.toString());
        assertEquals(0, byPath.code(), byPath.toString());
        assertEquals("1 file, 1 record: all valid\n", byPath.out());
        Cli.Result byUri = Cli.run("verify", file.toUri().toString());
        assertEquals(byPath, byUri);
        assertTrue(Files.isRegularFile(file));
    }
}
