package org.dataloader4j.benchmarks;

import java.util.List;
import org.dataloader4j.format.proto.Feature;
import org.dataloader4j.format.proto.FloatList;
import org.dataloader4j.format.proto.Int32List;
import org.dataloader4j.format.proto.Int64List;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.format.tf.Example;

/**
 * A batch as a protobuf-java user fills it: one preallocated Java array per feature
 * ({@code float[]}, {@code long[]} or {@code int[]}, {@code batchSize × width}), each parsed
 * message's lists copied in value by value. The baseline of {@link Compare} and of the decoder
 * benchmarks. Not thread-safe.
 */
public final class ProtobufBatch {
    private final List<SyntheticRecords.Column> columns;
    private final Object[] arrays;

    /** Arrays for {@code batchSize} rows of {@code columns}. */
    public ProtobufBatch(List<SyntheticRecords.Column> columns, int batchSize) {
        this.columns = List.copyOf(columns);
        this.arrays = new Object[columns.size()];
        for (int c = 0; c < arrays.length; c++) {
            SyntheticRecords.Column col = columns.get(c);
            int n = batchSize * col.width();
            arrays[c] = switch (col.type()) {
                case FLOAT32 -> new float[n];
                case INT64 -> new long[n];
                case INT32 -> new int[n];
                default -> throw new IllegalArgumentException("no array for " + col.type());
            };
        }
    }

    /** Copies {@code record}'s features into row {@code row}. */
    public void put(OFRecord record, int row) {
        for (int c = 0; c < arrays.length; c++) {
            SyntheticRecords.Column col = columns.get(c);
            Feature f = record.getFeatureOrThrow(col.name());
            int at = row * col.width();
            switch (arrays[c]) {
                case float[] values -> {
                    FloatList list = f.getFloatList();
                    for (int i = 0; i < col.width(); i++) {
                        values[at + i] = list.getValue(i);
                    }
                }
                case long[] values -> {
                    Int64List list = f.getInt64List();
                    for (int i = 0; i < col.width(); i++) {
                        values[at + i] = list.getValue(i);
                    }
                }
                case int[] values -> {
                    Int32List list = f.getInt32List();
                    for (int i = 0; i < col.width(); i++) {
                        values[at + i] = list.getValue(i);
                    }
                }
                default -> throw new IllegalStateException("column " + col);
            }
        }
    }

    /** Copies {@code example}'s features into row {@code row}; integer lists are int64 lists there. */
    public void put(Example example, int row) {
        for (int c = 0; c < arrays.length; c++) {
            SyntheticRecords.Column col = columns.get(c);
            org.dataloader4j.format.tf.Feature f = example.getFeatures().getFeatureOrThrow(col.name());
            int at = row * col.width();
            switch (arrays[c]) {
                case float[] values -> {
                    org.dataloader4j.format.tf.FloatList list = f.getFloatList();
                    for (int i = 0; i < col.width(); i++) {
                        values[at + i] = list.getValue(i);
                    }
                }
                case long[] values -> {
                    org.dataloader4j.format.tf.Int64List list = f.getInt64List();
                    for (int i = 0; i < col.width(); i++) {
                        values[at + i] = list.getValue(i);
                    }
                }
                case int[] values -> {
                    org.dataloader4j.format.tf.Int64List list = f.getInt64List();
                    for (int i = 0; i < col.width(); i++) {
                        values[at + i] = (int) list.getValue(i);
                    }
                }
                default -> throw new IllegalStateException("column " + col);
            }
        }
    }

    /** The first value of each of rows {@code [0, rows)} of every array, added up: what a consumer reads. */
    public double touch(int rows) {
        double sum = 0;
        for (int c = 0; c < arrays.length; c++) {
            int width = columns.get(c).width();
            for (int row = 0; row < rows; row++) {
                sum += switch (arrays[c]) {
                    case float[] v -> v[row * width];
                    case long[] v -> v[row * width];
                    case int[] v -> v[row * width];
                    default -> 0;
                };
            }
        }
        return sum;
    }
}
