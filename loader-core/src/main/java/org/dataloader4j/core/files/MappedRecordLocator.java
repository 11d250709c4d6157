package org.dataloader4j.core.files;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.fast.RecordPrefetch;

/**
 * Locates the records of memory-mapped record files by {@link RecordLocations} and reads a
 * record at a location again: its frame is checked by the format's {@link FrameReader} and its
 * payload is a slice of the mapping, as when it was first read. The readers of mapped files read
 * every record through {@link #at}.
 */
public final class MappedRecordLocator implements SampleLocator<RecordSlice> {
    /**
     * The longest frame that {@link #next} reads whole as it frames it, one byte per cache line,
     * where the frame rule has not ({@link FrameReader#readsPayload()}).
     *
     * <p>Framing a file record by record is a chain of dependent reads: where a frame starts is
     * known only once the frame before it is read. Where frames are short, each read of a
     * length misses the cache and the chain waits a memory latency per record. Reading the
     * frame's lines, which do not depend on one another, keeps several misses in flight and lets
     * the hardware prefetcher stream the file ahead, so that the next length is in the cache, and
     * the parse thread then finds the record there too. Streaming 1 KiB costs a core about as
     * long as one miss waits; a longer frame would cost the load thread more than the miss it
     * hides, and its parse thread reads it ahead itself ({@link RecordPrefetch}). Of a longer
     * frame only the last byte is read, which lies beside the next length.
     *
     * <p>Either way the frame's last byte is read while it is framed, so a file cut short after
     * it was mapped fails at the frame the cut falls in, named with its record and offset,
     * rather than at the next frame or in a parse thread.
     */
    public static final int READ_AHEAD_FRAME_BYTES = 1024;

    private final List<Path> files;
    private final RecordLocations locations;
    private final MappedFiles mappings;
    private final FrameReader frames;
    /** Whether the frame rule leaves the payload unread, so that {@link #next} reads short frames ahead. */
    private final boolean payloadUnread;
    /** Written, never read: gives the reads ahead a use, so the compiler keeps them. */
    @SuppressWarnings("unused")
    private long readAheadSum;

    /** Records of {@code files}, mapped by {@code mappings} (over the same files), framed by {@code frames}. */
    public MappedRecordLocator(List<Path> files, MappedFiles mappings, FrameReader frames) {
        this.files = List.copyOf(files);
        this.locations = new RecordLocations(this.files);
        this.mappings = mappings;
        this.frames = frames;
        this.payloadUnread = !frames.readsPayload();
    }

    /**
     * Record {@code record} of file {@code file}, whose frame starts at byte {@code offset}.
     *
     * @throws IllegalArgumentException if {@code offset} is not inside the file
     * @throws org.dataloader4j.api.CorruptDataException naming file, record and offset if the frame is damaged
     */
    public RecordSlice at(int file, long record, long offset) {
        return at(file, record, offset, false);
    }

    /** {@link #at(int, long, long)}, reading the frame ahead (as {@link #next} says) if {@code readAhead}. */
    private RecordSlice at(int file, long record, long offset, boolean readAhead) {
        MemorySegment mapping = mappings.get(file);
        String name = files.get(file).toString();
        if (offset < 0 || offset >= mapping.byteSize()) {
            throw new IllegalArgumentException("no record at offset " + offset + " of " + name + " (" + mapping.byteSize()
                    + " bytes)");
        }
        try {
            int length = frames.payloadLength(mapping, offset, name, record);
            long frameEnd = offset + frames.headerBytes() + length + frames.footerBytes();
            if (readAhead && payloadUnread) {
                readAheadSum += frameEnd - offset <= READ_AHEAD_FRAME_BYTES ? RecordPrefetch.lines(mapping, offset, frameEnd)
                        : mapping.get(ValueLayout.JAVA_BYTE, frameEnd - 1);
            }
            return new RecordSlice(mapping, offset + frames.headerBytes(), length, name, record, offset);
        } catch (InternalError e) {
            throw MappedFiles.shrunk(files.get(file), mapping.byteSize(), record, offset, e);
        }
    }

    /**
     * The record at {@code cursor} (inside its file), moving the cursor past it; a frame of at
     * most {@link #READ_AHEAD_FRAME_BYTES} is read ahead whole, of a longer one the last byte.
     * If the frame is damaged, the cursor moves to where the format's
     * {@link FrameReader#afterDamage} says the next intact frame may start (at most the file's
     * end) before the error is thrown, so a reader that skips corrupt records goes on from there.
     * Not for concurrent use: a dataset calls it on the load thread.
     *
     * @throws CorruptDataException naming file, record and offset if the frame is damaged
     */
    public RecordSlice next(FileCursor cursor) {
        int file = cursor.fileIndex();
        long offset = cursor.offset();
        RecordSlice slice;
        try {
            slice = at(file, cursor.record(), offset, true);
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
