package org.dataloader4j.tfrecord;

import java.util.List;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.Checks;

/**
 * A feature list of a SequenceExample whose steps each hold any number of numeric values,
 * decoded into two {@code RaggedTensor}s (Arrow's list layout each) that keep the step
 * boundaries: {@code tf.io.RaggedFeature(dtype)} over a feature list.
 *
 * <ul>
 *   <li>{@code <name>}, {@code dataType}: row {@code r} holds the values of all of record
 *       {@code r}'s steps, back to back;</li>
 *   <li>{@code <name>.steps}, INT64: the number of values of each step (its length is the
 *       record's step count).</li>
 * </ul>
 *
 * <p>Each step is read as {@link VarLenFeature} reads a feature (the same lists per type, the same
 * casts, no {@code bytes_list}: use {@link BytesSequenceFeature}); a step whose {@code Feature}
 * sets no list has zero values. A record without the list has zero steps. A list of another type,
 * or more than {@code maxSteps} steps or {@code maxValuesPerRow} values in a record is an error
 * naming the list and the record.
 *
 * @param name            the feature list's key, and the values output's name
 * @param dataType        the values output's element type
 * @param maxSteps        the most steps one record may hold
 * @param maxValuesPerRow the most values one record may hold, over all its steps
 */
public record VarLenSequenceFeature(String name, DataType dataType, int maxSteps, int maxValuesPerRow)
        implements SequenceFeature {
    /** The suffix of the values-per-step output's name. */
    public static final String STEPS = ".steps";

    /** Checks the arguments. */
    public VarLenSequenceFeature {
        FeatureSpecs.name(name);
        FeatureSpecs.dataType(dataType);
        Checks.positive("maxSteps", maxSteps);
        Checks.positive("maxValuesPerRow", maxValuesPerRow);
    }

    /** Feature list {@code name}: up to {@code maxSteps} steps and {@code maxValuesPerRow} values of {@code dataType} per record. */
    public static VarLenSequenceFeature of(String name, DataType dataType, int maxSteps, int maxValuesPerRow) {
        return new VarLenSequenceFeature(name, dataType, maxSteps, maxValuesPerRow);
    }

    /** The ragged output of the values, up to {@code maxValuesPerRow} per row. */
    @Override
    public TensorSpec spec(int batchCapacity) {
        Checks.positive("batchCapacity", batchCapacity);
        return TensorSpec.ragged(name, dataType, batchCapacity, (long) batchCapacity * maxValuesPerRow);
    }

    /** {@link #spec}, then {@code <name>.steps}: INT64 ragged, up to {@code maxSteps} per row. */
    @Override
    public List<TensorSpec> outputs(int batchCapacity) {
        return List.of(spec(batchCapacity),
                TensorSpec.ragged(name + STEPS, DataType.INT64, batchCapacity, (long) batchCapacity * maxSteps));
    }
}
