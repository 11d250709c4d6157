package org.dataloader4j.core.decode;

import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.wire.WireFormatException;

/**
 * The errors of feature parsers, worded alike: a {@link CorruptDataException} naming the file,
 * the record and its offset, from a {@link RecordSlice}.
 */
public final class RecordErrors {
    private RecordErrors() {
    }

    /** A record that does not fit the parser's features, for {@code reason}. */
    public static CorruptDataException corrupt(RecordSlice record, String reason) {
        return new CorruptDataException(record.file(), record.index(), record.offset(), reason);
    }

    /**
     * A record that is not valid wire format: {@code "<reason> at byte <n> of the record"},
     * followed by {@code " (<where>)"} if {@code where} (e.g. {@code "feature images"}) is not null.
     */
    public static CorruptDataException corrupt(RecordSlice record, WireFormatException e, String where) {
        // The reader's positions count from the start of the record's source, not of the record.
        String reason = e.reason() + " at byte " + (e.position() - record.start()) + " of the record"
                + (where == null ? "" : " (" + where + ")");
        return new CorruptDataException(record.file(), record.index(), record.offset(), reason, e);
    }
}
