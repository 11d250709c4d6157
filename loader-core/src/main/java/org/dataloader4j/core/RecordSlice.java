package org.dataloader4j.core;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.dataloader4j.api.ByteSized;

/**
 * One record of a record file, not yet parsed: its payload as a slice of the file's mapping
 * (never a copy), and where it came from, so that a parser can name the record in errors.
 *
 * <p>The payload stays valid until the dataset that produced it is closed.
 *
 * @param payload the record's payload bytes
 * @param file    the file, as shown in errors
 * @param index   the record's index in its file, counted from 0
 * @param offset  the byte offset of the record's frame in the file
 */
public record RecordSlice(MemorySegment payload, String file, long index, long offset) implements ByteSized {

    /** Checks for nulls. */
    public RecordSlice {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(file, "file");
    }

    /** The payload's bytes. */
    @Override
    public long byteSize() {
        return payload.byteSize();
    }
}
