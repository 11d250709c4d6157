package org.dataloader4j.tfrecord;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;
import org.dataloader4j.core.files.FrameErrors;
import org.dataloader4j.core.files.FrameReader;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RecordReader;
import org.dataloader4j.format.TFRecordCrc;

/**
 * TFRecord's frame rule, shared by {@link TFRecordDataset} and the index scan of
 * {@link TFRecordFiles}: length, its masked CRC32C, payload, the payload's masked CRC32C. The
 * length CRC is checked before the length is trusted, the data CRC before the frame is accepted
 * (both unless turned off). Errors are {@link CorruptRecordException}'s, in TensorFlow's words
 * with the record, as the stream reader gives them.
 */
final class TFRecordFrames implements FrameReader {
    static final TFRecordFrames CHECKED = new TFRecordFrames(true);
    static final TFRecordFrames UNCHECKED = new TFRecordFrames(false);
    private static final Framing FRAMING = Framing.TFRECORD;
    private static final int HEADER = FRAMING.headerBytes();
    private static final int FOOTER = FRAMING.footerBytes();
    private static final ValueLayout.OfLong LENGTH = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt CRC = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final boolean verifyCrc;

    private TFRecordFrames(boolean verifyCrc) {
        this.verifyCrc = verifyCrc;
    }

    static TFRecordFrames of(boolean verifyCrc) {
        return verifyCrc ? CHECKED : UNCHECKED;
    }

    @Override
    public int headerBytes() {
        return HEADER;
    }

    @Override
    public int footerBytes() {
        return FOOTER;
    }

    @Override
    public int ruleId() {
        return verifyCrc ? 2 : 3;
    }

    @Override
    public boolean readsPayload() {
        return verifyCrc;
    }

    @Override
    public int payloadLength(MemorySegment file, long offset, String name, long record) {
        return check(file, offset, offset, file.byteSize(), name, record);
    }

    @Override
    public int payloadLength(MemorySegment frame, long offset, long fileSize, String name, long record) {
        return check(frame, 0, offset, fileSize, name, record);
    }

    /** Every check of the frame at {@code offset} of a file of {@code size} bytes, whose bytes from there are at {@code at} of {@code bytes}. */
    private int check(MemorySegment bytes, long at, long offset, long size, String name, long record) {
        int length = header(bytes, at, offset, size, name, record);
        if (!dataIntact(bytes, at, length)) {
            throw FrameErrors.unchecked(CorruptRecordException.dataCrcMismatch(name, record, offset));
        }
        return length;
    }

    @Override
    public int headerLength(MemorySegment file, long offset, String name, long record) {
        return header(file, offset, offset, file.byteSize(), name, record);
    }

    private int header(MemorySegment bytes, long at, long offset, long size, String name, long record) {
        long remaining = size - offset;
        if (remaining < HEADER) {
            throw FrameErrors.unchecked(CorruptRecordException.truncatedHeader(FRAMING, name, record, offset, remaining));
        }
        if (!lengthIntact(bytes, at)) {
            throw FrameErrors.unchecked(CorruptRecordException.lengthCrcMismatch(name, record, offset));
        }
        long length = bytes.get(LENGTH, at);
        if (!FRAMING.fits(length, remaining)) {
            throw FrameErrors.unchecked(CorruptRecordException.frameBeyondFile(FRAMING, name, record, offset, length, size));
        }
        if (length > RecordReader.MAX_PAYLOAD) {
            throw FrameErrors.unchecked(CorruptRecordException.recordTooLarge(FRAMING, name, record, offset, length,
                    RecordReader.MAX_PAYLOAD));
        }
        return (int) length;
    }

    /**
     * Past the damaged frame if its length checks out (only its data or its data's CRC is
     * damaged); otherwise, with CRCs checked, the first later offset where a whole frame checks
     * out (a false match needs two 32-bit CRCs to agree by chance); otherwise the end of the file.
     */
    @Override
    public long afterDamage(MemorySegment file, long offset) {
        long size = file.byteSize();
        if (size - offset >= HEADER && lengthIntact(file, offset) && fits(file, offset, file.get(LENGTH, offset))) {
            return offset + HEADER + file.get(LENGTH, offset) + FOOTER;
        }
        if (!verifyCrc) {
            return size;
        }
        for (long at = offset + 1; size - at >= HEADER + FOOTER; at++) {
            if (lengthIntact(file, at) && fits(file, at, file.get(LENGTH, at)) && dataIntact(file, at, file.get(LENGTH, at))) {
                return at;
            }
        }
        return size;
    }

    private boolean lengthIntact(MemorySegment file, long offset) {
        return !verifyCrc || CRCS.get().masked(file, offset, 8) == file.get(CRC, offset + 8);
    }

    private static boolean fits(MemorySegment file, long offset, long length) {
        return FRAMING.fits(length, file.byteSize() - offset);
    }

    private boolean dataIntact(MemorySegment file, long offset, long length) {
        return !verifyCrc || CRCS.get().masked(file, offset + HEADER, length) == file.get(CRC, offset + HEADER + length);
    }

    /**
     * A thread's CRC and scratch buffer, so that checking a frame makes no slice, buffer or CRC
     * object: two of each per record were about 80 heap bytes. Frames are shared by every
     * reader, so the scratch is per thread.
     */
    private static final ThreadLocal<Crcs> CRCS = ThreadLocal.withInitial(Crcs::new);

    private static final class Crcs {
        /**
         * Bytes copied out of the file at a time: a 3.2 KB record in one copy, and small enough
         * to stay in the first-level cache between the copy and the checksum.
         */
        private static final int CHUNK = 4096;

        private final CRC32C crc = new CRC32C();
        private final byte[] chunk = new byte[CHUNK];

        /**
         * The masked CRC32C of {@code length} bytes of {@code file} from {@code offset}.
         *
         * <p>The bytes are copied out of the file a chunk at a time and the CRC32C is taken of
         * the copy, never of the mapping itself. The JVM's CRC32C intrinsic reads memory in a
         * stub that cannot take a fault: over a mapping whose file was cut short after it was
         * mapped, it kills the JVM with SIGBUS. A copy through the segment turns the same fault
         * into an {@link InternalError}, which the caller reports as the file having changed
         * ({@link org.dataloader4j.core.files.MappedFiles#shrunk}). A chunk stays in the
         * first-level cache between the copy and the checksum, so the copy costs little.
         */
        int masked(MemorySegment file, long offset, long length) {
            crc.reset();
            for (long at = offset, end = offset + length; at < end; ) {
                int n = (int) Math.min(CHUNK, end - at);
                MemorySegment.copy(file, ValueLayout.JAVA_BYTE, at, chunk, 0, n);
                crc.update(chunk, 0, n);
                at += n;
            }
            return TFRecordCrc.mask((int) crc.getValue());
        }
    }
}
