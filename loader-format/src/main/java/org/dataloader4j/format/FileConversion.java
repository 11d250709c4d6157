package org.dataloader4j.format;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.format.tf.Example;

/**
 * Converts whole record files between OFRecord files of {@code OFRecord}s and TFRecord files of
 * {@code tf.Example}s, record by record with {@link RecordConversion}, in any compression. Input
 * CRCs are always checked: a conversion never carries corrupt records over. Where a conversion
 * fails, the half-written output file is deleted.
 *
 * <pre>{@code
 * FileConversion.Report report = FileConversion.convert(Path.of("part-00000"), Path.of("part-00000.tfrecord.gz"),
 *         FileConversion.Options.toTFRecord(Compression.GZIP));
 * }</pre>
 */
public final class FileConversion {
    /** How many losses a {@link Report} lists; it counts them all. */
    public static final int LISTED_LOSSES = 100;

    private FileConversion() {
    }

    /**
     * What to convert from and to.
     *
     * @param from            the input framing: OFRecord files hold OFRecords, TFRecord files
     *                        tf.Examples; with {@code to} the same, payloads are copied unchanged
     * @param fromCompression the input compression, or {@code null} to detect it per file
     * @param to              the output framing
     * @param toCompression   the output compression
     */
    public record Options(Framing from, Compression fromCompression, Framing to, Compression toCompression) {

        /** Checks the arguments. */
        public Options {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(toCompression, "toCompression");
        }

        /** OFRecord files (compression detected) to TFRecord files compressed as {@code compression}. */
        public static Options toTFRecord(Compression compression) {
            return new Options(Framing.OFRECORD, null, Framing.TFRECORD, compression);
        }

        /** TFRecord files of tf.Examples (compression detected) to OFRecord files compressed as {@code compression}. */
        public static Options toOFRecord(Compression compression) {
            return new Options(Framing.TFRECORD, null, Framing.OFRECORD, compression);
        }
    }

    /**
     * One feature of one record that did not convert exactly.
     *
     * @param file   the input file
     * @param record the record's index in it
     * @param loss   what changed
     */
    public record RecordLoss(String file, long record, Conversion.Loss loss) {
    }

    /**
     * What a conversion did.
     *
     * @param files        the files converted
     * @param records      the records converted
     * @param lossyRecords the records with at least one loss
     * @param lossCount    the losses, all of them
     * @param losses       the first {@link #LISTED_LOSSES} losses, in file and record order
     */
    public record Report(long files, long records, long lossyRecords, long lossCount, List<RecordLoss> losses) {

        /** Copies the list. */
        public Report {
            losses = List.copyOf(losses);
        }

        /** True when every record converted exactly. */
        public boolean exact() {
            return lossCount == 0;
        }
    }

    /** Converts {@code in} into {@code out} (created or truncated); {@code out} must not be {@code in}. */
    public static Report convert(Path in, Path out, Options options) throws IOException {
        Objects.requireNonNull(options, "options");
        Tally tally = new Tally();
        convertOne(in, out, options, tally);
        return tally.report();
    }

    /**
     * Converts each of {@code inputs} into a file of the same name in {@code outDir} (created if
     * needed), in order; a part-file set stays a part-file set.
     *
     * @throws IllegalArgumentException if two inputs have the same file name
     */
    public static Report convertAll(List<Path> inputs, Path outDir, Options options) throws IOException {
        Objects.requireNonNull(options, "options");
        Set<Path> names = new HashSet<>();
        for (Path in : inputs) {
            if (!names.add(in.getFileName())) {
                throw new IllegalArgumentException("two inputs named " + in.getFileName() + ": inputs=" + inputs);
            }
        }
        Files.createDirectories(outDir);
        Tally tally = new Tally();
        for (Path in : inputs) {
            convertOne(in, outDir.resolve(in.getFileName()), options, tally);
        }
        return tally.report();
    }

    /**
     * Converts the records of {@code inputs}, file after file, into the part files of
     * {@code out}, which spreads them over its parts ({@link PartWriter#write(byte[])}); records
     * are converted to {@code options.to()}, which must be the framing {@code out} writes
     * ({@code options.toCompression()} is not used: {@code out} has its own). The caller closes
     * {@code out}, and deletes its files if this fails.
     */
    public static Report convertInto(List<Path> inputs, PartWriter out, Options options) throws IOException {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(options, "options");
        Tally tally = new Tally();
        for (Path in : inputs) {
            try (RecordReader reader = RecordReader.open(in, options.from(), options.fromCompression(), true)) {
                for (RawRecord r = reader.next(); r != null; r = reader.next()) {
                    out.write(convertPayload(in.toString(), r, options, tally));
                }
            }
            tally.files++;
        }
        return tally.report();
    }

    /**
     * A file to convert read as a stream, wherever it is kept (a remote store's file): its name as
     * errors and reports show it, the last segment of its path (the name of the file it becomes,
     * whose extension may name its compression), and how to open a stream of its bytes.
     */
    public record Input(String name, String fileName, Opener opener) {
        /** Checks that every part is given. */
        public Input {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(fileName, "fileName");
            Objects.requireNonNull(opener, "opener");
        }
    }

    /** Opens a stream of a file's bytes, which the caller closes. */
    @FunctionalInterface
    public interface Opener {
        /** A new stream of the file from its start. */
        InputStream open() throws IOException;
    }

    /**
     * As {@link #convertAll}, {@code inputs} read through their streams: each into a file of its
     * {@link Input#fileName} in {@code outDir}.
     *
     * @throws IllegalArgumentException if two inputs have the same file name
     */
    public static Report convertInputs(List<Input> inputs, Path outDir, Options options) throws IOException {
        Objects.requireNonNull(options, "options");
        Set<String> names = new HashSet<>();
        for (Input in : inputs) {
            if (!names.add(in.fileName())) {
                throw new IllegalArgumentException("two inputs named " + in.fileName() + ": inputs="
                        + inputs.stream().map(Input::name).toList());
            }
        }
        Files.createDirectories(outDir);
        Tally tally = new Tally();
        for (Input in : inputs) {
            Path out = outDir.resolve(in.fileName());
            try (RecordReader reader = open(in, options)) {
                try (RecordWriter writer = RecordWriter.create(out, options.to(), options.toCompression())) {
                    for (RawRecord r = reader.next(); r != null; r = reader.next()) {
                        writer.write(convertPayload(in.name(), r, options, tally));
                    }
                } catch (IOException | RuntimeException e) {
                    Files.deleteIfExists(out);
                    throw e;
                }
            }
            tally.files++;
        }
        return tally.report();
    }

    /** As {@link #convertInto}, {@code inputs} read through their streams. */
    public static Report convertInputsInto(List<Input> inputs, PartWriter out, Options options) throws IOException {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(options, "options");
        Tally tally = new Tally();
        for (Input in : inputs) {
            try (RecordReader reader = open(in, options)) {
                for (RawRecord r = reader.next(); r != null; r = reader.next()) {
                    out.write(convertPayload(in.name(), r, options, tally));
                }
            }
            tally.files++;
        }
        return tally.report();
    }

    /** The records of {@code in}, its compression the one given or detected from its file name and first bytes. */
    private static RecordReader open(Input in, Options options) throws IOException {
        return RecordReader.of(in.opener().open(), in.name(), options.from(), options.fromCompression(), true);
    }

    private static void convertOne(Path in, Path out, Options options, Tally tally) throws IOException {
        if (Files.exists(out) && Files.isSameFile(in, out)) {
            throw new IllegalArgumentException("the output would overwrite the input: in=" + in + ", out=" + out);
        }
        try (RecordReader reader = RecordReader.open(in, options.from(), options.fromCompression(), true)) {
            try (RecordWriter writer = RecordWriter.create(out, options.to(), options.toCompression())) {
                for (RawRecord r = reader.next(); r != null; r = reader.next()) {
                    writer.write(convertPayload(in.toString(), r, options, tally));
                }
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(out);
                throw e;
            }
        }
        tally.files++;
    }

    private static byte[] convertPayload(String file, RawRecord r, Options options, Tally tally) throws IOException {
        tally.records++;
        if (options.from() == options.to()) {
            return r.payload();
        }
        if (options.from() == Framing.OFRECORD) {
            Conversion<Example> c = RecordConversion.toExample(parse(file, r, OFRecord.parser(), "an OFRecord"));
            tally.add(file, r.index(), c.losses());
            return c.message().toByteArray();
        }
        byte[] payload = RecordConversion.toOFRecord(parse(file, r, Example.parser(), "a tf.Example")).message().toByteArray();
        if (payload.length == 0) {
            throw new IllegalArgumentException("record " + r.index() + " of " + file + " has no features: "
                    + "an empty OFRecord cannot be framed (OneFlow refuses empty frames)");
        }
        return payload;
    }

    /**
     * The payload as a {@code T}; a payload with fields the schema lacks is another message (a
     * SequenceExample's feature lists, a TensorBoard event), not one to convert quietly.
     */
    private static <T extends Message> T parse(String file, RawRecord r, com.google.protobuf.Parser<T> parser, String what)
            throws CorruptRecordException {
        T m;
        try {
            m = parser.parseFrom(r.payload());
        } catch (InvalidProtocolBufferException e) {
            CorruptRecordException c = new CorruptRecordException(file, r.index(), r.offset(),
                    "payload is not " + what + " (" + e.getMessage() + ")");
            c.initCause(e);
            throw c;
        }
        if (!m.getUnknownFields().asMap().isEmpty()) {
            throw new CorruptRecordException(file, r.index(), r.offset(), "payload is not " + what
                    + ": it has fields " + m.getUnknownFields().asMap().keySet() + " that the schema lacks");
        }
        return m;
    }

    /** Counts as the records go by. */
    private static final class Tally {
        long files;
        long records;
        long lossyRecords;
        long lossCount;
        final List<RecordLoss> losses = new ArrayList<>();

        void add(String file, long record, List<Conversion.Loss> found) {
            if (found.isEmpty()) {
                return;
            }
            lossyRecords++;
            lossCount += found.size();
            for (Conversion.Loss loss : found) {
                if (losses.size() < LISTED_LOSSES) {
                    losses.add(new RecordLoss(file, record, loss));
                }
            }
        }

        Report report() {
            return new Report(files, records, lossyRecords, lossCount, losses);
        }
    }
}
