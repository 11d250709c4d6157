package org.dataloader4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.dataloader4j.cli.internal.DecodedRecord;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.cli.internal.FileFormat;
import org.dataloader4j.cli.internal.InputFile;
import org.dataloader4j.cli.internal.InputFiles;
import org.dataloader4j.cli.internal.Progress;
import org.dataloader4j.cli.internal.RecordScan;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.RawRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code loader verify}: every frame, CRC and payload of every file, each problem on its own
 * line as {@code FILE:OFFSET: reason}; exit 0 when all is valid, 1 otherwise.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Check every record of every file: the framing, both CRCs of TFRecord frames, "
                + "the compressed stream, and that each payload is a valid OFRecord (OFRecord files) or "
                + "tf.Example / tf.SequenceExample (TFRecord files) with no fields the schema lacks.",
            "Each problem is printed as FILE:OFFSET: reason, the offset counted in the decompressed stream. "
                + "A damaged frame ends the check of its file: nothing after it can be trusted."},
        footer = {"%nExample:%n  loader verify data/ && echo valid", ExitCodes.HELP})
final class VerifyCommand implements Callable<Integer> {
    @ParentCommand
    private Loader loader;

    @Mixin
    private RecordInputs inputs;

    @Option(names = "--framing-only", description = "check frames and CRCs, not the payloads "
            + "(for TFRecord files of other messages, such as TensorBoard events)")
    private boolean framingOnly;

    @Override
    public Integer call() throws IOException {
        try (InputFiles opened = inputs.open()) {
            return verify(opened.files());
        }
    }

    private int verify(List<InputFile> files) throws IOException {
        long total = 0;
        for (InputFile f : files) {
            total += f.size();
        }
        PrintWriter out = loader.terminal().out();
        long done = 0;
        long records = 0;
        long problems = 0;
        try (Progress progress = loader.terminal().progress("verify", total)) {
            for (InputFile file : files) {
                FileFormat fileFormat = inputs.formatOf(file);
                try (RecordScan scan = RecordScan.open(file, fileFormat)) {
                    for (RawRecord r = scan.next(); r != null; r = scan.next()) {
                        records++;
                        if (!framingOnly) {
                            DecodedRecord d = DecodedRecord.decode(r, fileFormat.framing());
                            if (!d.valid()) {
                                problems++;
                                progress.clear();
                                out.println(file + ":" + r.offset() + ": " + d.problem() + " (record " + r.index() + ")");
                            }
                        }
                        progress.update(done + scan.position(), file.name());
                    }
                } catch (CorruptRecordException e) {
                    problems++;
                    progress.clear();
                    out.println(file + ":" + e.offset() + ": " + e.reason() + " (record " + e.record() + ")");
                }
                done += file.size();
            }
        }
        out.println(files.size() + (files.size() == 1 ? " file, " : " files, ") + records + (records == 1 ? " record: " : " records: ")
                + (problems == 0 ? "all valid" : problems + (problems == 1 ? " problem" : " problems")));
        return problems == 0 ? ExitCodes.OK : ExitCodes.BAD_DATA;
    }
}
