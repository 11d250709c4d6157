package org.dataloader4j.tfrecord.internal;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.dataloader4j.api.DataType;
import org.dataloader4j.core.decode.OutputColumn;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.tfrecord.BytesFeature;
import org.dataloader4j.tfrecord.BytesSequenceFeature;
import org.dataloader4j.tfrecord.ExampleFeature;
import org.dataloader4j.tfrecord.FixedLenFeature;
import org.dataloader4j.tfrecord.FixedLenSequenceFeature;
import org.dataloader4j.tfrecord.SequenceFeature;
import org.dataloader4j.tfrecord.VarLenBytesFeature;
import org.dataloader4j.tfrecord.VarLenFeature;
import org.dataloader4j.tfrecord.VarLenSequenceFeature;

/**
 * One feature spec, flattened for the hot loop: what it reads, how much a row holds, and what a
 * record without it gets.
 *
 * @param name         the feature's key and the output's name
 * @param role         which spec it is
 * @param dataType     the output's element type
 * @param rowElements  a dense row's element count, or the most values of a ragged row
 * @param stepElements the values of one step of a feature list; 0 for other specs
 * @param maxSteps     the most steps of a feature list; 0 for other specs
 * @param numericKind  the numeric list the output type reads: {@code float_list} or {@code int64_list}
 * @param readsBytes   whether a {@code bytes_list} of one string is read (as its bytes)
 * @param defaultRow   the row of records without a dense feature, little-endian; null if required
 */
record FeatureColumn(String name, Role role, DataType dataType, int rowElements, int stepElements, int maxSteps,
                     ListKind numericKind, boolean readsBytes, MemorySegment defaultRow) implements OutputColumn {

    /** The kinds of spec, each with its own rules. */
    enum Role {
        /** {@link FixedLenFeature}: a dense row of exactly {@code rowElements} values. */
        FIXED,
        /** {@link VarLenFeature}: a ragged row of up to {@code rowElements} values. */
        VAR_LEN,
        /** {@link BytesFeature}: a ragged row of one string's bytes. */
        BYTES,
        /** {@link FixedLenSequenceFeature}: a ragged row of steps of {@code stepElements} values. */
        FIXED_SEQUENCE,
        /** {@link VarLenBytesFeature}'s bytes, up to {@code rowElements}; its lengths column follows. */
        VAR_BYTES,
        /** {@link BytesSequenceFeature}'s bytes, up to {@code rowElements}; its lengths and steps columns follow. */
        BYTES_SEQUENCE,
        /** {@link VarLenSequenceFeature}'s values, up to {@code rowElements}; its steps column follows. */
        VAR_SEQUENCE,
        /**
         * An INT64 companion of the column before it ({@code x.lengths}, {@code x.steps}): up to
         * {@code rowElements} values, measured and written by the spec's first column.
         */
        COMPANION
    }

    /** The columns of {@code feature}: its own, then its companions. */
    static List<FeatureColumn> of(ExampleFeature feature) {
        return switch (feature) {
            case FixedLenFeature f -> List.of(new FeatureColumn(f.name(), Role.FIXED, f.dataType(), f.rowElements(),
                    0, 0, numericKind(f.dataType()), isByte(f.dataType()), f.defaultRow().orElse(null)));
            case VarLenFeature f -> List.of(new FeatureColumn(f.name(), Role.VAR_LEN, f.dataType(),
                    f.maxValuesPerRow(), 0, 0, numericKind(f.dataType()), false, null));
            case BytesFeature f -> List.of(new FeatureColumn(f.name(), Role.BYTES, DataType.UINT8, f.maxBytes(), 0, 0,
                    null, true, null));
            case VarLenBytesFeature f -> List.of(
                    new FeatureColumn(f.name(), Role.VAR_BYTES, DataType.UINT8, f.maxBytesPerRow(), 0, 0, null, true, null),
                    companion(f.name() + VarLenBytesFeature.LENGTHS, f.maxStringsPerRow()));
        };
    }

    /** The columns of {@code feature}: its own, then its companions. */
    static List<FeatureColumn> of(SequenceFeature feature) {
        return switch (feature) {
            case FixedLenSequenceFeature f -> List.of(new FeatureColumn(f.name(), Role.FIXED_SEQUENCE, f.dataType(),
                    f.maxValuesPerRow(), f.stepElements(), f.maxSteps(), numericKind(f.dataType()),
                    isByte(f.dataType()), null));
            case BytesSequenceFeature f -> List.of(
                    new FeatureColumn(f.name(), Role.BYTES_SEQUENCE, DataType.UINT8, f.maxBytesPerRow(), 0, f.maxSteps(),
                            null, true, null),
                    companion(f.name() + BytesSequenceFeature.LENGTHS, f.maxStringsPerRow()),
                    companion(f.name() + BytesSequenceFeature.STEPS, f.maxSteps()));
            case VarLenSequenceFeature f -> List.of(
                    new FeatureColumn(f.name(), Role.VAR_SEQUENCE, f.dataType(), f.maxValuesPerRow(), 0, f.maxSteps(),
                            numericKind(f.dataType()), false, null),
                    companion(f.name() + VarLenSequenceFeature.STEPS, f.maxSteps()));
        };
    }

    private static FeatureColumn companion(String name, int maxValues) {
        return new FeatureColumn(name, Role.COMPANION, DataType.INT64, maxValues, 0, 0, null, false, null);
    }

    /** TensorFlow keeps floating values in a {@code float_list} and integers in an {@code int64_list}. */
    private static ListKind numericKind(DataType type) {
        return type == DataType.FLOAT32 || type == DataType.FLOAT64 ? ListKind.FLOAT : ListKind.INT64;
    }

    private static boolean isByte(DataType type) {
        return type == DataType.UINT8 || type == DataType.INT8;
    }

    @Override
    public boolean ragged() {
        return role != Role.FIXED;
    }

    /** The number of companion columns that follow this one (written by this one's decoder). */
    int companions() {
        return switch (role) {
            case VAR_BYTES, VAR_SEQUENCE -> 1;
            case BYTES_SEQUENCE -> 2;
            default -> 0;
        };
    }

    /** Whether this column's rows are a feature list's steps. */
    boolean sequence() {
        return role == Role.FIXED_SEQUENCE || role == Role.BYTES_SEQUENCE || role == Role.VAR_SEQUENCE;
    }

    /** Whether {@code kind} may be read into this column. */
    boolean reads(ListKind kind) {
        return kind == numericKind || (kind == ListKind.BYTES && readsBytes);
    }

    /** What this column reads, for errors: {@code "an int64_list or a bytes_list"}. */
    String expected() {
        String numeric = numericKind == null ? null : "a" + (numericKind == ListKind.INT64 ? "n " : " ") + numericKind;
        return numeric == null ? "a bytes_list" : readsBytes ? numeric + " or a bytes_list" : numeric;
    }
}
