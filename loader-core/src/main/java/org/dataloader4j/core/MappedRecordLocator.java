package org.dataloader4j.core;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.SampleLocator;

/**
 * Locates the records of memory-mapped record files by {@link RecordLocations} and reads a
 * record at a location again: its frame is checked by the format's {@link FrameReader} and its
 * payload is a slice of the mapping, as when it was first read. The readers of mapped files read
 * every record through {@link #at}.
 */
public final class MappedRecordLocator implements SampleLocator<RecordSlice> {
    private final List<Path> files;
    private final RecordLocations locations;
    private final MappedFiles mappings;
    private final FrameReader frames;

    /** Records of {@code files}, mapped by {@code mappings} (over the same files), framed by {@code frames}. */
    public MappedRecordLocator(List<Path> files, MappedFiles mappings, FrameReader frames) {
        this.files = List.copyOf(files);
        this.locations = new RecordLocations(this.files);
        this.mappings = mappings;
        this.frames = frames;
    }

    /**
     * Record {@code record} of file {@code file}, whose frame starts at byte {@code offset}.
     *
     * @throws IllegalArgumentException if {@code offset} is not inside the file
     * @throws org.dataloader4j.api.CorruptDataException naming file, record and offset if the frame is damaged
     */
    public RecordSlice at(int file, long record, long offset) {
        MemorySegment mapping = mappings.get(file);
        String name = files.get(file).toString();
        if (offset < 0 || offset >= mapping.byteSize()) {
            throw new IllegalArgumentException("no record at offset " + offset + " of " + name + " (" + mapping.byteSize()
                    + " bytes)");
        }
        try {
            int length = frames.checkedPayloadLength(mapping, offset, name, record);
            return new RecordSlice(mapping, offset + frames.headerBytes(), length, name, record, offset);
        } catch (InternalError e) {
            throw MappedFiles.shrunk(files.get(file), mapping.byteSize(), record, offset, e);
        }
    }

    /**
     * The record at {@code cursor} (inside its file), moving the cursor past it. If the frame is
     * damaged, the cursor moves to where the format's {@link FrameReader#afterDamage} says the
     * next intact frame may start (at most the file's end) before the error is thrown, so a
     * reader that skips corrupt records goes on from there.
     *
     * @throws CorruptDataException naming file, record and offset if the frame is damaged
     */
    public RecordSlice next(FileCursor cursor) {
        int file = cursor.fileIndex();
        long offset = cursor.offset();
        RecordSlice slice;
        try {
            slice = at(file, cursor.record(), offset);
        } catch (CorruptDataException e) {
            MemorySegment mapping = mappings.get(file);
            long next = mapping.byteSize();
            try {
                next = Math.min(next, Math.max(offset + 1, frames.afterDamage(mapping, offset)));
            } catch (InternalError fault) {
                e.addSuppressed(MappedFiles.shrunk(files.get(file), mapping.byteSize(), cursor.record(), offset, fault));
            }
            cursor.advance(next - offset);
            throw e;
        }
        cursor.advance(frameBytes(slice));
        return slice;
    }

    /** The locations this locator writes and reads. */
    public RecordLocations locations() {
        return locations;
    }

    /** The bytes a record with {@code payload} takes in its file, frame included. */
    public long frameBytes(RecordSlice slice) {
        return frames.headerBytes() + slice.length() + frames.footerBytes();
    }

    @Override
    public int width() {
        return RecordLocations.WIDTH;
    }

    @Override
    public void locate(RecordSlice sample, long[] to, int at) {
        locations.write(sample.file(), sample.index(), sample.offset(), to, at);
    }

    @Override
    public List<RecordSlice> fetch(long[] locations) {
        int n = locations.length / RecordLocations.WIDTH;
        List<RecordSlice> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(at(this.locations.file(locations, i), RecordLocations.record(locations, i), RecordLocations.offset(locations, i)));
        }
        return out;
    }
}
