package org.dataloader4j.spark.internal;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.StructType;

/**
 * Turns rows into records: each non-null column becomes the feature of its name (see
 * {@link ColumnType} for the list each type becomes); a null column is left out of the record,
 * so it reads back as null. An array with a null element cannot be a feature list and fails the
 * write, naming the column. Not thread-safe: one per data writer.
 */
final class RowEncoder {
    private final RecordFormat<?> format;
    private final ColumnType[] columns;

    /**
     * An encoder of rows of {@code schema}.
     *
     * @throws IllegalArgumentException naming the first column of a type no feature holds
     */
    RowEncoder(RecordFormat<?> format, StructType schema) {
        this.format = format;
        this.columns = new ColumnType[schema.fields().length];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = ColumnType.of(schema.fields()[i], format.shortName());
        }
    }

    /** The payload of {@code row}'s record. */
    byte[] encode(InternalRow row) {
        RecordFormat.RecordBuilder record = format.newRecord();
        for (int i = 0; i < columns.length; i++) {
            if (!row.isNullAt(i)) {
                put(record, columns[i], row, i);
            }
        }
        return record.toPayload();
    }

    private static void put(RecordFormat.RecordBuilder record, ColumnType column, InternalRow row, int i) {
        String name = column.name();
        if (!column.array()) {
            switch (column.value()) {
                case LONG -> record.putLongs(name, new long[] {row.getLong(i)});
                case INT -> record.putInts(name, new int[] {row.getInt(i)});
                case FLOAT -> record.putFloats(name, new float[] {row.getFloat(i)});
                case DOUBLE -> record.putDoubles(name, new double[] {row.getDouble(i)});
                case BINARY -> record.putBytes(name, List.of(ByteString.copyFrom(row.getBinary(i))));
                case STRING -> record.putBytes(name, List.of(ByteString.copyFrom(row.getUTF8String(i).getBytes())));
            }
            return;
        }
        ArrayData array = row.getArray(i);
        for (int j = 0; j < array.numElements(); j++) {
            if (array.isNullAt(j)) {
                throw new IllegalArgumentException("column " + name + " holds an array with a null at index " + j
                        + ", which a feature list cannot hold");
            }
        }
        switch (column.value()) {
            case LONG -> record.putLongs(name, array.toLongArray());
            case INT -> record.putInts(name, array.toIntArray());
            case FLOAT -> record.putFloats(name, array.toFloatArray());
            case DOUBLE -> record.putDoubles(name, array.toDoubleArray());
            case BINARY, STRING -> {
                List<ByteString> values = new ArrayList<>(array.numElements());
                for (int j = 0; j < array.numElements(); j++) {
                    values.add(ByteString.copyFrom(column.value() == ColumnType.Value.BINARY
                            ? array.getBinary(j) : array.getUTF8String(j).getBytes()));
                }
                record.putBytes(name, values);
            }
        }
    }
}
