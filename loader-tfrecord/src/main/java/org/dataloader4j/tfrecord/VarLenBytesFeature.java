package org.dataloader4j.tfrecord;

import java.util.List;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.Checks;

/**
 * A {@code bytes_list} feature with any number of byte strings per record, decoded into two
 * rows of two {@code RaggedTensor}s (Arrow's list layout each): {@code tf.io.VarLenFeature(tf.string)},
 * ragged instead of sparse.
 *
 * <ul>
 *   <li>{@code <name>}, UINT8: row {@code r} holds all of record {@code r}'s strings' bytes,
 *       back to back;</li>
 *   <li>{@code <name>.lengths}, INT64: row {@code r} holds each string's byte length, in order,
 *       so that string {@code i} of the row starts at the sum of the lengths before it.</li>
 * </ul>
 *
 * <p>A record without the feature, whose {@code Feature} sets no list, or whose {@code bytes_list}
 * is empty has empty rows in both; an empty string is a length of 0. Another kind of list, more
 * than {@code maxStringsPerRow} strings or more than {@code maxBytesPerRow} bytes in all is an
 * error naming the feature and the record, never an overflow into the next row.
 *
 * @param name             the feature's key, and the bytes output's name
 * @param maxStringsPerRow the most strings one record may hold
 * @param maxBytesPerRow   the most bytes one record's strings may hold together
 */
public record VarLenBytesFeature(String name, int maxStringsPerRow, int maxBytesPerRow) implements ExampleFeature {
    /** The suffix of the lengths output's name. */
    public static final String LENGTHS = ".lengths";

    /** Checks the arguments. */
    public VarLenBytesFeature {
        FeatureSpecs.name(name);
        Checks.positive("maxStringsPerRow", maxStringsPerRow);
        Checks.positive("maxBytesPerRow", maxBytesPerRow);
    }

    /** Feature {@code name}, up to {@code maxStringsPerRow} strings of {@code maxBytesPerRow} bytes in all per record. */
    public static VarLenBytesFeature of(String name, int maxStringsPerRow, int maxBytesPerRow) {
        return new VarLenBytesFeature(name, maxStringsPerRow, maxBytesPerRow);
    }

    /** The UINT8 ragged output of the strings' bytes, up to {@code maxBytesPerRow} per row. */
    @Override
    public TensorSpec spec(int batchCapacity) {
        Checks.positive("batchCapacity", batchCapacity);
        return TensorSpec.ragged(name, DataType.UINT8, batchCapacity, (long) batchCapacity * maxBytesPerRow);
    }

    /** {@link #spec}, then {@code <name>.lengths}: INT64 ragged, up to {@code maxStringsPerRow} per row. */
    @Override
    public List<TensorSpec> outputs(int batchCapacity) {
        return List.of(spec(batchCapacity), TensorSpec.ragged(name + LENGTHS, DataType.INT64, batchCapacity,
                (long) batchCapacity * maxStringsPerRow));
    }
}
