package org.dataloader4j.tfrecord;

import org.dataloader4j.api.DataType;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.Checks;

/**
 * A feature with any number of values per record, up to {@code maxValuesPerRow}, decoded into one
 * row of a {@code RaggedTensor} (Arrow's list layout: the rows' values back to back, and
 * {@code rows + 1} INT64 offsets): {@code tf.io.VarLenFeature}, ragged instead of sparse.
 *
 * <p>The lists each type reads, and the casts, are {@link FixedLenFeature}'s, except that a
 * {@code bytes_list} is not read: use {@link BytesFeature} for one byte string per record, and
 * {@link VarLenBytesFeature} for any number of them. A record without
 * the feature, or whose {@code Feature} sets no list, has an empty row; a record with more than
 * {@code maxValuesPerRow} values is an error naming the feature and the record, never an overflow
 * into the next row.
 *
 * @param name            the feature's key, and the output's name
 * @param dataType        the output's element type
 * @param maxValuesPerRow the most values one record may hold
 */
public record VarLenFeature(String name, DataType dataType, int maxValuesPerRow) implements ExampleFeature {

    /** Checks the arguments. */
    public VarLenFeature {
        FeatureSpecs.name(name);
        FeatureSpecs.dataType(dataType);
        Checks.positive("maxValuesPerRow", maxValuesPerRow);
    }

    /** Feature {@code name}, up to {@code maxValuesPerRow} values of {@code dataType} per record. */
    public static VarLenFeature of(String name, DataType dataType, int maxValuesPerRow) {
        return new VarLenFeature(name, dataType, maxValuesPerRow);
    }

    /** A ragged output of up to {@code maxValuesPerRow} values per row. */
    @Override
    public TensorSpec spec(int batchCapacity) {
        Checks.positive("batchCapacity", batchCapacity);
        return TensorSpec.ragged(name, dataType, batchCapacity, (long) batchCapacity * maxValuesPerRow);
    }
}
