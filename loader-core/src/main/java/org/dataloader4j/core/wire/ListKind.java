package org.dataloader4j.core.wire;

/**
 * The list a protobuf {@code Feature} holds: OneFlow's OFRecord and TensorFlow's tf.Example
 * share the idea (a {@code oneof} of typed value lists, each a message whose field 1 holds the
 * values) and the names, but not the field numbers, which a {@link FeatureSchema} gives.
 */
public enum ListKind {
    /** {@code bytes_list}: each value is a length-delimited byte string. */
    BYTES("bytes_list", WireReader.LENGTH_DELIMITED),
    /** {@code float_list}: fixed32 IEEE floats, usually packed. */
    FLOAT("float_list", WireReader.FIXED32),
    /** {@code double_list} (OFRecord only): fixed64 IEEE doubles, usually packed. */
    DOUBLE("double_list", WireReader.FIXED64),
    /** {@code int32_list} (OFRecord only): varints whose low 32 bits are the value. */
    INT32("int32_list", WireReader.VARINT),
    /** {@code int64_list}: varints. */
    INT64("int64_list", WireReader.VARINT);

    private final String protoName;
    private final int valueWireType;

    ListKind(String protoName, int valueWireType) {
        this.protoName = protoName;
        this.valueWireType = valueWireType;
    }

    /** The wire type of one value written unpacked (for bytes, of every value). */
    public int valueWireType() {
        return valueWireType;
    }

    /** The bytes of one fixed-width value, or 0 for varints and byte strings. */
    public int fixedWidth() {
        return switch (this) {
            case FLOAT -> Float.BYTES;
            case DOUBLE -> Double.BYTES;
            default -> 0;
        };
    }

    /** The field's name in the {@code .proto} files, as errors show it ({@code float_list}). */
    @Override
    public String toString() {
        return protoName;
    }
}
