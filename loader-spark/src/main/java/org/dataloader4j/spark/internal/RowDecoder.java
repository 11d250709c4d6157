package org.dataloader4j.spark.internal;

import com.google.protobuf.ByteString;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.RawRecord;

/**
 * Turns records into rows of a schema: each column reads the feature of its name (see
 * {@link ColumnType} for which lists each type reads). A feature the record lacks, or an empty
 * list in a scalar column, is null. A list of several values in a scalar column, or a list of
 * a kind the column cannot read, is a {@link CorruptRecordException} naming the file, record,
 * offset, feature and column. Not thread-safe: one per partition reader.
 *
 * @param <F> the format's feature message
 */
final class RowDecoder<F> {
    private final RecordFormat<F> format;
    private final ColumnType[] columns;

    RowDecoder(RecordFormat<F> format, StructType schema) {
        this.format = format;
        this.columns = new ColumnType[schema.fields().length];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = ColumnType.of(schema.fields()[i], format.shortName());
        }
    }

    /** The row of {@code record}, read from {@code file}. */
    InternalRow decode(String file, RawRecord record) throws CorruptRecordException {
        Map<String, F> features = RecordFiles.features(format, file, record);
        Object[] values = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            F feature = features.get(columns[i].name());
            if (feature != null) {
                values[i] = value(columns[i], feature, file, record);
            }
        }
        return new GenericInternalRow(values);
    }

    private Object value(ColumnType column, F feature, String file, RawRecord record) throws CorruptRecordException {
        FeatureKind kind = format.kind(feature);
        int count = format.count(feature);
        if (kind == FeatureKind.NONE || (!column.array() && count == 0)) {
            return column.array() ? new GenericArrayData(new Object[0]) : null;
        }
        if (!column.value().readsFrom(kind)) {
            throw mismatch(file, record, column, "is a " + kind);
        }
        if (!column.array() && count != 1) {
            throw mismatch(file, record, column, "holds " + count + " values");
        }
        return switch (column.value()) {
            case LONG -> column.array() ? UnsafeArrayData.fromPrimitiveArray(format.longs(feature)) : format.longs(feature)[0];
            case INT -> ints(column, format.longs(feature), file, record);
            case FLOAT -> column.array() ? UnsafeArrayData.fromPrimitiveArray(format.floats(feature)) : format.floats(feature)[0];
            case DOUBLE -> column.array() ? UnsafeArrayData.fromPrimitiveArray(format.doubles(feature)) : format.doubles(feature)[0];
            case BINARY -> bytes(column, format.bytes(feature), false);
            case STRING -> bytes(column, format.bytes(feature), true);
        };
    }

    private static Object ints(ColumnType column, long[] longs, String file, RawRecord record) throws CorruptRecordException {
        int[] ints = new int[longs.length];
        for (int i = 0; i < longs.length; i++) {
            if (longs[i] != (int) longs[i]) {
                throw mismatch(file, record, column, "holds " + longs[i] + ", beyond int range, at index " + i);
            }
            ints[i] = (int) longs[i];
        }
        return column.array() ? UnsafeArrayData.fromPrimitiveArray(ints) : ints[0];
    }

    private static Object bytes(ColumnType column, List<ByteString> values, boolean string) {
        Object[] out = new Object[values.size()];
        for (int i = 0; i < out.length; i++) {
            byte[] b = values.get(i).toByteArray();
            out[i] = string ? UTF8String.fromBytes(b) : b;
        }
        return column.array() ? new GenericArrayData(out) : out[0];
    }

    private static CorruptRecordException mismatch(String file, RawRecord record, ColumnType column, String what) {
        return new CorruptRecordException(file, record.index(), record.offset(),
                "feature " + column.name() + " " + what + ", which column " + column.name() + " of type "
                        + column.sparkName() + " cannot read");
    }
}
