package org.dataloader4j.tfrecord;

import java.util.List;
import org.dataloader4j.api.DataType;
import org.dataloader4j.tfrecord.internal.FeatureColumn;
import org.dataloader4j.tfrecord.internal.FeatureColumn.Role;

/** Each spec as the columns the row decoding runs: its own, then its companions ({@code x.lengths}, {@code x.steps}). */
final class SpecColumns {
    private SpecColumns() {
    }

    /** The columns of {@code feature}: its own, then its companions. */
    static List<FeatureColumn> of(ExampleFeature feature) {
        return switch (feature) {
            case FixedLenFeature f -> List.of(new FeatureColumn(f.name(), Role.FIXED, f.dataType(), f.rowElements(),
                    0, 0, FeatureColumn.numericKind(f.dataType()), FeatureColumn.isByte(f.dataType()), f.defaultRow().orElse(null)));
            case VarLenFeature f -> List.of(new FeatureColumn(f.name(), Role.VAR_LEN, f.dataType(),
                    f.maxValuesPerRow(), 0, 0, FeatureColumn.numericKind(f.dataType()), false, null));
            case BytesFeature f -> List.of(new FeatureColumn(f.name(), Role.BYTES, DataType.UINT8, f.maxBytes(), 0, 0,
                    null, true, null));
            case VarLenBytesFeature f -> List.of(
                    new FeatureColumn(f.name(), Role.VAR_BYTES, DataType.UINT8, f.maxBytesPerRow(), 0, 0, null, true, null),
                    FeatureColumn.companion(f.name() + VarLenBytesFeature.LENGTHS, f.maxStringsPerRow()));
        };
    }

    /** The columns of {@code feature}: its own, then its companions. */
    static List<FeatureColumn> of(SequenceFeature feature) {
        return switch (feature) {
            case FixedLenSequenceFeature f -> List.of(new FeatureColumn(f.name(), Role.FIXED_SEQUENCE, f.dataType(),
                    f.maxValuesPerRow(), f.stepElements(), f.maxSteps(), FeatureColumn.numericKind(f.dataType()),
                    FeatureColumn.isByte(f.dataType()), null));
            case BytesSequenceFeature f -> List.of(
                    new FeatureColumn(f.name(), Role.BYTES_SEQUENCE, DataType.UINT8, f.maxBytesPerRow(), 0, f.maxSteps(),
                            null, true, null),
                    FeatureColumn.companion(f.name() + BytesSequenceFeature.LENGTHS, f.maxStringsPerRow()),
                    FeatureColumn.companion(f.name() + BytesSequenceFeature.STEPS, f.maxSteps()));
            case VarLenSequenceFeature f -> List.of(
                    new FeatureColumn(f.name(), Role.VAR_SEQUENCE, f.dataType(), f.maxValuesPerRow(), 0, f.maxSteps(),
                            FeatureColumn.numericKind(f.dataType()), false, null),
                    FeatureColumn.companion(f.name() + VarLenSequenceFeature.STEPS, f.maxSteps()));
        };
    }
}
