package org.dataloader4j.tfrecord;

import java.util.List;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.Checks;

/**
 * A feature list of a SequenceExample whose steps each hold any number of byte strings, decoded
 * into three {@code RaggedTensor}s (Arrow's list layout each) from which a user rebuilds steps →
 * strings → bytes: {@code tf.io.RaggedFeature(tf.string)} over a feature list.
 *
 * <ul>
 *   <li>{@code <name>}, UINT8: row {@code r} holds every byte of every string of every step of
 *       record {@code r}, back to back;</li>
 *   <li>{@code <name>.lengths}, INT64: each string's byte length, step after step;</li>
 *   <li>{@code <name>.steps}, INT64: the number of strings of each step (its length is the
 *       record's step count).</li>
 * </ul>
 *
 * <p>Each step is a {@code Feature} holding a {@code bytes_list}; a step whose {@code Feature}
 * sets no list has zero strings. A record without the list has zero steps (empty rows in all
 * three). Another kind of list, or more than {@code maxSteps} steps, {@code maxStringsPerRow}
 * strings or {@code maxBytesPerRow} bytes in a record is an error naming the list, the step where
 * it applies, and the record.
 *
 * @param name             the feature list's key, and the bytes output's name
 * @param maxSteps         the most steps one record may hold
 * @param maxStringsPerRow the most strings one record may hold, over all its steps
 * @param maxBytesPerRow   the most bytes one record's strings may hold together
 */
public record BytesSequenceFeature(String name, int maxSteps, int maxStringsPerRow, int maxBytesPerRow)
        implements SequenceFeature {
    /** The suffix of the string lengths output's name. */
    public static final String LENGTHS = ".lengths";
    /** The suffix of the strings-per-step output's name. */
    public static final String STEPS = ".steps";

    /** Checks the arguments. */
    public BytesSequenceFeature {
        FeatureSpecs.name(name);
        Checks.positive("maxSteps", maxSteps);
        Checks.positive("maxStringsPerRow", maxStringsPerRow);
        Checks.positive("maxBytesPerRow", maxBytesPerRow);
    }

    /** Feature list {@code name}: up to {@code maxSteps} steps, {@code maxStringsPerRow} strings and {@code maxBytesPerRow} bytes per record. */
    public static BytesSequenceFeature of(String name, int maxSteps, int maxStringsPerRow, int maxBytesPerRow) {
        return new BytesSequenceFeature(name, maxSteps, maxStringsPerRow, maxBytesPerRow);
    }

    /** The UINT8 ragged output of the strings' bytes, up to {@code maxBytesPerRow} per row. */
    @Override
    public TensorSpec spec(int batchCapacity) {
        Checks.positive("batchCapacity", batchCapacity);
        return TensorSpec.ragged(name, DataType.UINT8, batchCapacity, (long) batchCapacity * maxBytesPerRow);
    }

    /** {@link #spec}, then {@code <name>.lengths} and {@code <name>.steps}, both INT64 ragged. */
    @Override
    public List<TensorSpec> outputs(int batchCapacity) {
        return List.of(spec(batchCapacity),
                TensorSpec.ragged(name + LENGTHS, DataType.INT64, batchCapacity, (long) batchCapacity * maxStringsPerRow),
                TensorSpec.ragged(name + STEPS, DataType.INT64, batchCapacity, (long) batchCapacity * maxSteps));
    }
}
