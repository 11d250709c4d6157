package org.dataloader4j.tfrecord.internal;

import static org.dataloader4j.core.decode.RecordErrors.corrupt;

import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.WireReader;
import org.dataloader4j.tfrecord.internal.FeatureColumn.Role;

/**
 * What a resolved {@code Feature} (a feature, or one step of a feature list) gives a column, and
 * the errors when it does not fit, worded after TensorFlow's ({@code "Key: x. Can't parse
 * serialized Example: ..."}, {@code "Data types don't match"}, {@code "is required but could not
 * be found"}) so that users can search for them; every error also names the file and the record.
 *
 * <p>Works on its decoder's view and reader: one instance per range, on one thread.
 */
final class FeatureRules {
    private final String message;
    private final FeatureView feature;
    private final WireReader reader;

    FeatureRules(String message, FeatureView feature, WireReader reader) {
        this.message = message;
        this.feature = feature;
        this.reader = reader;
    }

    /**
     * The number of elements the resolved feature gives {@code col} (values, or a byte string's
     * bytes), or -1 if its Feature sets no list; {@code step} is the step of a feature list, or -1.
     *
     * @throws CorruptDataException if the list is not one the column reads, or a bytes_list holds
     *                              more strings than the column takes
     */
    long elements(RecordView record, FeatureColumn col, int step) {
        ListKind kind = kind(record, col, step);
        if (kind == null) {
            return -1;
        }
        if (kind != ListKind.BYTES) {
            return feature.count(reader);
        }
        int strings = feature.pieces();
        if (col.role() == Role.BYTES) {
            if (strings > 1) {
                throw corrupt(record, key(col, step) + "Feature " + col.name() + " has " + strings
                        + " bytes_list values, a BytesFeature reads at most 1");
            }
            return strings == 0 ? 0 : feature.end(0) - feature.start(0);
        }
        if (strings != 1) {
            throw corrupt(record, key(col, step) + "Can't parse serialized " + message + ": " + subject(col, step)
                    + " has " + strings + " bytes_list values, a bytes_list read into " + col.dataType()
                    + " holds exactly 1");
        }
        return feature.end(0) - feature.start(0);
    }

    /**
     * The list the resolved feature holds, or null if its Feature sets none; {@code step} is the
     * step of a feature list, or -1.
     *
     * @throws CorruptDataException if the list is not one the column reads
     */
    ListKind kind(RecordView record, FeatureColumn col, int step) {
        ListKind kind = feature.kind();
        if (kind != null && !col.reads(kind)) {
            throw corrupt(record, key(col, step) + "Data types don't match: " + subject(col, step) + " is " + a(kind)
                    + ", " + a(col.dataType()) + " output reads " + col.expected());
        }
        return kind;
    }

    /**
     * Checks that a row of {@code strings} byte strings of {@code bytes} bytes in all fits
     * {@code col} (the bytes) and {@code lengths} (its lengths companion).
     */
    void checkStrings(RecordView record, FeatureColumn col, FeatureColumn lengths, long strings, long bytes) {
        if (strings > lengths.rowElements()) {
            throw corrupt(record, key(col, -1) + owner(col) + " has " + strings + " strings, more than maxStringsPerRow="
                    + lengths.rowElements());
        }
        if (bytes > col.rowElements()) {
            throw corrupt(record, key(col, -1) + owner(col) + " holds " + bytes + " bytes, more than maxBytesPerRow="
                    + col.rowElements());
        }
    }

    /** Checks that a feature list's steps of {@code values} values in all fit. */
    void checkValues(RecordView record, FeatureColumn col, long values) {
        if (values > col.rowElements()) {
            throw corrupt(record, key(col, -1) + owner(col) + " has " + values + " values, more than maxValuesPerRow="
                    + col.rowElements());
        }
    }

    /** Checks that a fixed-length row (or step, if {@code step >= 0}) got exactly its element count. */
    void checkFixed(RecordView record, FeatureColumn col, long count, int step) {
        int holds = step >= 0 ? col.stepElements() : col.rowElements();
        if (count == holds) {
            return;
        }
        String has = count < 0 ? "sets no list"
                : feature.kind() == ListKind.BYTES ? "holds " + count + " bytes"
                : "has " + count + " " + feature.kind() + " values";
        throw corrupt(record, key(col, step) + "Can't parse serialized " + message + ": " + subject(col, step) + " "
                + has + ", its " + (step >= 0 ? "steps" : "rows") + " hold " + holds);
    }

    /** Checks that a variable-length row of {@code count} elements (-1: no list) fits. */
    void checkRagged(RecordView record, FeatureColumn col, long count) {
        if (count <= col.rowElements()) {
            return;
        }
        throw corrupt(record, key(col, -1) + (col.role() == Role.BYTES
                ? "Feature " + col.name() + " holds " + count + " bytes, more than maxBytes=" + col.rowElements()
                : "Feature " + col.name() + " has " + count + " values, more than maxValuesPerRow=" + col.rowElements()));
    }

    /** Checks that a feature list of {@code steps} steps fits. */
    void checkSteps(RecordView record, FeatureColumn col, int steps) {
        if (steps > col.maxSteps()) {
            throw corrupt(record, key(col, -1) + "Feature list " + col.name() + " has " + steps
                    + " steps, more than maxSteps=" + col.maxSteps());
        }
    }

    /** The error of a record without a required fixed-length feature. */
    CorruptDataException missing(RecordView record, FeatureColumn col) {
        return corrupt(record, key(col, -1) + "Feature: " + col.name() + " (data type: " + col.dataType()
                + ") is required but could not be found (a FixedLenFeature without a default)");
    }

    /** {@code x} with its article: {@code "an int64_list"}, {@code "a FLOAT32"}, {@code "a UINT8"}. */
    private static String a(Object x) {
        String s = x.toString();
        return (Character.toLowerCase(s.charAt(0)) == 'i' ? "an " : "a ") + s;
    }

    private static String key(FeatureColumn col, int step) {
        return "Key: " + col.name() + (step >= 0 ? ", step " + step : "") + ". ";
    }

    private static String owner(FeatureColumn col) {
        return (col.sequence() ? "Feature list " : "Feature ") + col.name();
    }

    private static String subject(FeatureColumn col, int step) {
        return step >= 0 ? "step " + step + " of feature list " + col.name() : "feature " + col.name();
    }
}
