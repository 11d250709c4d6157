package org.dataloader4j.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.dataloader4j.cli.internal.FileFormat;
import org.dataloader4j.cli.internal.RecordFiles;
import org.dataloader4j.format.Framing;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The record files a command reads, and the format option that overrides their detection. */
final class RecordInputs {
    @Parameters(paramLabel = "PATH", arity = "1..*", description = "record files, or folders of them")
    private List<Path> paths;

    @Option(names = "--format", paramLabel = "FORMAT", description = "ofrecord or tfrecord (default: detected per file)")
    private FormatOption format;

    /** The paths as given. */
    List<Path> paths() {
        return paths;
    }

    /** The files the paths name; see {@link RecordFiles#expand}. */
    List<Path> files() throws IOException {
        return RecordFiles.expand(paths);
    }

    /** The format given, or null to detect it. */
    Framing framing() {
        return FormatOption.framing(format);
    }

    /** {@code file}'s format: the one given, or detected. */
    FileFormat formatOf(Path file) throws IOException {
        return FileFormat.of(file, framing());
    }
}
