package org.dataloader4j.spark.internal;

import java.io.Serializable;
import java.util.Set;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;

/**
 * A column the data sources read or write: one value or an array of values, of a type a feature
 * list holds.
 *
 * <table>
 *   <caption>Column types and feature lists</caption>
 *   <tr><th>value type</th><th>read from</th><th>written to (ofrecord)</th><th>written to (tfrecord)</th></tr>
 *   <tr><td>long</td><td>int64_list, int32_list</td><td>int64_list</td><td>int64_list</td></tr>
 *   <tr><td>int</td><td>int32_list, int64_list (a value out of int range is an error)</td><td>int32_list</td><td>int64_list</td></tr>
 *   <tr><td>float</td><td>float_list</td><td>float_list</td><td>float_list</td></tr>
 *   <tr><td>double</td><td>double_list, float_list</td><td>double_list</td><td>float_list, rounded</td></tr>
 *   <tr><td>binary, string</td><td>bytes_list (a string as UTF-8)</td><td>bytes_list</td><td>bytes_list</td></tr>
 * </table>
 *
 * @param name  the column's name, which is the feature's
 * @param value the type of one value
 * @param array whether the column is an array of values
 */
record ColumnType(String name, Value value, boolean array) implements Serializable {

    /** The type of one value. */
    enum Value {
        LONG(Set.of(FeatureKind.INT64, FeatureKind.INT32)),
        INT(Set.of(FeatureKind.INT32, FeatureKind.INT64)),
        FLOAT(Set.of(FeatureKind.FLOAT)),
        DOUBLE(Set.of(FeatureKind.DOUBLE, FeatureKind.FLOAT)),
        BINARY(Set.of(FeatureKind.BYTES)),
        STRING(Set.of(FeatureKind.BYTES));

        private final Set<FeatureKind> readFrom;

        Value(Set<FeatureKind> readFrom) {
            this.readFrom = readFrom;
        }

        /** Whether a feature of {@code kind} reads into this type. */
        boolean readsFrom(FeatureKind kind) {
            return readFrom.contains(kind);
        }
    }

    /**
     * The column type of {@code field}.
     *
     * @throws IllegalArgumentException naming the column if its type is not one of the table's
     */
    static ColumnType of(StructField field, String source) {
        DataType type = field.dataType();
        boolean array = type instanceof ArrayType;
        Value value = value(array ? ((ArrayType) type).elementType() : type);
        if (value == null) {
            throw new IllegalArgumentException("column " + field.name() + " has type " + type.simpleString() + ", which "
                    + source + " does not hold: a feature is a long, int, float, double, binary or string, "
                    + "or an array of one of them");
        }
        return new ColumnType(field.name(), value, array);
    }

    private static Value value(DataType t) {
        if (t.equals(DataTypes.LongType)) {
            return Value.LONG;
        } else if (t.equals(DataTypes.IntegerType)) {
            return Value.INT;
        } else if (t.equals(DataTypes.FloatType)) {
            return Value.FLOAT;
        } else if (t.equals(DataTypes.DoubleType)) {
            return Value.DOUBLE;
        } else if (t.equals(DataTypes.BinaryType)) {
            return Value.BINARY;
        } else if (t.equals(DataTypes.StringType)) {
            return Value.STRING;
        }
        return null;
    }

    /** As Spark writes the type: {@code bigint}, {@code array<float>}, … */
    String sparkName() {
        String v = switch (value) {
            case LONG -> "bigint";
            case INT -> "int";
            case FLOAT -> "float";
            case DOUBLE -> "double";
            case BINARY -> "binary";
            case STRING -> "string";
        };
        return array ? "array<" + v + ">" : v;
    }
}
