package org.dataloader4j.core.dataset;

import java.lang.foreign.MemorySegment;

/**
 * One record as a decoder sees it: the fields of a {@link RecordSlice}, set again for every row
 * it decodes, so that a thread decodes a whole batch with one view and no object per record.
 * Mutable and confined to one thread; see {@link RecordRows#load}.
 */
public final class RecordView {
    private MemorySegment source;
    private long start;
    private int length;
    private String file;
    private long index;
    private long offset;
    /** The sum of bytes read only to touch them (see {@link #keepRead}); never read. */
    @SuppressWarnings("unused")
    private long reads;

    /** An empty view; {@link #set} or {@link RecordRows#load} points it at a record. */
    public RecordView() {
    }

    /** Points this view at the record {@code [start, start + length)} of {@code source}, named by file, index and offset. */
    public RecordView set(MemorySegment source, long start, int length, String file, long index, long offset) {
        this.source = source;
        this.start = start;
        this.length = length;
        this.file = file;
        this.index = index;
        this.offset = offset;
        return this;
    }

    /**
     * Keeps {@code value}, a byte read from the record's memory only to touch it (a frame's last
     * byte, read so that a fault there names the record): the view's thread gives the read a use,
     * so the compiler keeps it, in a field no other thread writes.
     */
    public void keepRead(long value) {
        reads += value;
    }

    /** Points this view at {@code slice}. */
    public RecordView set(RecordSlice slice) {
        return set(slice.source(), slice.start(), slice.length(), slice.file(), slice.index(), slice.offset());
    }

    /** The segment holding the payload; positions count from its start. */
    public MemorySegment source() {
        return source;
    }

    /** The payload's first byte in {@link #source()}. */
    public long start() {
        return start;
    }

    /** The payload's length in bytes. */
    public int length() {
        return length;
    }

    /** The first byte after the payload in {@link #source()}. */
    public long end() {
        return start + length;
    }

    /** The file, as shown in errors. */
    public String file() {
        return file;
    }

    /** The record's index in its file, counted from 0. */
    public long index() {
        return index;
    }

    /** The byte offset of the record's frame in its file. */
    public long offset() {
        return offset;
    }
}
