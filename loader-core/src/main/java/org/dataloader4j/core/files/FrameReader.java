package org.dataloader4j.core.files;

import java.lang.foreign.MemorySegment;
import org.dataloader4j.api.CorruptDataException;

/**
 * The framing rule of one record-file format: how long the frame at an offset of a mapped file
 * is, with every check the format allows (lengths against the file, CRCs). The sequential
 * datasets and the {@link RecordIndex} scan of a format share one, so a file is judged the same
 * way whichever reads it.
 *
 * <p>A frame is {@link #headerBytes()} bytes, the payload, then {@link #footerBytes()} bytes.
 * Implementations are stateless and may be shared between threads.
 */
public interface FrameReader {

    /** Bytes before a frame's payload. */
    int headerBytes();

    /** Bytes after a frame's payload. */
    int footerBytes();

    /**
     * A number naming this rule, with its checks, in index sidecars: an index built by one rule
     * is never reused by another. Distinct per format and per set of checks.
     */
    int ruleId();

    /**
     * Checks the frame at {@code offset} of {@code file} (which has at least one byte there) and
     * returns its payload's length; the payload starts at {@code offset + headerBytes()}.
     *
     * @param name   the file, as shown in errors
     * @param record the frame's index in the file, for errors
     * @throws CorruptDataException naming file, record and offset if the frame is damaged
     */
    long payloadLength(MemorySegment file, long offset, String name, long record);

    /**
     * Whether {@link #payloadLength} reads the whole payload (to check its CRC), so that the
     * frame's bytes are in the cache when it returns. A reader of frames whose payload is not
     * read reads a short one ahead itself ({@link MappedRecordLocator#READ_AHEAD_FRAME_BYTES}).
     */
    default boolean readsPayload() {
        return false;
    }

    /** The most bytes a record's payload may hold: a protobuf message's limit, 2 GiB − 1. */
    int MAX_PAYLOAD_BYTES = Integer.MAX_VALUE;

    /**
     * {@link #payloadLength}, refusing a payload over {@link #MAX_PAYLOAD_BYTES}, which no
     * record of these formats can hold; it can only be met in a file over 2 GiB.
     *
     * @throws CorruptDataException naming file, record and offset if the frame is damaged or too long
     */
    default int checkedPayloadLength(MemorySegment file, long offset, String name, long record) {
        long length = payloadLength(file, offset, name, record);
        if (length > MAX_PAYLOAD_BYTES) {
            throw new CorruptDataException(name, record, offset, "length " + length + " is over " + MAX_PAYLOAD_BYTES
                    + " bytes, more than a record may hold");
        }
        return (int) length;
    }

    /**
     * Where the next intact frame may start after {@link #payloadLength} threw for the frame at
     * {@code offset}: a reader that skips corrupt records goes on from there. The default is the
     * end of the file, for formats whose damaged length cannot be trusted and that have no way
     * to find the next frame.
     */
    default long afterDamage(MemorySegment file, long offset) {
        return file.byteSize();
    }
}
