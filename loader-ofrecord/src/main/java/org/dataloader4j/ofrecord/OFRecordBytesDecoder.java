package org.dataloader4j.ofrecord;

import java.util.Objects;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.Checks;

/**
 * Decodes a {@code bytes_list} feature holding exactly one value per record (an encoded image,
 * a string) into a row of a UINT8 {@code RaggedTensor}: OneFlow's {@code OFRecordBytesDecoder}.
 * A value longer than {@code maxBytes} is an error naming the feature and the record.
 *
 * @param name     the feature's key, and the output's name
 * @param maxBytes the most bytes one record's value may hold
 */
public record OFRecordBytesDecoder(String name, int maxBytes) implements OFRecordDecoder {

    /** Checks the arguments. */
    public OFRecordBytesDecoder {
        Objects.requireNonNull(name, "name");
        Checks.positive("maxBytes", maxBytes);
    }

    /** A decoder of feature {@code name}, whose values are at most {@code maxBytes} long. */
    public static OFRecordBytesDecoder of(String name, int maxBytes) {
        return new OFRecordBytesDecoder(name, maxBytes);
    }

    @Override
    public TensorSpec spec(int batchCapacity) {
        Checks.positive("batchCapacity", batchCapacity);
        return TensorSpec.ragged(name, DataType.UINT8, batchCapacity, (long) batchCapacity * maxBytes);
    }
}
