package org.dataloader4j.ofrecord.internal;

import org.dataloader4j.api.DataType;
import org.dataloader4j.core.decode.OutputColumn;

/**
 * One decoder ({@code OFRecordRawDecoder} or {@code OFRecordBytesDecoder}), flattened for the hot
 * loop by {@code OFRecordParser}: the output type and row size, and what to do with records that
 * do not fit.
 *
 * @param name         the feature's key and the output's name
 * @param dataType     the output's element type
 * @param rowElements  a dense row's element count, or the most values of a ragged row
 * @param ragged       whether the output is a {@code RaggedTensor}
 * @param truncate     whether longer lists are cut (and, if dense, shorter ones zero-padded)
 * @param hasDefault   whether a record without the feature is allowed
 * @param defaultValue the value of a dense row of such a record
 * @param bytesOnly    whether only a {@code bytes_list} is accepted ({@code OFRecordBytesDecoder})
 */
public record Column(String name, DataType dataType, int rowElements, boolean ragged, boolean truncate,
                     boolean hasDefault, double defaultValue, boolean bytesOnly)
        implements OutputColumn {

    /** Whether {@code bytes} of a byte-string kind may be read into this column's type. */
    boolean acceptsBytes() {
        return dataType == DataType.UINT8 || dataType == DataType.INT8;
    }
}
