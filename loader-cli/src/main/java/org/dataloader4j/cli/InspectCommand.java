package org.dataloader4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dataloader4j.cli.internal.DecodedRecord;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.cli.internal.FileFormat;
import org.dataloader4j.cli.internal.ImageProbe;
import org.dataloader4j.cli.internal.InputFile;
import org.dataloader4j.cli.internal.InputFiles;
import org.dataloader4j.cli.internal.Progress;
import org.dataloader4j.cli.internal.RecordJson;
import org.dataloader4j.cli.internal.RecordScan;
import org.dataloader4j.cli.internal.RecordText;
import org.dataloader4j.cli.internal.Schema;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.image.ImageCodecs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code loader inspect}: per file the format and compression, the record count, the schema
 * and the first records; with {@code --json}, one JSON object per record. With
 * {@code --decode-images}, the JPEG and PNG bytes values of the records shown are decoded and
 * shown as images; one that cannot be decoded is an error line, and the exit code is 1.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = {"Show each record file's format and compression, record count and schema "
                + "(feature name, type, fewest and most values, records that carry it), then its first records.",
            "With --json, print one JSON object per record instead (every record, or the first N): "
                + "{\"file\", \"index\", \"offset\", \"features\": {name: {\"type\", \"values\"}}}; "
                + "bytes are base64, floats exact, SequenceExamples have \"context\" and \"feature_lists\".",
            "With --decode-images, each bytes value that is a JPEG or PNG is decoded: shown as its format and "
                + "width×height×channels, or with --json as {\"type\": \"image\", \"format\", \"width\", \"height\", "
                + "\"channels\", \"rgb_sha256\"} (the SHA-256 of its pixels decoded to RGB, row-major) in place of its base64. "
                + "An image that cannot be decoded is {\"type\": \"image\", \"error\"} and an error line, and the exit code is 1."},
        footer = {"%nExamples:%n  loader inspect data/part-00000 -n 2%n  loader inspect train.tfrecord.gz --json | head -n 1",
            "  loader inspect --json --decode-images cifar10_test.tfrecord", ExitCodes.HELP})
final class InspectCommand implements Callable<Integer> {
    @ParentCommand
    private Loader loader;

    @Mixin
    private RecordInputs inputs;

    @Option(names = "-n", paramLabel = "N", description = "records to show per file (default: 3; with --json: all)")
    private Integer n;

    @Option(names = "--json", description = "one JSON object per record, one per line, and nothing else")
    private boolean json;

    @Option(names = "--decode-images", description = "decode the JPEG and PNG bytes values of the records shown "
            + "(with the native codec where it loads, else ImageIO); exit 1 if one cannot be decoded")
    private boolean decodeImages;

    @Override
    public Integer call() throws IOException {
        if (n != null && n < 0) {
            throw new IllegalArgumentException("-n must be >= 0: n=" + n);
        }
        Terminal terminal = loader.terminal();
        int code = ExitCodes.OK;
        try (InputFiles opened = inputs.open();
             ImageProbe images = decodeImages ? ImageProbe.of(ImageCodecs.preferred()) : null) {
            for (InputFile file : opened.files()) {
                FileFormat fileFormat = inputs.formatOf(file);
                try {
                    if (json) {
                        json(terminal, file, fileFormat, images);
                    } else {
                        text(terminal, file, fileFormat, images);
                    }
                } catch (CorruptRecordException e) {
                    terminal.out().flush();
                    terminal.err().println("loader: " + ExitCodes.describe(e));
                    code = ExitCodes.BAD_DATA;
                }
            }
            if (images != null && images.failed() > 0) {
                code = ExitCodes.BAD_DATA;
            }
        }
        return code;
    }

    private void json(Terminal terminal, InputFile file, FileFormat fileFormat, ImageProbe images) throws IOException {
        long limit = n == null ? Long.MAX_VALUE : n;
        try (RecordScan scan = RecordScan.open(file, fileFormat)) {
            RawRecord r;
            for (long i = 0; i < limit && (r = scan.next()) != null; i++) {
                terminal.out().println(RecordJson.line(file.name(), DecodedRecord.decode(r, fileFormat.framing()), images));
                printFailures(terminal, imageFailures(file, r, images));
            }
        }
    }

    /** An error line for each image of record {@code r} that could not be decoded: {@code loader: FILE: feature F: REASON at record R, offset O}. */
    private static List<String> imageFailures(InputFile file, RawRecord r, ImageProbe images) {
        if (images == null) {
            return List.of();
        }
        return images.takeFailures().stream()
                .map(f -> "loader: " + ExitCodes.describe(new CorruptDataException(file.name(), r.index(), r.offset(), f)))
                .toList();
    }

    private void text(Terminal terminal, InputFile file, FileFormat fileFormat, ImageProbe images) throws IOException {
        PrintWriter out = terminal.out();
        int shown = n == null ? 3 : n;
        Schema schema = new Schema();
        StringBuilder first = new StringBuilder();
        List<String> failures = new ArrayList<>();
        long records = 0;
        long invalid = 0;
        out.println(file + "  (" + fileFormat + ")");
        try (RecordScan scan = RecordScan.open(file, fileFormat);
             Progress progress = terminal.progress("inspect", scan.size())) {
            for (RawRecord r = scan.next(); r != null; r = scan.next(), progress.update(scan.position(), file.name())) {
                DecodedRecord d = DecodedRecord.decode(r, fileFormat.framing());
                schema.add(d);
                records++;
                invalid += d.valid() ? 0 : 1;
                if (r.index() < shown) {
                    first.append(RecordText.of(d, images));
                    failures.addAll(imageFailures(file, r, images));
                }
            }
        } catch (CorruptRecordException e) {
            out.println("  records: " + records + " readable, then a damaged frame");
            printSchemaAndRecords(out, schema, first);
            printFailures(terminal, failures);
            throw e;
        }
        out.println("  records: " + records + (invalid > 0 ? " (" + invalid + " not valid messages of the format)" : ""));
        printSchemaAndRecords(out, schema, first);
        printFailures(terminal, failures);
    }

    private static void printFailures(Terminal terminal, List<String> failures) {
        if (!failures.isEmpty()) {
            terminal.out().flush();
            failures.forEach(terminal.err()::println);
        }
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
