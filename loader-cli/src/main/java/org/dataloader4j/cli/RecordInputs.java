package org.dataloader4j.cli;

import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dataloader4j.cli.internal.FileFormat;
import org.dataloader4j.cli.internal.InputFile;
import org.dataloader4j.cli.internal.InputFiles;
import org.dataloader4j.cli.internal.RecordFiles;
import org.dataloader4j.core.reader.FilePipelineBuilder;
import org.dataloader4j.format.Framing;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The record files a command reads, local or in a remote store ({@code hdfs://}, {@code s3a://}),
 * the options of those stores, and the format option that overrides their detection.
 */
final class RecordInputs {
    @Parameters(paramLabel = "PATH", arity = "1..*",
            description = "record files, or folders of them: local paths, or URIs such as hdfs://namenode:8020/data "
                    + "or s3a://bucket/data (with loader-hadoop and a Hadoop client on the class path)")
    private List<String> paths;

    @Option(names = "--format", paramLabel = "FORMAT", description = "ofrecord or tfrecord (default: detected per file)")
    private FormatOption format;

    @Option(names = "--store-option", paramLabel = "KEY=VALUE",
            description = "a Hadoop configuration key for remote files, set over core-site.xml and hdfs-site.xml "
                    + "(e.g. fs.s3a.endpoint=http://127.0.0.1:9000; repeat for more). Leave credentials to "
                    + "Hadoop's configuration or the environment; they are never shown")
    private Map<String, String> storeOptions = new LinkedHashMap<>();

    /** The paths and URIs as given. */
    List<String> paths() {
        return paths;
    }

    /** The remote stores' options, as given. */
    Map<String, String> storeOptions() {
        return storeOptions;
    }

    /** The files the paths name, and the stores of the remote ones, open until closed; see {@link RecordFiles#expand}. */
    InputFiles open() throws IOException {
        return InputFiles.open(paths, storeOptions);
    }

    /**
     * Has reader builder {@code b} read {@code files}: local ones mapped, remote ones through
     * their store, with the store options given (a mix of both the builder refuses).
     */
    <B extends FilePipelineBuilder<B>> B readFiles(B b, List<InputFile> files) {
        if (files.stream().anyMatch(InputFile::remote)) {
            b.files(files.stream().map(f -> f.remote() ? f.stored().location() : f.path().toUri()).toArray(URI[]::new));
            storeOptions.forEach(b::storeOption);
            return b;
        }
        return b.files(files.stream().map(InputFile::path).toList());
    }

    /** The paths and URIs as shown: remote ones without user information. */
    String shown() {
        return String.join(" ", paths.stream().map(InputFiles::shown).toList());
    }

    /** The format given, or null to detect it. */
    Framing framing() {
        return FormatOption.framing(format);
    }

    /** {@code file}'s format: the one given, or detected. */
    FileFormat formatOf(InputFile file) throws IOException {
        return FileFormat.of(file, framing());
    }
}
