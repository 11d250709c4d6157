package org.dataloader4j.core.files;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;
import org.dataloader4j.core.dataset.RecordSlice;

/**
 * Heap memory for the payloads of records read from a stream (a compressed file has no mapping
 * to slice): payloads are packed into chunks of {@value #CHUNK_BYTES} bytes, and a chunk is
 * used again once every record placed in it has come back through {@link #recycle}. A dataset
 * that takes its samples back ({@link org.dataloader4j.core.dataset.SampleRecycler}) so reads a
 * compressed file without allocating its payloads on the heap, once its first batches are back.
 *
 * <p>A record is placed in two steps, around the read that fills it:
 * <pre>{@code
 * byte[] into = chunks.room(length);
 * in.readPayload(into, chunks.at());
 * RecordSlice slice = chunks.take(length, file, index, offset);
 * }</pre>
 *
 * <p>Chunks are tracked for reuse only once records come back: until the first call of
 * {@code recycle}, and always for a stack that never recycles, each chunk is left to the garbage
 * collector when its records are. A tracked chunk still out {@value #TRACKED} chunks later is
 * forgotten the same way, as a record that a decorator dropped never comes back. So at most
 * {@value #TRACKED} chunks are kept for records that may not return, and every record stays
 * valid for as long as anything holds it until it is recycled. Recycling a record of a forgotten
 * chunk, or one placed elsewhere, does nothing.
 *
 * <p>Single-threaded: the thread that reads the stream places and recycles.
 */
public final class RecordChunks {
    /** The bytes of one chunk. */
    public static final int CHUNK_BYTES = 256 << 10;
    /** The longest payload placed in a chunk; a longer one belongs in an array of its own. */
    public static final int LARGEST = CHUNK_BYTES / 4;
    /**
     * How many chunks later a chunk still out is forgotten: 64 MiB. Behind a shuffle buffer of
     * 1,024 records of 3 KB and a ring of 8 batches of 256, about 100 chunks are out at a time.
     */
    public static final int TRACKED = 256;

    /** The tracked chunks with records out, found by the segment their records' slices hold. */
    private final IdentityHashMap<MemorySegment, Chunk> out = new IdentityHashMap<>();
    private final ArrayDeque<Chunk> free = new ArrayDeque<>();
    private Chunk current;
    /** Whether records come back: chunks are tracked from the first {@code recycle} on. */
    private boolean recycling;
    private long opened;
    private long allocated;

    /** No chunk yet: the first is allocated with the first payload. */
    public RecordChunks() {
    }

    private static final class Chunk {
        final MemorySegment segment;
        final byte[] bytes;
        /** The first free byte. */
        int used;
        /** Records placed here and not yet recycled. */
        int live;
        /** When the chunk was last opened, counted in chunks opened. */
        long age;

        Chunk() {
            this.bytes = new byte[CHUNK_BYTES];
            this.segment = MemorySegment.ofArray(bytes);
        }
    }

    /**
     * The array to read a payload of {@code length} bytes into, from index {@link #at()}.
     *
     * @throws IllegalArgumentException if {@code length} is negative or over {@link #LARGEST}
     */
    public byte[] room(int length) {
        if (length < 0 || length > LARGEST) {
            throw new IllegalArgumentException("a chunk holds payloads of 0 to " + LARGEST + " bytes, not " + length);
        }
        if (current == null || current.used + length > CHUNK_BYTES) {
            open();
        }
        return current.bytes;
    }

    /** Where the payload read into {@link #room}'s array starts. */
    public int at() {
        return current.used;
    }

    /**
     * The record whose payload was just read into {@link #room}'s array, {@code length} bytes from
     * {@link #at()}; the next payload goes after it.
     *
     * @throws IllegalStateException if no room was asked for {@code length} bytes
     */
    public RecordSlice take(int length, String file, long index, long offset) {
        if (current == null || current.used + length > CHUNK_BYTES) {
            throw new IllegalStateException("no room asked for a payload of " + length + " bytes");
        }
        RecordSlice slice = new RecordSlice(current.segment, current.used, length, file, index, offset);
        current.used += length;
        current.live++;
        return slice;
    }

    /**
     * Takes back {@code samples}, whose memory nothing reads any more: a chunk all of whose records
     * have come back is used again. Samples not placed here, or in a forgotten chunk, are passed over.
     *
     * @throws IllegalStateException if a chunk gets back more records than were placed in it, which
     *                               means a record came back twice
     */
    public void recycle(List<?> samples) {
        recycling = true;
        if (out.isEmpty()) {
            // Nothing tracked (a mapped file's records, or chunks not tracked yet): nothing to find.
            return;
        }
        for (int i = 0; i < samples.size(); i++) {
            if (samples.get(i) instanceof RecordSlice slice) {
                Chunk chunk = out.get(slice.source());
                if (chunk != null) {
                    back(chunk);
                }
            }
        }
    }

    private void back(Chunk chunk) {
        if (chunk.live == 0) {
            throw new IllegalStateException("a record came back twice: its chunk has no records out");
        }
        chunk.live--;
        if (chunk.live == 0 && chunk != current) {
            out.remove(chunk.segment);
            free.push(chunk);
        }
    }

    private void open() {
        Chunk done = current;
        if (done != null && done.live == 0 && out.remove(done.segment) != null) {
            free.push(done);
        }
        current = free.isEmpty() ? allocate() : free.pop();
        current.used = 0;
        current.live = 0;
        current.age = opened++;
        if (recycling) {
            forgetOlderThan(current.age - TRACKED);
            out.put(current.segment, current);
        }
    }

    private Chunk allocate() {
        allocated++;
        return new Chunk();
    }

    /** Stops tracking the chunks opened before {@code age} that still have records out: they may never come back. */
    private void forgetOlderThan(long age) {
        out.values().removeIf(c -> c.age < age);
    }

    /** The chunks allocated so far: a stream whose records are all recycled stops adding to it. */
    public long chunksAllocated() {
        return allocated;
    }

    /** Forgets every chunk: their records stay valid for as long as anything holds them. */
    public void clear() {
        out.clear();
        free.clear();
        current = null;
    }
}
