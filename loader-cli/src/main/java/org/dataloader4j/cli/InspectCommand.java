package org.dataloader4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dataloader4j.cli.internal.DecodedRecord;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.cli.internal.FileFormat;
import org.dataloader4j.cli.internal.Progress;
import org.dataloader4j.cli.internal.RecordJson;
import org.dataloader4j.cli.internal.RecordScan;
import org.dataloader4j.cli.internal.RecordText;
import org.dataloader4j.cli.internal.Schema;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.RawRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code loader inspect}: per file the format and compression, the record count, the schema
 * and the first records; with {@code --json}, one JSON object per record.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = {"Show each record file's format and compression, record count and schema "
                + "(feature name, type, fewest and most values, records that carry it), then its first records.",
            "With --json, print one JSON object per record instead (every record, or the first N): "
                + "{\"file\", \"index\", \"offset\", \"features\": {name: {\"type\", \"values\"}}}; "
                + "bytes are base64, floats exact, SequenceExamples have \"context\" and \"feature_lists\"."},
        footer = {"%nExamples:%n  loader inspect data/part-00000 -n 2%n  loader inspect train.tfrecord.gz --json | head -n 1",
            ExitCodes.HELP})
final class InspectCommand implements Callable<Integer> {
    @ParentCommand
    private Loader loader;

    @Mixin
    private RecordInputs inputs;

    @Option(names = "-n", paramLabel = "N", description = "records to show per file (default: 3; with --json: all)")
    private Integer n;

    @Option(names = "--json", description = "one JSON object per record, one per line, and nothing else")
    private boolean json;

    @Override
    public Integer call() throws IOException {
        if (n != null && n < 0) {
            throw new IllegalArgumentException("-n must be >= 0: n=" + n);
        }
        Terminal terminal = loader.terminal();
        int code = ExitCodes.OK;
        for (Path file : inputs.files()) {
            FileFormat fileFormat = inputs.formatOf(file);
            try {
                if (json) {
                    json(terminal.out(), file, fileFormat);
                } else {
                    text(terminal, file, fileFormat);
                }
            } catch (CorruptRecordException e) {
                terminal.out().flush();
                terminal.err().println("loader: " + ExitCodes.describe(e));
                code = ExitCodes.BAD_DATA;
            }
        }
        return code;
    }

    private void json(PrintWriter out, Path file, FileFormat fileFormat) throws IOException {
        long limit = n == null ? Long.MAX_VALUE : n;
        try (RecordScan scan = RecordScan.open(file, fileFormat)) {
            RawRecord r;
            for (long i = 0; i < limit && (r = scan.next()) != null; i++) {
                out.println(RecordJson.line(file.toString(), DecodedRecord.decode(r, fileFormat.framing())));
            }
        }
    }

    private void text(Terminal terminal, Path file, FileFormat fileFormat) throws IOException {
        PrintWriter out = terminal.out();
        int shown = n == null ? 3 : n;
        Schema schema = new Schema();
        StringBuilder first = new StringBuilder();
        long records = 0;
        long invalid = 0;
        out.println(file + "  (" + fileFormat + ")");
        try (RecordScan scan = RecordScan.open(file, fileFormat);
             Progress progress = terminal.progress("inspect", scan.size())) {
            for (RawRecord r = scan.next(); r != null; r = scan.next(), progress.update(scan.position(), file.toString())) {
                DecodedRecord d = DecodedRecord.decode(r, fileFormat.framing());
                schema.add(d);
                records++;
                invalid += d.valid() ? 0 : 1;
                if (r.index() < shown) {
                    first.append(RecordText.of(d));
                }
            }
        } catch (CorruptRecordException e) {
            out.println("  records: " + records + " readable, then a damaged frame");
            printSchemaAndRecords(out, schema, first);
            throw e;
        }
        out.println("  records: " + records + (invalid > 0 ? " (" + invalid + " not valid messages of the format)" : ""));
        printSchemaAndRecords(out, schema, first);
    }

    private static void printSchemaAndRecords(PrintWriter out, Schema schema, CharSequence first) {
        String text = schema.text();
        if (!text.isEmpty()) {
            out.println("  schema:");
            out.print(text.indent(2));
        }
        if (!first.isEmpty()) {
            out.print(first.toString().indent(2));
        }
        out.println();
    }
}
