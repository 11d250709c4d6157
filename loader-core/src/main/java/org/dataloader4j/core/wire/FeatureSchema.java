package org.dataloader4j.core.wire;

import java.util.Arrays;
import java.util.Objects;

/**
 * The field numbers of a {@code Feature} message's lists: which {@link ListKind} each field of
 * its {@code oneof kind} holds. OFRecord's {@code Feature} numbers five lists 1 to 5; TensorFlow's
 * numbers three, {@code bytes_list = 1, float_list = 2, int64_list = 3}. Immutable.
 */
public final class FeatureSchema {
    private final ListKind[] byField;

    private FeatureSchema(ListKind[] byField) {
        this.byField = byField;
    }

    /**
     * The schema whose field {@code i + 1} holds {@code kinds[i]}.
     *
     * @throws IllegalArgumentException if a kind is null or listed twice
     */
    public static FeatureSchema of(ListKind... kinds) {
        ListKind[] byField = new ListKind[kinds.length + 1];
        for (int i = 0; i < kinds.length; i++) {
            Objects.requireNonNull(kinds[i], "kinds[" + i + "]");
            if (Arrays.asList(byField).contains(kinds[i])) {
                throw new IllegalArgumentException("each kind may have one field: kinds=" + Arrays.toString(kinds));
            }
            byField[i + 1] = kinds[i];
        }
        return new FeatureSchema(byField);
    }

    /** The kind stored in field {@code fieldNumber}, or null if that field holds no list. */
    public ListKind kindOf(int fieldNumber) {
        return fieldNumber > 0 && fieldNumber < byField.length ? byField[fieldNumber] : null;
    }

    /** The field number of {@code kind}, or -1 if this schema has no such list. */
    public int fieldNumber(ListKind kind) {
        return Arrays.asList(byField).indexOf(kind);
    }

    /** The kinds in field order, e.g. {@code [bytes_list, float_list, int64_list]}. */
    @Override
    public String toString() {
        return Arrays.toString(Arrays.copyOfRange(byField, 1, byField.length));
    }
}
