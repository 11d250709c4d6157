package org.dataloader4j.ofrecord;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.dataloader4j.core.files.FrameErrors;
import org.dataloader4j.core.files.FrameReader;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RecordReader;

/**
 * OFRecord's frame rule, shared by {@link OFRecordDataset} and the index scan of
 * {@link OFRecordFiles}: an 8-byte little-endian length, then the payload. A length field cut
 * short, a zero or negative length, or one running past the end of the file is damage, worded
 * by {@link CorruptRecordException}'s factories as the stream reader words it.
 */
final class OFRecordFrames implements FrameReader {
    static final OFRecordFrames INSTANCE = new OFRecordFrames();
    private static final Framing FRAMING = Framing.OFRECORD;
    private static final int HEADER = FRAMING.headerBytes();
    private static final ValueLayout.OfLong LENGTH = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private OFRecordFrames() {
    }

    @Override
    public int headerBytes() {
        return HEADER;
    }

    @Override
    public int footerBytes() {
        return FRAMING.footerBytes();
    }

    @Override
    public int ruleId() {
        return 1;
    }

    @Override
    public int payloadLength(MemorySegment file, long offset, String name, long record) {
        return check(file, offset, offset, file.byteSize(), name, record);
    }

    @Override
    public int payloadLength(MemorySegment frame, long offset, long fileSize, String name, long record) {
        return check(frame, 0, offset, fileSize, name, record);
    }

    /** The checks of the frame at {@code offset} of a file of {@code size} bytes, whose bytes from there are at {@code at} of {@code bytes}. */
    private static int check(MemorySegment bytes, long at, long offset, long size, String name, long record) {
        long remaining = size - offset;
        if (remaining < HEADER) {
            throw FrameErrors.unchecked(CorruptRecordException.truncatedHeader(FRAMING, name, record, offset, remaining));
        }
        long length = bytes.get(LENGTH, at);
        if (length <= 0) {
            throw FrameErrors.unchecked(CorruptRecordException.nonPositiveLength(name, record, offset, length));
        }
        if (!FRAMING.fits(length, remaining)) {
            throw FrameErrors.unchecked(CorruptRecordException.frameBeyondFile(FRAMING, name, record, offset, length, size));
        }
        if (length > RecordReader.MAX_PAYLOAD) {
            throw FrameErrors.unchecked(CorruptRecordException.recordTooLarge(FRAMING, name, record, offset, length,
                    RecordReader.MAX_PAYLOAD));
        }
        return (int) length;
    }
}
