package org.dataloader4j.image;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import javax.imageio.stream.ImageInputStreamImpl;

/**
 * An ImageIO stream that reads encoded bytes in place from a memory segment: the readers copy
 * only what they ask for into their own buffers, and no copy of the whole image is made. The
 * segment is borrowed, not owned: {@link #close()} leaves it as it is. Single-threaded.
 */
final class SegmentImageInputStream extends ImageInputStreamImpl {
    private final MemorySegment bytes;

    SegmentImageInputStream(MemorySegment bytes) {
        this.bytes = Objects.requireNonNull(bytes, "bytes");
    }

    @Override
    public int read() {
        bitOffset = 0;
        if (streamPos >= bytes.byteSize()) {
            return -1;
        }
        return Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, streamPos++));
    }

    @Override
    public int read(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        bitOffset = 0;
        if (len == 0) {
            return 0;
        }
        long left = bytes.byteSize() - streamPos;
        if (left <= 0) {
            return -1;
        }
        int n = (int) Math.min(len, left);
        MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, streamPos, b, off, n);
        streamPos += n;
        return n;
    }

    @Override
    public long length() {
        return bytes.byteSize();
    }
}
