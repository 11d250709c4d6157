package org.dataloader4j.tfrecord.internal;

import java.lang.foreign.MemorySegment;
import org.dataloader4j.api.DataType;
import org.dataloader4j.core.decode.OutputColumn;
import org.dataloader4j.core.wire.ListKind;

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
public record FeatureColumn(String name, Role role, DataType dataType, int rowElements, int stepElements, int maxSteps,
                     ListKind numericKind, boolean readsBytes, MemorySegment defaultRow) implements OutputColumn {

    /** The kinds of spec, each with its own rules. */
    public enum Role {
        /** {@code FixedLenFeature}: a dense row of exactly {@code rowElements} values. */
        FIXED,
        /** {@code VarLenFeature}: a ragged row of up to {@code rowElements} values. */
        VAR_LEN,
        /** {@code BytesFeature}: a ragged row of one string's bytes. */
        BYTES,
        /** {@code FixedLenSequenceFeature}: a ragged row of steps of {@code stepElements} values. */
        FIXED_SEQUENCE,
        /** {@code VarLenBytesFeature}'s bytes, up to {@code rowElements}; its lengths column follows. */
        VAR_BYTES,
        /** {@code BytesSequenceFeature}'s bytes, up to {@code rowElements}; its lengths and steps columns follow. */
        BYTES_SEQUENCE,
        /** {@code VarLenSequenceFeature}'s values, up to {@code rowElements}; its steps column follows. */
        VAR_SEQUENCE,
        /**
         * An INT64 companion of the column before it ({@code x.lengths}, {@code x.steps}): up to
         * {@code rowElements} values, measured and written by the spec's first column.
         */
        COMPANION
    }

    /** An INT64 companion column {@code name} of up to {@code maxValues} values a row. */
    public static FeatureColumn companion(String name, int maxValues) {
        return new FeatureColumn(name, Role.COMPANION, DataType.INT64, maxValues, 0, 0, null, false, null);
    }

    /** TensorFlow keeps floating values in a {@code float_list} and integers in an {@code int64_list}. */
    public static ListKind numericKind(DataType type) {
        return type == DataType.FLOAT32 || type == DataType.FLOAT64 ? ListKind.FLOAT : ListKind.INT64;
    }

    /** Whether {@code type} is one byte a value, so that a {@code bytes_list} of one string reads into it. */
    public static boolean isByte(DataType type) {
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
