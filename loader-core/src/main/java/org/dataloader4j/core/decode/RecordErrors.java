package org.dataloader4j.core.decode;

import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.wire.WireFormatException;

/**
 * The errors of feature parsers, worded alike: a {@link CorruptDataException} naming the file,
 * the record and its offset, from a {@link RecordView}.
 */
public final class RecordErrors {
    private RecordErrors() {
    }

    /** A record that does not fit the parser's features, for {@code reason}. */
    public static CorruptDataException corrupt(RecordView record, String reason) {
        return new CorruptDataException(record.file(), record.index(), record.offset(), reason);
    }

    /**
     * A record that is not valid wire format: {@code "<reason> at byte <n> of the record"},
     * followed by {@code " (<where>)"} if {@code where} (e.g. {@code "feature images"}) is not null.
     */
    public static CorruptDataException corrupt(RecordView record, WireFormatException e, String where) {
        // The reader's positions count from the start of the record's source, not of the record.
        String reason = e.reason() + " at byte " + (e.position() - record.start()) + " of the record"
                + (where == null ? "" : " (" + where + ")");
        return new CorruptDataException(record.file(), record.index(), record.offset(), reason, e);
    }

    /**
     * The error for {@code fault}, met decoding {@code record}: where it is the JVM's report of a
     * fault reading mapped memory, the record's file changed (was cut short) after it was mapped,
     * and the record is named; any other internal error is rethrown as it is.
     */
    public static CorruptDataException fault(RecordView record, InternalError fault) {
        String message = fault.getMessage();
        if (message == null || !message.contains("fault occurred")) {
            throw fault;
        }
        return new CorruptDataException(record.file(), record.index(), record.offset(),
                "the file changed while being read: its memory could not be read (it was cut short after it was mapped)", fault);
    }
}
