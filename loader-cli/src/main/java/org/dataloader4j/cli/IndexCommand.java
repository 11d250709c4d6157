package org.dataloader4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.cli.internal.FileFormat;
import org.dataloader4j.cli.internal.Progress;
import org.dataloader4j.core.files.IndexedRecordDataset;
import org.dataloader4j.core.files.RecordIndex;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.ofrecord.OFRecordFiles;
import org.dataloader4j.tfrecord.TFRecordFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code loader index}: scans each file and writes its record-index sidecar
 * ({@code FILE}{@value RecordIndex#SUFFIX}), the one random access and the readers use; a
 * sidecar that is already fresh is kept.
 */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = {"Write the record-index sidecar of each file (FILE" + RecordIndex.SUFFIX + "): the offset and "
                + "length of every record, so that readers open the file for random access without a scan. "
                + "A fresh sidecar is kept; a stale or damaged one is rewritten.",
            "Compressed files cannot be indexed: their records are not at fixed places in the file."},
        footer = {"%nExample:%n  loader index data/", ExitCodes.HELP})
final class IndexCommand implements Callable<Integer> {
    @ParentCommand
    private Loader loader;

    @Mixin
    private RecordInputs inputs;

    @Option(names = "--index-dir", paramLabel = "DIR", description = "where to write the sidecars (default: beside each file)")
    private Path indexDir;

    @Override
    public Integer call() throws IOException {
        if (indexDir != null) {
            Files.createDirectories(indexDir);
        }
        List<Path> files = inputs.files();
        PrintWriter out = loader.terminal().out();
        PrintWriter err = loader.terminal().err();
        int code = ExitCodes.OK;
        try (Progress progress = loader.terminal().progress("index", files.size())) {
            for (int i = 0; i < files.size(); i++) {
                Path file = files.get(i);
                progress.update(i, file.toString());
                FileFormat fileFormat = inputs.formatOf(file);
                if (fileFormat.compression() != Compression.NONE) {
                    progress.clear();
                    err.println("loader: " + file + ": cannot index a " + fileFormat + " file for random access; "
                            + "decompress it first");
                    code = Math.max(code, ExitCodes.BAD_DATA);
                    continue;
                }
                try (IndexedRecordDataset dataset = open(file, fileFormat.framing())) {
                    RecordIndex index = dataset.index(0);
                    Path sidecar = RecordIndex.sidecarFor(file, indexDir);
                    progress.clear();
                    if (!Files.isRegularFile(sidecar)) {
                        err.println("loader: " + sidecar + ": cannot write the index sidecar");
                        code = Math.max(code, ExitCodes.IO);
                    } else {
                        out.println(file + ": " + index.size() + " records, " + sidecar
                                + (index.fromSidecar() ? " (already up to date)" : " (written)"));
                    }
                } catch (CorruptDataException e) {
                    progress.clear();
                    err.println("loader: " + ExitCodes.describe(e));
                    code = Math.max(code, ExitCodes.BAD_DATA);
                }
            }
        }
        return code;
    }

    /** The file opened as the readers open it for random access, so the sidecar is the one they use. */
    private IndexedRecordDataset open(Path file, Framing framing) {
        return (IndexedRecordDataset) (framing == Framing.OFRECORD ? OFRecordFiles.open(List.of(file), 1, indexDir)
                : TFRecordFiles.open(List.of(file), 1, true, indexDir));
    }
}
