package org.dataloader4j.api;

import java.io.Serial;
import java.util.Objects;

/**
 * A file of the data could not be read from where it is kept (a remote store that stopped
 * answering, a connection that broke and stayed broken after the store's retries): names the
 * file, the record and the byte offset the read was for; the store's error is the cause. The
 * data itself may be sound: a reader resumed from its last state after the store is back loses
 * and repeats nothing.
 */
public class StorageException extends DataLoaderException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long record;
    private final long offset;

    /**
     * A failed read of {@code file} for record {@code record} at byte {@code offset} (either
     * {@link CorruptDataException#UNKNOWN}), caused by {@code cause}.
     */
    public StorageException(String file, long record, long offset, Throwable cause) {
        super(message(file, record, offset, cause), cause);
        this.file = Objects.requireNonNull(file, "file");
        this.record = record;
        this.offset = offset;
    }

    private static String message(String file, long record, long offset, Throwable cause) {
        StringBuilder sb = new StringBuilder("cannot read ").append(file);
        if (record != CorruptDataException.UNKNOWN) {
            sb.append(" at record ").append(record);
        }
        if (offset != CorruptDataException.UNKNOWN) {
            sb.append(record != CorruptDataException.UNKNOWN ? ", offset " : " at offset ").append(offset);
        }
        return sb.append(": ").append(cause == null ? "unknown error" : cause.getMessage()).toString();
    }

    /** The file that could not be read. */
    public String file() {
        return file;
    }

    /** The record the read was for, counted from 0, or {@link CorruptDataException#UNKNOWN}. */
    public long record() {
        return record;
    }

    /** The byte offset the read was for, or {@link CorruptDataException#UNKNOWN}. */
    public long offset() {
        return offset;
    }
}
