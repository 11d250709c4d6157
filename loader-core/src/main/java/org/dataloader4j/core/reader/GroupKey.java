package org.dataloader4j.core.reader;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongUnaryOperator;
import java.util.function.ToLongFunction;
import org.dataloader4j.core.dataset.GroupBatchDataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.RecordFeatures;

/**
 * What a reader of record files groups its batches by ({@link FilePipelineBuilder#groupBy}): a
 * number per record, the same for the records one batch may hold ({@link GroupBatchDataset}).
 * The built-in keys read one feature's decoded values, in the format's own layout (an OFRecord's
 * feature map, a tf.Example's features), without decoding the rest of the record:
 * <ul>
 *   <li>{@link #listLength}: the number of values of a list feature (tokens of a sentence);</li>
 *   <li>{@link #intValue}: the value of an integer feature holding one number (a class, a
 *       language, a length written beside the data);</li>
 *   <li>{@link #lengthBuckets}: the bucket of a list's length among boundaries, as tf.data's
 *       {@code bucket_by_sequence_length}.</li>
 * </ul>
 * {@link #of} takes a function of the raw record, and {@link #map} turns any key's number into
 * another, so a key of one's own can start from a decoded value. Keys are computed on the
 * reader's load thread, one record at a time. Immutable.
 */
public final class GroupKey {
    /** Makes the key's function for a format's feature layout (null for a format without one). */
    private interface Binder {
        ToLongFunction<RecordSlice> bind(RecordFeatures features);
    }

    private final String description;
    private final boolean needsFeatures;
    private final Binder binder;

    private GroupKey(String description, boolean needsFeatures, Binder binder) {
        this.description = description;
        this.needsFeatures = needsFeatures;
        this.binder = binder;
    }

    /**
     * The number of values in the list feature {@code feature}: numbers of a numeric list, byte
     * strings of a {@code bytes_list}; 0 where a record lacks it.
     */
    public static GroupKey listLength(String feature) {
        Objects.requireNonNull(feature, "feature");
        return new GroupKey("listLength(" + feature + ")", true, features -> {
            RecordFeatures.Lookup lookup = features.lookup(feature);
            return lookup::count;
        });
    }

    /**
     * The value of {@code feature}, an integer list of exactly one number; a record without it, or
     * with another list or number of values, fails with a {@code CorruptDataException} naming the
     * record.
     */
    public static GroupKey intValue(String feature) {
        Objects.requireNonNull(feature, "feature");
        return new GroupKey("intValue(" + feature + ")", true, features -> {
            RecordFeatures.Lookup lookup = features.lookup(feature);
            return lookup::intValue;
        });
    }

    /**
     * The bucket of the length of list feature {@code feature} (as {@link #listLength}) among
     * {@code boundaries} {@code b0 < b1 < ... < bk}, as tf.data's {@code bucket_by_sequence_length}:
     * bucket 0 holds lengths below {@code b0}, bucket {@code i} lengths in {@code [b(i-1), b(i))},
     * and bucket {@code k + 1} every length from {@code bk} on.
     *
     * @throws IllegalArgumentException if there is no boundary, the first is below 1, or they do
     *                                  not rise strictly
     */
    public static GroupKey lengthBuckets(String feature, long... boundaries) {
        Objects.requireNonNull(feature, "feature");
        long[] b = boundaries.clone();
        if (b.length == 0 || b[0] < 1) {
            throw new IllegalArgumentException("boundaries must start at 1 or more: boundaries=" + Arrays.toString(b));
        }
        for (int i = 1; i < b.length; i++) {
            if (b[i] <= b[i - 1]) {
                throw new IllegalArgumentException("boundaries must rise strictly: boundaries=" + Arrays.toString(b));
            }
        }
        return listLength(feature).map(length -> bucket(b, length))
                .describedAs("lengthBuckets(" + feature + ", " + Arrays.toString(b) + ")");
    }

    /** The number of boundaries at or below {@code length}: its bucket. */
    static long bucket(long[] boundaries, long length) {
        int i = Arrays.binarySearch(boundaries, length);
        return i >= 0 ? i + 1 : -(i + 1);
    }

    /**
     * A key of the raw record: {@code key} sees its payload ({@link RecordSlice#payload()}),
     * file, index and offset, and must not keep the slice.
     */
    public static GroupKey of(ToLongFunction<? super RecordSlice> key) {
        Objects.requireNonNull(key, "key");
        return new GroupKey("of(" + key + ")", false, features -> key::applyAsLong);
    }

    /** This key's number passed through {@code f}: {@code listLength("tokens").map(n -> n / 8)}, say. */
    public GroupKey map(LongUnaryOperator f) {
        Objects.requireNonNull(f, "f");
        return new GroupKey(description + ".map(" + f + ")", needsFeatures, features -> {
            ToLongFunction<RecordSlice> inner = binder.bind(features);
            return record -> f.applyAsLong(inner.applyAsLong(record));
        });
    }

    private GroupKey describedAs(String text) {
        return new GroupKey(text, needsFeatures, binder);
    }

    /**
     * The key's function over the records of a format laid out as {@code features} (null for a
     * format without a feature map); for one thread.
     *
     * @throws IllegalArgumentException if the key reads a feature and the format has none
     */
    ToLongFunction<RecordSlice> bind(RecordFeatures features) {
        if (needsFeatures && features == null) {
            throw new IllegalArgumentException("groupBy(" + description + ") reads a feature, and this format has no"
                    + " feature map: group with GroupKey.of(record -> ...)");
        }
        return binder.bind(features);
    }

    @Override
    public String toString() {
        return description;
    }
}
