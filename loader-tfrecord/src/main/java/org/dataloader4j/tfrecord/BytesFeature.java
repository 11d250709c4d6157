package org.dataloader4j.tfrecord;

import org.dataloader4j.api.DataType;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.Checks;

/**
 * A {@code bytes_list} feature holding one byte string per record (an encoded image, a string),
 * decoded into one row of a UINT8 {@code RaggedTensor}: the string's bytes. This is
 * {@code tf.io.FixedLenFeature([], tf.string)} with the bytes themselves as the row.
 *
 * <p>A record without the feature, whose {@code Feature} sets no list, or whose {@code bytes_list}
 * is empty has an empty row (so an empty string and no string look alike). A list of two or more
 * strings, a string longer than {@code maxBytes}, or another kind of list is an error naming the
 * feature and the record. For several byte strings per record, use {@link VarLenBytesFeature}.
 *
 * @param name     the feature's key, and the output's name
 * @param maxBytes the most bytes one record's string may hold
 */
public record BytesFeature(String name, int maxBytes) implements ExampleFeature {

    /** Checks the arguments. */
    public BytesFeature {
        FeatureSpecs.name(name);
        Checks.positive("maxBytes", maxBytes);
    }

    /** Feature {@code name}, one string of up to {@code maxBytes} bytes per record. */
    public static BytesFeature of(String name, int maxBytes) {
        return new BytesFeature(name, maxBytes);
    }

    /** A UINT8 ragged output of up to {@code maxBytes} per row. */
    @Override
    public TensorSpec spec(int batchCapacity) {
        Checks.positive("batchCapacity", batchCapacity);
        return TensorSpec.ragged(name, DataType.UINT8, batchCapacity, (long) batchCapacity * maxBytes);
    }
}
