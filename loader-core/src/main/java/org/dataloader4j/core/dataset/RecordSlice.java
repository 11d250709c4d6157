package org.dataloader4j.core.dataset;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.dataloader4j.api.ByteSized;

/**
 * One record of a record file, not yet parsed: where its payload lies and where it came from,
 * so that a parser can name the record in errors.
 *
 * <p>The payload is bytes {@code [start, start + length)} of {@code source}, which for a
 * memory-mapped file is the file's whole mapping (never a copy). Keeping the mapping and two
 * numbers rather than a slice of it saves a segment object per record; a parser reads the
 * bytes in place, with positions counted from the start of {@code source}, and
 * {@link #payload()} makes a slice for callers that want one. The payload stays valid until
 * the dataset that produced it is closed.
 *
 * @param source the segment holding the payload
 * @param start  the payload's first byte in {@code source}
 * @param length the payload's length in bytes (an {@code int}, as a protobuf message's is,
 *               which keeps a slice at 48 heap bytes)
 * @param file   the file, as shown in errors
 * @param index  the record's index in its file, counted from 0
 * @param offset the byte offset of the record's frame in the file
 */
public record RecordSlice(MemorySegment source, long start, int length, String file, long index, long offset)
        implements ByteSized {

    /**
     * Checks for nulls and that the payload lies inside {@code source}.
     *
     * @throws IndexOutOfBoundsException if it does not
     */
    public RecordSlice {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(file, "file");
        Objects.checkFromIndexSize(start, length, source.byteSize());
    }

    /**
     * A record whose payload is the whole of {@code payload}.
     *
     * @throws IllegalArgumentException if the payload is over {@link Integer#MAX_VALUE} bytes
     */
    public RecordSlice(MemorySegment payload, String file, long index, long offset) {
        this(payload, 0, intLength(payload), file, index, offset);
    }

    private static int intLength(MemorySegment payload) {
        if (payload.byteSize() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a record's payload holds at most " + Integer.MAX_VALUE + " bytes: "
                    + payload.byteSize());
        }
        return (int) payload.byteSize();
    }

    /** The payload as a segment of its own (a new slice of {@code source}, unless it is all of it). */
    public MemorySegment payload() {
        return start == 0 && length == source.byteSize() ? source : source.asSlice(start, length);
    }

    /** The first byte after the payload in {@code source}. */
    public long end() {
        return start + length;
    }

    /** The payload's bytes. */
    @Override
    public long byteSize() {
        return length;
    }
}
