package org.dataloader4j.ofrecord;

import java.util.Objects;
import java.util.OptionalDouble;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.Checks;

/**
 * Decodes one numeric or bytes feature per record into a row of a tensor, with the semantics of
 * OneFlow's {@code OFRecordRawDecoder}, minus its crashes.
 *
 * <ul>
 *   <li>Each row holds {@code shape} elements of {@code dataType}; values are cast from the
 *       list type stored in the record (float, double, int32, int64) as a C++
 *       {@code static_cast} would, except that floating values out of an integer type's range
 *       saturate and NaN becomes 0.</li>
 *   <li>A {@code bytes_list} feature must hold exactly one value, read as bytes into a UINT8 or
 *       INT8 output.</li>
 *   <li>Without {@code truncate} and {@code dim1VaryingLength}, a feature whose value count is
 *       not the row's element count is an error naming the feature and the record. With
 *       {@code truncate}, longer lists are cut and shorter ones zero-padded.</li>
 *   <li>With {@code dim1VaryingLength}, the output is a {@code RaggedTensor}: each row holds as
 *       many values as its record has, up to {@code shape}'s element count; a longer row is an
 *       error (or is cut, with {@code truncate}), never an overflow into the next row.</li>
 *   <li>Unfilled elements are always zero, never left over from an earlier batch.</li>
 *   <li>A record without the feature is an error naming the feature and the record, unless a
 *       {@code defaultValue} was declared: then a dense row is filled with it and a ragged row
 *       is empty.</li>
 * </ul>
 *
 * @param name              the feature's key, and the output's name
 * @param shape             the shape of one row (one record); for a ragged output, its element
 *                          count is the most values one row may hold
 * @param dataType          the output's element type
 * @param dim1VaryingLength whether rows vary in length (a {@code RaggedTensor})
 * @param truncate          whether to cut longer lists and zero-pad shorter ones
 * @param defaultValue      the value for records without the feature, if any
 */
public record OFRecordRawDecoder(String name, Shape shape, DataType dataType, boolean dim1VaryingLength,
                                 boolean truncate, OptionalDouble defaultValue) implements OFRecordDecoder {

    /** Checks the arguments. */
    public OFRecordRawDecoder {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(dataType, "dataType");
        Objects.requireNonNull(defaultValue, "defaultValue");
        if (shape.elementCount() < 1 || shape.elementCount() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("shape must hold 1 to 2^31 - 1 elements: " + name + " shape=" + shape);
        }
    }

    /** A decoder of feature {@code name} into rows of {@code shape} elements of {@code dataType}. */
    public static OFRecordRawDecoder of(String name, Shape shape, DataType dataType) {
        return new OFRecordRawDecoder(name, shape, dataType, false, false, OptionalDouble.empty());
    }

    /** This decoder, with rows that vary in length up to {@code shape}'s element count. */
    public OFRecordRawDecoder withDim1VaryingLength() {
        return new OFRecordRawDecoder(name, shape, dataType, true, truncate, defaultValue);
    }

    /** This decoder, cutting longer lists and zero-padding shorter ones. */
    public OFRecordRawDecoder withTruncate() {
        return new OFRecordRawDecoder(name, shape, dataType, dim1VaryingLength, true, defaultValue);
    }

    /** This decoder, filling rows of records without the feature with {@code value}. */
    public OFRecordRawDecoder withDefault(double value) {
        return new OFRecordRawDecoder(name, shape, dataType, dim1VaryingLength, truncate, OptionalDouble.of(value));
    }

    /** The number of elements in one row: the most values one record may contribute. */
    public int rowElements() {
        return (int) shape.elementCount();
    }

    @Override
    public TensorSpec spec(int batchCapacity) {
        Checks.positive("batchCapacity", batchCapacity);
        if (dim1VaryingLength) {
            return TensorSpec.ragged(name, dataType, batchCapacity, (long) batchCapacity * rowElements());
        }
        return TensorSpec.dense(name, dataType, shape.prepend(batchCapacity));
    }
}
