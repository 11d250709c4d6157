package org.dataloader4j.cli.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.format.proto.Feature;
import org.dataloader4j.format.proto.OFRecord;

/**
 * A CSV file with a header line as OFRecords: one record per row, one feature per column, each
 * a list of one value. Fields follow RFC 4180: separated by commas, optionally in double quotes,
 * a quote inside quotes doubled; a quoted field may hold commas and line breaks.
 *
 * <p>A column's type is given ({@code int32}, {@code int64}, {@code float}, {@code double},
 * {@code bytes}) or inferred from all its non-empty fields: {@code int64} if every one is an
 * integer, else {@code float} if every one is a number, else {@code bytes} (UTF-8). An empty
 * field leaves its feature out of that row's record: a missing value, as TensorFlow's CSV
 * readers write it, not a zero. The file is read twice: once to infer, once to write.
 */
public final class CsvRecords {
    /** The column types a command line can name. */
    public static final List<String> TYPES = List.of("int32", "int64", "float", "double", "bytes");

    private final Path file;
    private final List<String> header;
    private final List<String> types;

    private CsvRecords(Path file, List<String> header, List<String> types) {
        this.file = file;
        this.header = header;
        this.types = types;
    }

    /**
     * Reads the header of {@code file} and the types of its columns: those in {@code given}
     * (column name to type) as given, the others inferred.
     *
     * @throws CliException (bad data) if the file is empty, a row has the wrong field count or a
     *                      field is not of its given type; (usage) if {@code given} names a
     *                      column that is not there or a type that is not known
     */
    public static CsvRecords open(Path file, Map<String, String> given) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            Rows rows = new Rows(in, file);
            List<String> header = rows.next();
            if (header == null || header.isEmpty()) {
                throw new CliException(ExitCodes.BAD_DATA, file + ": no header line");
            }
            for (Map.Entry<String, String> g : given.entrySet()) {
                if (!header.contains(g.getKey())) {
                    throw new CliException(ExitCodes.USAGE, "--column " + g.getKey() + ": no such column in " + file
                            + " (columns: " + String.join(", ", header) + ")");
                }
                if (!TYPES.contains(g.getValue())) {
                    throw new CliException(ExitCodes.USAGE, "--column " + g.getKey() + ":" + g.getValue()
                            + ": the type must be one of " + TYPES);
                }
            }
            boolean[] integers = new boolean[header.size()];
            boolean[] numbers = new boolean[header.size()];
            java.util.Arrays.fill(integers, true);
            java.util.Arrays.fill(numbers, true);
            for (List<String> row = rows.next(); row != null; row = rows.next()) {
                rows.check(row, header.size());
                for (int c = 0; c < row.size(); c++) {
                    String v = row.get(c).trim();
                    if (!v.isEmpty()) {
                        integers[c] &= parses(v, true);
                        numbers[c] &= parses(v, false);
                    }
                }
            }
            List<String> types = new ArrayList<>();
            for (int c = 0; c < header.size(); c++) {
                String inferred = integers[c] ? "int64" : numbers[c] ? "float" : "bytes";
                types.add(given.getOrDefault(header.get(c), inferred));
            }
            return new CsvRecords(file, List.copyOf(header), List.copyOf(types));
        }
    }

    private static boolean parses(String v, boolean integer) {
        try {
            if (integer) {
                Long.parseLong(v);
            } else {
                Double.parseDouble(v);
            }
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Column name to type, in column order. */
    public Map<String, String> columns() {
        Map<String, String> columns = new LinkedHashMap<>();
        for (int c = 0; c < header.size(); c++) {
            columns.put(header.get(c), types.get(c));
        }
        return columns;
    }

    /** Writes one record per row to {@code out}; returns the rows written. */
    public long writeTo(PartWriter out) throws IOException {
        long written = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            Rows rows = new Rows(in, file);
            rows.next();
            Map<String, Feature> features = new HashMap<>();
            for (List<String> row = rows.next(); row != null; row = rows.next()) {
                rows.check(row, header.size());
                features.clear();
                for (int c = 0; c < row.size(); c++) {
                    String v = row.get(c);
                    if (!v.trim().isEmpty()) {
                        features.put(header.get(c), feature(rows, header.get(c), types.get(c), v));
                    }
                }
                if (features.isEmpty()) {
                    throw new CliException(ExitCodes.BAD_DATA, file + ": line " + rows.line
                            + ": every field is empty; OneFlow cannot frame an empty record");
                }
                OFRecord record = Features.record(features);
                out.write(record);
                written++;
            }
        }
        return written;
    }

    private Feature feature(Rows rows, String column, String type, String v) {
        String t = v.trim();
        try {
            return switch (type) {
                case "int32" -> Features.int32Feature(Integer.parseInt(t));
                case "int64" -> Features.int64Feature(Long.parseLong(t));
                case "float" -> Features.floatFeature(Float.parseFloat(t));
                case "double" -> Features.doubleFeature(Double.parseDouble(t));
                default -> Features.bytesFeature(v);
            };
        } catch (NumberFormatException e) {
            throw new CliException(ExitCodes.BAD_DATA, file + ": line " + rows.line + ": column " + column
                    + ": '" + v + "' is not " + (type.startsWith("int") ? "an " : "a ") + type.toLowerCase(Locale.ROOT));
        }
    }

    /** The rows of a CSV stream, field lists, and the line each started on. */
    private static final class Rows {
        private final BufferedReader in;
        private final Path file;
        private long nextLine = 1;
        long line;

        Rows(BufferedReader in, Path file) {
            this.in = in;
            this.file = file;
        }

        /** The next row's fields, or null at the end; blank lines are skipped. */
        List<String> next() throws IOException {
            List<String> fields = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            boolean quoted = false;
            boolean any = false;
            line = nextLine;
            for (int c = in.read(); ; c = in.read()) {
                if (c == -1) {
                    if (quoted) {
                        throw new CliException(ExitCodes.BAD_DATA, file + ": line " + line + ": a quoted field does not end");
                    }
                    if (!any && field.isEmpty() && fields.isEmpty()) {
                        return null;
                    }
                    fields.add(field.toString());
                    return fields;
                }
                any = true;
                if (quoted) {
                    if (c == '"') {
                        in.mark(1);
                        if (in.read() == '"') {
                            field.append('"');
                        } else {
                            in.reset();
                            quoted = false;
                        }
                    } else {
                        nextLine += c == '\n' ? 1 : 0;
                        field.append((char) c);
                    }
                } else if (c == '"') {
                    quoted = true;
                } else if (c == ',') {
                    fields.add(field.toString());
                    field.setLength(0);
                } else if (c == '\n') {
                    nextLine++;
                    if (fields.isEmpty() && field.isEmpty()) {
                        line = nextLine;
                        any = false;
                        continue;
                    }
                    fields.add(field.toString());
                    return fields;
                } else if (c != '\r') {
                    field.append((char) c);
                }
            }
        }

        void check(List<String> row, int columns) {
            if (row.size() != columns) {
                throw new CliException(ExitCodes.BAD_DATA, file + ": line " + line + ": " + row.size()
                        + (row.size() == 1 ? " field" : " fields") + ", but the header has " + columns);
            }
        }
    }
}
