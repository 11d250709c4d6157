package org.dataloader4j.spark.internal;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.RecordReader;

/**
 * Infers a schema from the first {@code samplingLimit} records of the files, in listing order,
 * as OneFlow's connector and spark-tfrecord do:
 * <ul>
 *   <li>one column per feature name, sorted by name, every column nullable;</li>
 *   <li>the value type from the list kind: {@code int64_list} → long, {@code int32_list} → int,
 *       {@code float_list} → float, {@code double_list} → double, {@code bytes_list} → binary
 *       (never guessed as string); int32 with int64 gives long, float with double gives double,
 *       other mixtures are an error;</li>
 *   <li>a scalar column if every sampled record that holds the feature holds exactly one value,
 *       otherwise an array column;</li>
 *   <li>a feature that never holds a list in the sample has no type and gets no column.</li>
 * </ul>
 */
final class SchemaInference {
    private SchemaInference() {
    }

    /** What the sample says of one feature. */
    private static final class Seen {
        FeatureKind kind = FeatureKind.NONE;
        boolean allSingle = true;
        String firstWhere;
    }

    static <F> StructType infer(RecordFormat<F> format, Configuration conf, List<FileStatus> files, SourceOptions options)
            throws IOException {
        Map<String, Seen> seen = new TreeMap<>();
        int sampled = 0;
        for (FileStatus file : files) {
            String name = file.getPath().toString();
            try (RecordReader in = RecordFiles.open(format, conf, name, options)) {
                for (RawRecord r = in.next(); r != null && sampled < options.samplingLimit(); r = in.next()) {
                    sampled++;
                    for (Map.Entry<String, F> e : RecordFiles.features(format, name, r).entrySet()) {
                        FeatureKind kind = format.kind(e.getValue());
                        if (kind != FeatureKind.NONE) {
                            note(seen.computeIfAbsent(e.getKey(), k -> new Seen()), e.getKey(), kind,
                                    format.count(e.getValue()), "record " + r.index() + " of " + name);
                        }
                    }
                }
            }
            if (sampled >= options.samplingLimit()) {
                break;
            }
        }
        if (sampled == 0) {
            throw new IllegalArgumentException("no " + format.messageName() + " to infer a schema from in "
                    + options.paths() + " (" + files.size() + " files): give the schema with .schema(...)");
        }
        StructField[] fields = seen.entrySet().stream()
                .map(e -> DataTypes.createStructField(e.getKey(), type(e.getValue()), true))
                .toArray(StructField[]::new);
        return DataTypes.createStructType(fields);
    }

    private static void note(Seen s, String feature, FeatureKind kind, int count, String where) {
        if (s.kind == FeatureKind.NONE) {
            s.kind = kind;
            s.firstWhere = where;
        } else if (s.kind != kind) {
            s.kind = merge(feature, s, kind, where);
        }
        s.allSingle &= count == 1;
    }

    private static FeatureKind merge(String feature, Seen s, FeatureKind kind, String where) {
        if (isInt(s.kind) && isInt(kind)) {
            return FeatureKind.INT64;
        }
        if (isFloat(s.kind) && isFloat(kind)) {
            return FeatureKind.DOUBLE;
        }
        throw new IllegalArgumentException("feature " + feature + " is a " + s.kind + " in " + s.firstWhere
                + " but a " + kind + " in " + where + ": give the schema with .schema(...)");
    }

    private static boolean isInt(FeatureKind k) {
        return k == FeatureKind.INT32 || k == FeatureKind.INT64;
    }

    private static boolean isFloat(FeatureKind k) {
        return k == FeatureKind.FLOAT || k == FeatureKind.DOUBLE;
    }

    private static DataType type(Seen s) {
        DataType value = s.kind.sparkType();
        return s.allSingle ? value : DataTypes.createArrayType(value, false);
    }
}
