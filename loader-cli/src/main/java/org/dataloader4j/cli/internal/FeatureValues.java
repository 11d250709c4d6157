package org.dataloader4j.cli.internal;

import java.util.List;
import org.dataloader4j.format.proto.Feature;

/**
 * The values of one feature, whatever message it came from: OneFlow's {@code Feature} has five
 * kinds of list, TensorFlow's three; a feature with no list set has {@link Type#NONE}.
 *
 * @param type   the kind of list
 * @param values {@code ByteString}s, {@code Float}s, {@code Double}s, {@code Integer}s or
 *               {@code Long}s, as {@code type} says; empty for {@code NONE}
 */
public record FeatureValues(Type type, List<?> values) {

    /** The kinds of list, with the names {@code loader} prints. */
    public enum Type {
        /** {@code bytes_list}. */
        BYTES("bytes"),
        /** {@code float_list}. */
        FLOAT("float"),
        /** {@code double_list} (OneFlow only). */
        DOUBLE("double"),
        /** {@code int32_list} (OneFlow only). */
        INT32("int32"),
        /** {@code int64_list}. */
        INT64("int64"),
        /** A feature with no list set. */
        NONE("none");

        private final String label;

        Type(String label) {
            this.label = label;
        }

        /** The name {@code loader} prints. */
        public String label() {
            return label;
        }
    }

    /** Copies the values. */
    public FeatureValues {
        values = List.copyOf(values);
    }

    /** A OneFlow feature's values. */
    public static FeatureValues of(Feature f) {
        return switch (f.getKindCase()) {
            case BYTES_LIST -> new FeatureValues(Type.BYTES, f.getBytesList().getValueList());
            case FLOAT_LIST -> new FeatureValues(Type.FLOAT, f.getFloatList().getValueList());
            case DOUBLE_LIST -> new FeatureValues(Type.DOUBLE, f.getDoubleList().getValueList());
            case INT32_LIST -> new FeatureValues(Type.INT32, f.getInt32List().getValueList());
            case INT64_LIST -> new FeatureValues(Type.INT64, f.getInt64List().getValueList());
            case KIND_NOT_SET -> new FeatureValues(Type.NONE, List.of());
        };
    }

    /** A TensorFlow feature's values. */
    public static FeatureValues of(org.dataloader4j.format.tf.Feature f) {
        return switch (f.getKindCase()) {
            case BYTES_LIST -> new FeatureValues(Type.BYTES, f.getBytesList().getValueList());
            case FLOAT_LIST -> new FeatureValues(Type.FLOAT, f.getFloatList().getValueList());
            case INT64_LIST -> new FeatureValues(Type.INT64, f.getInt64List().getValueList());
            case KIND_NOT_SET -> new FeatureValues(Type.NONE, List.of());
        };
    }
}
