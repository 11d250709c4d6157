package org.dataloader4j.api;

import java.io.Serial;
import java.util.Objects;

/**
 * Input that does not follow its format: names the file, the record (or line) and the byte
 * offset where the problem is, and the reason.
 */
public class CorruptDataException extends DataLoaderException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Record index or byte offset not known. */
    public static final long UNKNOWN = -1;

    private final String file;
    private final long record;
    private final long offset;
    private final String reason;

    /**
     * Bad input in {@code file} at record {@code record} (counted from 0), starting at byte
     * {@code offset}; either may be {@link #UNKNOWN}.
     */
    public CorruptDataException(String file, long record, long offset, String reason) {
        this(file, record, offset, reason, null);
    }

    /** As {@link #CorruptDataException(String, long, long, String)}, with a cause. */
    public CorruptDataException(String file, long record, long offset, String reason, Throwable cause) {
        this(message(file, record, offset, reason), file, record, offset, reason, cause);
    }

    private CorruptDataException(String message, String file, long record, long offset, String reason, Throwable cause) {
        super(message, cause);
        this.file = Objects.requireNonNull(file, "file");
        this.record = record;
        this.offset = offset;
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * Bad input described by a message worded as another system words it (TensorFlow's
     * {@code corrupted record at offset N in FILE (data CRC mismatch)}, say), so users can
     * search for it; the message must name the file and the offset.
     */
    public static CorruptDataException worded(String message, String file, long record, long offset, String reason) {
        return worded(message, file, record, offset, reason, null);
    }

    /** As {@link #worded(String, String, long, long, String)}, with a cause. */
    public static CorruptDataException worded(String message, String file, long record, long offset, String reason,
            Throwable cause) {
        return new CorruptDataException(message, file, record, offset, reason, cause);
    }

    /**
     * A line of a text format that does not parse, at byte {@code offset}; {@code line} counts
     * from 1 as editors do (the record index is {@code line - 1}).
     */
    public static CorruptDataException badLine(String file, long line, long offset, String reason) {
        return new CorruptDataException(reason + " at line " + line + ", offset " + offset + " in " + file,
                file, line - 1, offset, reason, null);
    }

    private static String message(String file, long record, long offset, String reason) {
        StringBuilder sb = new StringBuilder(reason);
        if (record != UNKNOWN) {
            sb.append(" at record ").append(record);
        }
        if (offset != UNKNOWN) {
            sb.append(record != UNKNOWN ? ", offset " : " at offset ").append(offset);
        }
        return sb.append(" in ").append(file).toString();
    }

    /** The file with the bad input. */
    public String file() {
        return file;
    }

    /** The record index, counted from 0, or {@link #UNKNOWN}. */
    public long record() {
        return record;
    }

    /** The byte offset of the record in the file, or {@link #UNKNOWN}. */
    public long offset() {
        return offset;
    }

    /** What is wrong, without the location. */
    public String reason() {
        return reason;
    }
}
