package org.dataloader4j.cli.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dataloader4j.core.files.RecordIndex;

/**
 * The record files named on a command line: a file is itself, a folder is every regular file
 * under it, in path order, leaving out hidden files and folders and index sidecars
 * ({@code *}{@value RecordIndex#SUFFIX}). A folder of a remote store ({@code hdfs://},
 * {@code s3a://}) is the data files directly in it, as the store lists them
 * ({@link org.dataloader4j.format.store.FileStore#list}).
 */
public final class RecordFiles {
    private RecordFiles() {
    }

    /**
     * The files of {@code paths}, in the order given.
     *
     * @throws NoSuchFileException if a path does not exist
     * @throws CliException        (usage) if a folder holds no record file
     */
    public static List<Path> expand(List<Path> paths) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                List<Path> in;
                try (Stream<Path> walk = Files.walk(p)) {
                    in = walk.filter(f -> Files.isRegularFile(f) && isRecordFile(p.relativize(f))).sorted().toList();
                }
                if (in.isEmpty()) {
                    throw new CliException(ExitCodes.USAGE, p + ": no record files in this folder");
                }
                files.addAll(in);
            } else if (Files.exists(p)) {
                files.add(p);
            } else {
                throw new NoSuchFileException(p.toString(), null, "no such file or folder");
            }
        }
        return files;
    }

    /**
     * The files of {@code locations} (local paths, {@code file:} URIs or remote URIs), in the
     * order given; remote ones found in the stores of {@code stores}.
     *
     * @throws NoSuchFileException if a location does not exist
     * @throws CliException        (usage) if a folder holds no record file, or no store reads a remote location
     */
    static List<InputFile> expand(List<String> locations, InputFiles stores) throws IOException {
        List<InputFile> files = new ArrayList<>();
        for (String location : locations) {
            java.net.URI remote = InputFiles.remoteLocation(location);
            if (remote != null) {
                files.addAll(stores.remoteFiles(remote));
            } else {
                expand(List.of(InputFiles.localPath(location))).forEach(p -> files.add(InputFile.local(p)));
            }
        }
        return files;
    }

    /** Whether the file at {@code relative} to a folder named on the command line is a record file. */
    private static boolean isRecordFile(Path relative) {
        for (Path part : relative) {
            if (part.toString().startsWith(".")) {
                return false;
            }
        }
        // Sidecars, and the temporary files they are written to first.
        return !relative.getFileName().toString().contains(RecordIndex.SUFFIX);
    }
}
