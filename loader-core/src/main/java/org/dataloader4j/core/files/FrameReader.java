package org.dataloader4j.core.files;

import java.lang.foreign.MemorySegment;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.RecordReader;

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
     * returns its payload's length; the payload starts at {@code offset + headerBytes()}. A
     * payload over {@link RecordReader#MAX_PAYLOAD} bytes is damage too, as it is to the stream
     * reader. The checks run in the stream reader's order and the errors come from the same
     * factories of {@link CorruptRecordException} ({@link FrameErrors}), so a file reads the same
     * through either.
     *
     * @param name   the file, as shown in errors
     * @param record the frame's index in the file, for errors
     * @throws CorruptDataException naming file, record and offset if the frame is damaged
     */
    int payloadLength(MemorySegment file, long offset, String name, long record);

    /**
     * {@link #payloadLength(MemorySegment, long, String, long)} for a frame fetched from a file
     * that is not mapped (a remote file): {@code frame} holds the file's bytes from byte
     * {@code offset} on, the whole frame or up to the file's end, and the file is
     * {@code fileSize} bytes long. The checks and the errors are those of the mapped file,
     * naming {@code offset}.
     *
     * @throws CorruptDataException naming file, record and offset if the frame is damaged
     * @throws IndexOutOfBoundsException if {@code frame} holds less than the checks read
     */
    int payloadLength(MemorySegment frame, long offset, long fileSize, String name, long record);

    /**
     * The checks of {@link #payloadLength} that read only the frame's header (the length and,
     * where the format has one, the length's CRC), and the payload's length they give. An index
     * scan runs these, reading a line or two per record; the parse threads then run every check
     * on each record they decode. The default runs every check.
     *
     * @throws CorruptDataException naming file, record and offset if the header is damaged
     */
    default int headerLength(MemorySegment file, long offset, String name, long record) {
        return payloadLength(file, offset, name, record);
    }

    /**
     * Whether {@link #payloadLength} reads the whole payload (to check its CRC), so that the
     * frame's bytes are in the cache when it returns. A reader of frames whose payload is not
     * read reads a short one ahead itself ({@link MappedRecordLocator#READ_AHEAD_FRAME_BYTES}).
     */
    default boolean readsPayload() {
        return false;
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
