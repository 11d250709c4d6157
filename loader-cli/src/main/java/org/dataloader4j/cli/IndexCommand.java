package org.dataloader4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.cli.internal.CliException;
import org.dataloader4j.cli.internal.FileFormat;
import org.dataloader4j.cli.internal.InputFile;
import org.dataloader4j.cli.internal.InputFiles;
import org.dataloader4j.cli.internal.Progress;
import org.dataloader4j.cli.internal.RecordScan;
import org.dataloader4j.core.files.FrameReader;
import org.dataloader4j.core.files.IndexedRecordDataset;
import org.dataloader4j.core.files.RecordFiles;
import org.dataloader4j.core.files.RecordIndex;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.store.FileStore;
import org.dataloader4j.format.store.FileStores;
import org.dataloader4j.format.store.StoredFile;
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
            "Remote files (hdfs://, s3a://) are never written: their sidecars go to the local cache folder "
                + "--index-dir, named after each file and a hash of its location, where a reader given the same indexDir finds them.",
            "Compressed files cannot be indexed: their records are not at fixed places in the file."},
        footer = {"%nExample:%n  loader index data/", ExitCodes.HELP})
final class IndexCommand implements Callable<Integer> {
    @ParentCommand
    private Loader loader;

    @Mixin
    private RecordInputs inputs;

    @Option(names = "--index-dir", paramLabel = "DIR", description = "where to write the sidecars (default: beside each file; "
            + "needed for remote files, whose sidecars are kept in this local cache folder, as the readers' indexDir)")
    private Path indexDir;

    @Override
    public Integer call() throws IOException {
        if (indexDir != null) {
            Files.createDirectories(indexDir);
        }
        try (InputFiles opened = inputs.open()) {
            if (opened.anyRemote() && indexDir == null) {
                throw new IllegalArgumentException("remote files are indexed into a local cache folder, never beside"
                        + " them: give --index-dir DIR, the folder the readers are given as indexDir");
            }
            return index(opened.files());
        }
    }

    private int index(List<InputFile> files) throws IOException {
        PrintWriter out = loader.terminal().out();
        PrintWriter err = loader.terminal().err();
        int code = ExitCodes.OK;
        try (Progress progress = loader.terminal().progress("index", files.size())) {
            for (int i = 0; i < files.size(); i++) {
                InputFile file = files.get(i);
                progress.update(i, file.name());
                FileFormat fileFormat = inputs.formatOf(file);
                if (fileFormat.compression() != Compression.NONE) {
                    progress.clear();
                    err.println("loader: " + file + ": cannot index a " + fileFormat + " file for random access; "
                            + "decompress it first");
                    code = Math.max(code, ExitCodes.BAD_DATA);
                    continue;
                }
                try {
                    Indexed indexed = file.remote() ? remote(file, fileFormat) : local(file.path(), fileFormat.framing());
                    progress.clear();
                    if (!Files.isRegularFile(indexed.sidecar)) {
                        err.println("loader: " + indexed.sidecar + ": cannot write the index sidecar");
                        code = Math.max(code, ExitCodes.IO);
                    } else {
                        out.println(file + ": " + indexed.records + " records, " + indexed.sidecar
                                + (indexed.fresh ? " (already up to date)" : " (written)"));
                    }
                } catch (CorruptDataException | CorruptRecordException e) {
                    progress.clear();
                    err.println("loader: " + ExitCodes.describe(e));
                    code = Math.max(code, ExitCodes.BAD_DATA);
                }
            }
        }
        return code;
    }

    /** A file's index as written: its sidecar, its records, and whether the sidecar was fresh already. */
    private record Indexed(Path sidecar, int records, boolean fresh) {
    }

    private Indexed local(Path file, Framing framing) {
        try (IndexedRecordDataset dataset = open(file, framing)) {
            RecordIndex index = dataset.index(0);
            return new Indexed(RecordIndex.sidecarFor(file, indexDir), index.size(), index.fromSidecar());
        }
    }

    /**
     * A remote file indexed as the readers index it, into the sidecar of the cache folder they
     * read with the same {@code indexDir}. A damaged frame is found again by a scan of the file,
     * which names it as a local scan does.
     */
    private Indexed remote(InputFile file, FileFormat format) throws IOException {
        FrameReader frames = format.framing() == Framing.OFRECORD ? OFRecordFiles.frames() : TFRecordFiles.frames(true);
        StoredFile stored = file.stored();
        // The index owns the store it reads through: one of its own, as a reader's is.
        FileStore store = FileStores.forLocation(stored.location(), inputs.storeOptions());
        try (RecordFiles records = RecordFiles.open(store, List.of(stored), frames, indexDir, "loader-index", 1)) {
            RecordIndex index = records.index(0);
            if (index.damaged()) {
                try (RecordScan scan = RecordScan.open(file, format)) {
                    while (scan.next() != null) {
                        // the scan throws at the damaged frame
                    }
                }
                throw new CliException(ExitCodes.BAD_DATA, file + ": a damaged frame, which a scan did not find again");
            }
            return new Indexed(RecordIndex.cachedSidecar(stored.location().toString(), stored.name(), indexDir),
                    index.size(), index.fromSidecar());
        }
    }

    /** The file opened as the readers open it for random access, so the sidecar is the one they use. */
    private IndexedRecordDataset open(Path file, Framing framing) {
        return (IndexedRecordDataset) (framing == Framing.OFRECORD ? OFRecordFiles.open(List.of(file), 1, indexDir)
                : TFRecordFiles.open(List.of(file), 1, true, indexDir));
    }
}
