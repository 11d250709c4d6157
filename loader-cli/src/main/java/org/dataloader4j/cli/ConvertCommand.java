package org.dataloader4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dataloader4j.cli.internal.CliException;
import org.dataloader4j.cli.internal.CsvRecords;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.cli.internal.FileFormat;
import org.dataloader4j.cli.internal.InputFile;
import org.dataloader4j.cli.internal.InputFiles;
import org.dataloader4j.cli.internal.ImageFolder;
import org.dataloader4j.cli.internal.Progress;
import org.dataloader4j.cli.internal.RecordFiles;
import org.dataloader4j.core.files.PartFiles;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.FileConversion;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.PartWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code loader convert}: TFRecord files of tf.Examples to OFRecord and back, a CSV file with a
 * header to OFRecord, a folder of images in class subfolders to OFRecord.
 */
@Command(name = "convert", mixinStandardHelpOptions = true,
        description = {"Convert record files between TFRecord (tf.Example) and OFRecord, or make OFRecord files "
                + "from a CSV file with a header line or from a folder of images in class subfolders.",
            "Record files keep their names in OUT unless --parts is given; CSV and images go to OUT/part-00000 and on. "
                + "With --parts N, record i goes to part i %% N. Values a format cannot hold exactly "
                + "(OFRecord doubles and int32s in a tf.Example) are counted and reported."},
        footer = {"%nExamples:%n"
                + "  loader convert train.tfrecord.gz -o train-of/                 TFRecord -> OFRecord%n"
                + "  loader convert of/ --to tfrecord --compression gzip --parts 4 -o tf/%n"
                + "  loader convert --from csv data.csv --column id:bytes -o of/%n"
                + "  loader convert --from images photos/ --parts 8 --shuffle 1 -o of/",
            ExitCodes.HELP})
final class ConvertCommand implements Callable<Integer> {
    /** What the input is. */
    enum Source { auto, ofrecord, tfrecord, csv, images }

    /** The output compression. */
    enum CompressionOption { none, gzip, zlib }

    @ParentCommand
    private Loader loader;

    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "record files or folders of them (local, or URIs such as hdfs://namenode:8020/data or s3a://bucket/data); a CSV file; a folder of class folders")
    private List<String> locations;

    /** The inputs as local paths. */
    private List<Path> inputs;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", required = true, description = "the output folder (created if needed)")
    private Path output;

    @Option(names = "--from", paramLabel = "KIND", defaultValue = "auto",
            description = "auto, ofrecord, tfrecord, csv or images (default: auto: *.csv is CSV, a folder of "
                    + "only folders is images, anything else record files of the detected format)")
    private Source from;

    @Option(names = "--to", paramLabel = "FORMAT", description = "ofrecord or tfrecord (default: the other record format; ofrecord from CSV and images)")
    private FormatOption to;

    @Option(names = "--parts", paramLabel = "N", description = "write N part files part-00000 … instead")
    private Integer parts;

    @Option(names = "--compression", paramLabel = "C", defaultValue = "none", description = "none, gzip or zlib; TFRecord output only")
    private CompressionOption compression;

    @Option(names = "--column", paramLabel = "NAME:TYPE", description = "a CSV column's type: int32, int64, float, double or bytes (default: inferred)")
    private List<String> columns = List.of();

    @Option(names = "--shuffle", paramLabel = "SEED", description = "images: shuffle them with this seed (default: class by class, in name order)")
    private Long shuffle;

    @Option(names = "--store-option", paramLabel = "KEY=VALUE",
            description = "a Hadoop configuration key for remote record files (hdfs://, s3a://), set over core-site.xml and "
                    + "hdfs-site.xml; repeat for more. Leave credentials to Hadoop's configuration or the environment")
    private Map<String, String> storeOptions = new LinkedHashMap<>();

    @Override
    public Integer call() throws IOException {
        if (locations.stream().anyMatch(InputFiles::isRemote)) {
            if (from == Source.csv || from == Source.images) {
                throw new IllegalArgumentException(from + " input is read from a local disk: "
                        + String.join(" ", locations.stream().map(InputFiles::shown).toList()));
            }
            try (InputFiles opened = InputFiles.open(locations, storeOptions)) {
                return convert(opened);
            }
        }
        inputs = locations.stream().map(Path::of).toList();
        return convert(null);
    }

    /** Converts the inputs: {@code remote}'s record files read through their streams if not null, else {@link #inputs}. */
    private int convert(InputFiles remote) throws IOException {
        if (parts != null && parts < 1) {
            throw new IllegalArgumentException("--parts must be > 0: parts=" + parts);
        }
        Source source = from != Source.auto ? from : remote == null ? detect()
                : FileFormat.of(remote.files().get(0), null).framing() == Framing.OFRECORD ? Source.ofrecord : Source.tfrecord;
        Framing target = to != null ? FormatOption.framing(to)
                : source == Source.ofrecord ? Framing.TFRECORD : Framing.OFRECORD;
        Compression outCompression = Compression.valueOf(compression.name().toUpperCase(Locale.ROOT));
        if (target == Framing.OFRECORD && outCompression != Compression.NONE) {
            throw new IllegalArgumentException("OFRecord files are read memory-mapped and cannot be compressed: --compression " + compression);
        }
        if ((source == Source.csv || source == Source.images) && target != Framing.OFRECORD) {
            throw new IllegalArgumentException(source + " converts to OFRecord only; convert the result on to TFRecord");
        }
        if (source != Source.csv && !columns.isEmpty()) {
            throw new IllegalArgumentException("--column is for CSV input");
        }
        PrintWriter out = loader.terminal().out();
        switch (source) {
            case csv -> csv(out);
            case images -> images(out);
            default -> {
                Framing framing = source == Source.ofrecord ? Framing.OFRECORD : Framing.TFRECORD;
                if (remote == null) {
                    records(out, framing, target, outCompression);
                } else {
                    streamedRecords(out, remote.files(), framing, target, outCompression);
                }
            }
        }
        return ExitCodes.OK;
    }

    private Source detect() throws IOException {
        if (inputs.size() == 1 && inputs.get(0).getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv")) {
            return Source.csv;
        }
        if (inputs.size() == 1 && ImageFolder.looksLikeOne(inputs.get(0))) {
            return Source.images;
        }
        Framing framing = FileFormat.of(RecordFiles.expand(inputs).get(0), null).framing();
        return framing == Framing.OFRECORD ? Source.ofrecord : Source.tfrecord;
    }

    private void records(PrintWriter out, Framing source, Framing target, Compression outCompression) throws IOException {
        List<Path> files = RecordFiles.expand(inputs);
        for (Path f : files) {
            Framing framing = FileFormat.of(f, null).framing();
            if (framing != source) {
                throw new CliException(ExitCodes.USAGE, f + ": " + FileFormat.name(framing) + ", not " + FileFormat.name(source)
                        + " as the first input; convert one format at a time");
            }
        }
        FileConversion.Options options = new FileConversion.Options(source, null, target, outCompression);
        FileConversion.Report report;
        if (parts == null) {
            report = FileConversion.convertAll(files, output, options);
        } else {
            refuseOverwrite(files);
            report = withParts(target, outCompression, w -> FileConversion.convertInto(files, w, options));
        }
        print(out, report, source, target);
    }

    /**
     * Converts record {@code files}, local or remote, read through their streams ({@link
     * InputFile#open}): remote files are not mapped.
     */
    private void streamedRecords(PrintWriter out, List<InputFile> files, Framing source, Framing target,
                                 Compression outCompression) throws IOException {
        List<FileConversion.Input> in = new ArrayList<>(files.size());
        for (InputFile f : files) {
            Framing framing = FileFormat.of(f, null).framing();
            if (framing != source) {
                throw new CliException(ExitCodes.USAGE, f.name() + ": " + FileFormat.name(framing) + ", not "
                        + FileFormat.name(source) + " as the first input; convert one format at a time");
            }
            in.add(new FileConversion.Input(f.name(), f.fileName(), f::open));
        }
        List<Path> local = files.stream().filter(f -> !f.remote()).map(InputFile::path).toList();
        FileConversion.Options options = new FileConversion.Options(source, null, target, outCompression);
        FileConversion.Report report;
        if (parts == null) {
            for (Path f : local) {
                Path o = output.resolve(f.getFileName());
                if (Files.exists(o) && Files.isSameFile(f, o)) {
                    throw new IllegalArgumentException("the output would overwrite the input: in=" + f + ", out=" + o);
                }
            }
            report = FileConversion.convertInputs(in, output, options);
        } else {
            refuseOverwrite(local);
            report = withParts(target, outCompression, w -> FileConversion.convertInputsInto(in, w, options));
        }
        print(out, report, source, target);
    }

    private void print(PrintWriter out, FileConversion.Report report, Framing source, Framing target) {
        out.println("converted " + report.records() + " records of " + report.files() + (report.files() == 1 ? " file" : " files")
                + " from " + FileFormat.name(source) + " to " + FileFormat.name(target) + " in " + output);
        if (!report.exact()) {
            out.println(report.lossyRecords() + " records lost precision (" + report.lossCount() + " features), first:");
            report.losses().stream().limit(5).forEach(l -> out.println("  " + l.file() + " record " + l.record() + ": " + l.loss()));
        }
    }

    /** Fails if a part file to be written is one of {@code files}: it would be truncated before it is read. */
    private void refuseOverwrite(List<Path> files) throws IOException {
        for (int i = 0; i < parts; i++) {
            Path part = output.resolve(PartFiles.partName(PartWriter.PREFIX, PartWriter.SUFFIX_LENGTH, i));
            for (Path f : files) {
                if (Files.exists(part) && Files.isSameFile(part, f)) {
                    throw new IllegalArgumentException("the output would overwrite the input: in=" + f + ", out=" + part);
                }
            }
        }
    }

    private void csv(PrintWriter out) throws IOException {
        if (inputs.size() != 1) {
            throw new IllegalArgumentException("CSV input is one file: inputs=" + inputs);
        }
        Map<String, String> given = new LinkedHashMap<>();
        for (String c : columns) {
            int colon = c.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("--column must be NAME:TYPE: column=" + c);
            }
            given.put(c.substring(0, colon), c.substring(colon + 1).toLowerCase(Locale.ROOT));
        }
        CsvRecords csv = CsvRecords.open(inputs.get(0), given);
        long rows = withParts(Framing.OFRECORD, Compression.NONE, csv::writeTo);
        out.println("converted " + rows + " rows of " + inputs.get(0) + " to ofrecord in " + output);
        csv.columns().forEach((name, type) -> out.println("  " + name + ": " + type));
    }

    private void images(PrintWriter out) throws IOException {
        if (inputs.size() != 1) {
            throw new IllegalArgumentException("image input is one folder: inputs=" + inputs);
        }
        ImageFolder folder = ImageFolder.of(inputs.get(0));
        if (shuffle != null) {
            folder.shuffle(shuffle);
        }
        long written;
        try (Progress progress = loader.terminal().progress("convert", folder.size())) {
            long[] done = {0};
            written = withParts(Framing.OFRECORD, Compression.NONE,
                    w -> folder.writeTo(w, () -> progress.update(++done[0], done[0] + " images")));
        }
        out.println("converted " + written + " images of " + folder.classes().size() + " classes to ofrecord in " + output
                + " (features " + ImageFolder.ENCODED + ", " + ImageFolder.LABEL + ")");
        long[] counts = folder.counts();
        for (int i = 0; i < counts.length; i++) {
            out.println("  " + ImageFolder.LABEL + " " + i + " = " + folder.classes().get(i) + " (" + counts[i] + " images)");
        }
        if (folder.skipped() > 0) {
            out.println("  skipped " + folder.skipped() + " files without an image extension");
        }
    }

    /** What writes into the parts. */
    @FunctionalInterface
    private interface PartsJob<T> {
        T writeTo(PartWriter out) throws IOException;
    }

    /** Runs {@code job} on {@code --parts} (default 1) new part files in the output; deletes them if it fails. */
    private <T> T withParts(Framing framing, Compression outCompression, PartsJob<T> job) throws IOException {
        PartWriter writer = PartWriter.create(output, PartWriter.PREFIX, PartWriter.SUFFIX_LENGTH, parts == null ? 1 : parts,
                framing, outCompression);
        try {
            T result;
            try (PartWriter w = writer) {
                result = job.writeTo(w);
            }
            return result;
        } catch (IOException | RuntimeException e) {
            for (Path f : writer.files()) {
                Files.deleteIfExists(f);
            }
            throw e;
        }
    }
}
