package org.dataloader4j.tfrecord;

import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.Checks;

/**
 * A feature list of a SequenceExample whose every step holds exactly {@code shape}'s element
 * count of values, decoded into one row of a {@code RaggedTensor}: the record's steps, back to
 * back, so that row {@code r} holds {@code steps(r) × stepElements()} values and
 * {@code rowLength(r) / stepElements()} is its step count. This is
 * {@code tf.io.FixedLenSequenceFeature(shape, dtype, allow_missing=True)}, ragged instead of
 * padded.
 *
 * <p>Each step is a {@code Feature} read as {@link FixedLenFeature} reads one (the same lists per
 * type, the same casts, a {@code bytes_list} of one string into UINT8 or INT8). A record without
 * the list has zero steps. A step with another value count, including a step whose
 * {@code Feature} sets no list, a list of another type, or more than {@code maxSteps} steps is an
 * error naming the list, the step and the record.
 *
 * @param name     the feature list's key, and the output's name
 * @param shape    the shape of one step
 * @param dataType the output's element type
 * @param maxSteps the most steps one record may hold
 */
public record FixedLenSequenceFeature(String name, Shape shape, DataType dataType, int maxSteps)
        implements SequenceFeature {

    /** Checks the arguments. */
    public FixedLenSequenceFeature {
        FeatureSpecs.name(name);
        FeatureSpecs.dataType(dataType);
        Checks.positive("maxSteps", maxSteps);
        FeatureSpecs.rowLimit(name, "maxSteps * stepElements", maxSteps, FeatureSpecs.elements(name, shape));
    }

    /** Feature list {@code name}, up to {@code maxSteps} steps of {@code shape} per record. */
    public static FixedLenSequenceFeature of(String name, Shape shape, DataType dataType, int maxSteps) {
        return new FixedLenSequenceFeature(name, shape, dataType, maxSteps);
    }

    /** The number of values of one step: {@code shape}'s element count. */
    public int stepElements() {
        return (int) shape.elementCount();
    }

    /** The most values one row may hold: {@code maxSteps × stepElements()}. */
    public int maxValuesPerRow() {
        return maxSteps * stepElements();
    }

    /** A ragged output of up to {@link #maxValuesPerRow()} values per row. */
    @Override
    public TensorSpec spec(int batchCapacity) {
        Checks.positive("batchCapacity", batchCapacity);
        return TensorSpec.ragged(name, dataType, batchCapacity, (long) batchCapacity * maxValuesPerRow());
    }
}
