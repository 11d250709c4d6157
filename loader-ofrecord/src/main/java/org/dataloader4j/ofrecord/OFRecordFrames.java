package org.dataloader4j.ofrecord;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.files.FrameReader;

/**
 * OFRecord's frame rule, shared by {@link OFRecordDataset} and the index scan of
 * {@link OFRecordFiles}: an 8-byte little-endian length, then the payload. A length field cut
 * short, a zero or negative length, or one running past the end of the file is damage.
 */
final class OFRecordFrames implements FrameReader {
    static final OFRecordFrames INSTANCE = new OFRecordFrames();
    private static final ValueLayout.OfLong LENGTH = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private OFRecordFrames() {
    }

    @Override
    public int headerBytes() {
        return 8;
    }

    @Override
    public int footerBytes() {
        return 0;
    }

    @Override
    public int ruleId() {
        return 1;
    }

    @Override
    public long payloadLength(MemorySegment file, long offset, String name, long record) {
        long size = file.byteSize();
        long remaining = size - offset;
        if (remaining < 8) {
            throw new CorruptDataException(name, record, offset, "truncated length: " + remaining + " of 8 bytes");
        }
        long length = file.get(LENGTH, offset);
        if (length <= 0) {
            throw new CorruptDataException(name, record, offset,
                    "length " + length + (length == 0 ? " (an OFRecord frame is never empty)" : " is negative"));
        }
        if (length > remaining - 8) {
            throw new CorruptDataException(name, record, offset, "length " + length + " exceeds file size " + size);
        }
        return length;
    }
}
