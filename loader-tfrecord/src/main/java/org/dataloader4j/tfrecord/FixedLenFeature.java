package org.dataloader4j.tfrecord;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.Checks;
import org.dataloader4j.core.decode.ValueCopier;

/**
 * A feature with exactly {@code shape}'s element count of values per record, decoded into one row
 * of a dense tensor: {@code tf.io.FixedLenFeature}.
 *
 * <ul>
 *   <li>FLOAT32 and FLOAT64 rows read a {@code float_list} (FLOAT64 widens exactly);</li>
 *   <li>INT64, INT32, INT8 and UINT8 rows read an {@code int64_list}; INT32, INT8 and UINT8 keep
 *       each value's low bits (two's complement wrap-around), as {@code tf.cast} and C++'s
 *       {@code static_cast} do;</li>
 *   <li>UINT8 and INT8 rows also read a {@code bytes_list} holding exactly one value, whose
 *       byte length must be the element count (a fixed-size raw image, say).</li>
 * </ul>
 *
 * <p>Any other list is an error ("data types don't match"), and so is a value count other than
 * the element count ("Key: X. Can't parse serialized Example: feature X has N values, its rows
 * hold M"). A record without the feature, or whose {@code Feature} sets no list, gets the
 * {@linkplain #withDefault(double...) default} or, without one, is an error naming the feature.
 * Errors also name the file and the record.
 *
 * <p>Immutable.
 */
public final class FixedLenFeature implements ExampleFeature {
    private final String name;
    private final Shape shape;
    private final DataType dataType;
    private final int rowElements;
    /** The default row, little-endian in {@code dataType}, or null. */
    private final byte[] defaultRow;

    private FixedLenFeature(String name, Shape shape, DataType dataType, byte[] defaultRow) {
        this.name = FeatureSpecs.name(name);
        this.rowElements = FeatureSpecs.elements(name, shape);
        this.shape = shape;
        this.dataType = FeatureSpecs.dataType(dataType);
        this.defaultRow = defaultRow;
    }

    /**
     * Feature {@code name}, each row {@code shape} elements of {@code dataType}, required in
     * every record.
     *
     * @throws IllegalArgumentException if the name is empty or {@code shape} holds no element
     *                                  or more than 2^31 - 1
     */
    public static FixedLenFeature of(String name, Shape shape, DataType dataType) {
        return new FixedLenFeature(name, shape, dataType, null);
    }

    /**
     * This feature, filling the row of a record without it with {@code values}: one value for
     * every element, or exactly one value per element, cast to the row's type as a value of
     * the record would be (an integer type saturates, and NaN becomes 0).
     *
     * @throws IllegalArgumentException if {@code values} holds neither 1 nor {@code shape}'s
     *                                  element count values
     */
    public FixedLenFeature withDefault(double... values) {
        MemorySegment row = defaultRow(values.length);
        for (int i = 0; i < rowElements; i++) {
            ValueCopier.putDouble(row, dataType, i, values[values.length == 1 ? 0 : i]);
        }
        return new FixedLenFeature(name, shape, dataType, row.toArray(ValueLayout.JAVA_BYTE));
    }

    /**
     * This feature, filling the row of a record without it with {@code values}, as
     * {@link #withDefault(double...)} does; integers keep their 64 bits into INT64 (and their low
     * bits into narrower types), so every {@code long} default is exact.
     *
     * @throws IllegalArgumentException if {@code values} holds neither 1 nor {@code shape}'s
     *                                  element count values
     */
    public FixedLenFeature withDefault(long... values) {
        MemorySegment row = defaultRow(values.length);
        for (int i = 0; i < rowElements; i++) {
            ValueCopier.putLong(row, dataType, i, values[values.length == 1 ? 0 : i]);
        }
        return new FixedLenFeature(name, shape, dataType, row.toArray(ValueLayout.JAVA_BYTE));
    }

    private MemorySegment defaultRow(int values) {
        if (values != 1 && values != rowElements) {
            throw new IllegalArgumentException("a default holds 1 value or one per element: " + name
                    + " values=" + values + " elements=" + rowElements);
        }
        return MemorySegment.ofArray(new byte[Math.multiplyExact(rowElements, dataType.byteSize())]);
    }

    /** The feature's key, and the output's name. */
    @Override
    public String name() {
        return name;
    }

    /** The shape of one row. */
    public Shape shape() {
        return shape;
    }

    /** The output's element type. */
    public DataType dataType() {
        return dataType;
    }

    /** The number of values each record must hold: {@code shape}'s element count. */
    public int rowElements() {
        return rowElements;
    }

    /** The row of records without the feature, as the output holds it (little-endian), if set. */
    public Optional<MemorySegment> defaultRow() {
        return Optional.ofNullable(defaultRow).map(b -> MemorySegment.ofArray(b.clone()).asReadOnly());
    }

    /** A dense output of {@code shape} per row. */
    @Override
    public TensorSpec spec(int batchCapacity) {
        Checks.positive("batchCapacity", batchCapacity);
        return TensorSpec.dense(name, dataType, shape.prepend(batchCapacity));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FixedLenFeature f && name.equals(f.name) && shape.equals(f.shape)
                && dataType == f.dataType && Arrays.equals(defaultRow, f.defaultRow);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, shape, dataType, Arrays.hashCode(defaultRow));
    }

    /** E.g. {@code FixedLenFeature[image, FLOAT32(28, 28)]}, with {@code , default} if it has one. */
    @Override
    public String toString() {
        return "FixedLenFeature[" + name + ", " + dataType + shape + (defaultRow == null ? "" : ", default") + "]";
    }
}
