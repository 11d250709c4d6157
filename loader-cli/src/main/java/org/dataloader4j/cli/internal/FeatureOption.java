package org.dataloader4j.cli.internal;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;

/**
 * A dense feature named on the command line as {@code NAME:TYPE:SHAPE}: {@code images:float32:784},
 * {@code labels:int64:1}, {@code image:uint8:28x28}. Types are the tensor types in lower case
 * ({@code int8}, {@code uint8}, {@code int32}, {@code int64}, {@code float32}, {@code float64}),
 * or {@code float} and {@code double}; the shape is of one record, dimensions joined by {@code x}.
 *
 * @param name     the feature
 * @param dataType the tensor type
 * @param shape    the shape of one record's values
 */
public record FeatureOption(String name, DataType dataType, Shape shape) {
    private static final Map<String, DataType> ALIASES = Map.of("float", DataType.FLOAT32, "double", DataType.FLOAT64);

    /**
     * Parses {@code spec}.
     *
     * @throws IllegalArgumentException naming the spec if it is not {@code NAME:TYPE:SHAPE}
     */
    public static FeatureOption parse(String spec) {
        int second = spec.lastIndexOf(':');
        int first = second > 0 ? spec.lastIndexOf(':', second - 1) : -1;
        if (first <= 0) {
            throw new IllegalArgumentException("--feature must be NAME:TYPE:SHAPE, e.g. images:float32:784: feature=" + spec);
        }
        String type = spec.substring(first + 1, second).toLowerCase(Locale.ROOT);
        DataType dataType = ALIASES.get(type);
        if (dataType == null) {
            try {
                dataType = DataType.valueOf(type.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--feature " + spec + ": unknown type " + type + " (one of "
                        + Arrays.stream(DataType.values()).map(t -> t.name().toLowerCase(Locale.ROOT)).toList() + ")", e);
            }
        }
        String[] dims = spec.substring(second + 1).split("x", -1);
        long[] shape = new long[dims.length];
        for (int i = 0; i < dims.length; i++) {
            try {
                shape[i] = Long.parseLong(dims[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--feature " + spec + ": the shape must be numbers joined by x, e.g. 28x28", e);
            }
            if (shape[i] < 1) {
                throw new IllegalArgumentException("--feature " + spec + ": every dimension must be > 0");
            }
        }
        return new FeatureOption(spec.substring(0, first), dataType, Shape.of(shape));
    }
}
