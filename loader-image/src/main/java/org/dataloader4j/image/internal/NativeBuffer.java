package org.dataloader4j.image.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Off-heap scratch memory that grows on demand and is kept from call to call: the owner of one
 * arena at a time, replaced (and the old one closed) when a larger size is asked for. Single-threaded
 * by contract, like the decoding context that owns it.
 */
public final class NativeBuffer implements AutoCloseable {
    private final String name;
    private Arena arena;
    private MemorySegment segment = MemorySegment.NULL;
    private boolean closed;

    /** An empty buffer; {@code name} says what it holds, in error messages. */
    public NativeBuffer(String name) {
        this.name = name;
    }

    /**
     * At least {@code bytes} bytes of this buffer, valid until the next call or {@link #close()}.
     * Growing doubles the capacity (or more, as asked), so a run of larger images reallocates
     * only a few times.
     *
     * @throws IllegalStateException if the buffer is closed
     */
    public MemorySegment ensure(long bytes) {
        if (closed) {
            throw new IllegalStateException(name + " is closed");
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0: bytes=" + bytes);
        }
        if (bytes > segment.byteSize()) {
            long capacity = Math.max(bytes, Math.min(Long.MAX_VALUE / 2, segment.byteSize()) * 2);
            Arena grown = Arena.ofShared();
            try {
                segment = grown.allocate(capacity, 64);
            } catch (RuntimeException | OutOfMemoryError e) {
                grown.close();
                throw e;
            }
            if (arena != null) {
                arena.close();
            }
            arena = grown;
        }
        return segment.asSlice(0, bytes);
    }

    /** Frees the memory. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            segment = MemorySegment.NULL;
            if (arena != null) {
                arena.close();
                arena = null;
            }
        }
    }
}
