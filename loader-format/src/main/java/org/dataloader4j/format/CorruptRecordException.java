package org.dataloader4j.format;

import java.io.IOException;
import java.util.Objects;

/**
 * A record file that does not follow its framing: names the file, the record index, the byte
 * offset where the bad record starts, and the reason.
 *
 * <p>The static factories are the one place where bad framing is worded, for every reader of
 * record files: the streams of this module, and the runtime's readers of memory-mapped files,
 * which convert what a factory makes into their unchecked exception. So the same damage reads the
 * same whichever reader finds it. A stream that does not know its length can only find a length
 * beyond the end as the bytes run out, and says so ({@link #truncatedPayload}); given the file,
 * it says what a mapped reader says ({@link #frameBeyondFile}).
 *
 * <p>OFRecord messages read {@code REASON at record R, offset N in FILE}. TFRecord messages use
 * TensorFlow's words, so a search for TensorFlow's error finds them, then name the record:
 * {@code corrupted record at offset N in FILE (data CRC mismatch); record R}. Offsets count in
 * the decompressed stream.
 */
public class CorruptRecordException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long record;
    private final long offset;
    private final String reason;

    /**
     * Record {@code record} (from 0) of {@code file}, starting at byte {@code offset}, is bad, for
     * {@code reason}: for what a record holds rather than how it is framed.
     */
    public CorruptRecordException(String file, long record, long offset, String reason) {
        this(reason + " at record " + record + ", offset " + offset + " in " + file, file, record, offset, reason, null);
    }

    private CorruptRecordException(String message, String file, long record, long offset, String reason, Throwable cause) {
        super(message, cause);
        this.file = Objects.requireNonNull(file, "file");
        this.record = record;
        this.offset = offset;
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** In OFRecord's form: {@code REASON at record R, offset N in FILE}. */
    private static CorruptRecordException located(String reason, String file, long record, long offset, Throwable cause) {
        return new CorruptRecordException(reason + " at record " + record + ", offset " + offset + " in " + file,
                file, record, offset, reason, cause);
    }

    /**
     * In TensorFlow's words: {@code WHAT at offset N in FILE (DETAIL); record R}, with the reason
     * {@code WHAT (DETAIL)}.
     */
    private static CorruptRecordException tensorFlow(String what, String detail, String file, long record, long offset,
            Throwable cause) {
        return new CorruptRecordException(what + " at offset " + offset + " in " + file + " (" + detail + "); record " + record,
                file, record, offset, what + " (" + detail + ")", cause);
    }

    /**
     * The file ends inside a frame's header, after {@code got} of its bytes: OFRecord's
     * {@code truncated length: 3 of 8 bytes}, TFRecord's {@code truncated record} with
     * {@code (header: 3 of 12 bytes)}.
     */
    public static CorruptRecordException truncatedHeader(Framing framing, String file, long record, long offset, long got) {
        if (framing == Framing.TFRECORD) {
            return tensorFlow("truncated record", "header: " + got + " of " + framing.headerBytes() + " bytes",
                    file, record, offset, null);
        }
        return located("truncated length: " + got + " of " + framing.headerBytes() + " bytes", file, record, offset, null);
    }

    /** An OFRecord length of zero (OneFlow never writes an empty frame) or below. */
    public static CorruptRecordException nonPositiveLength(String file, long record, long offset, long length) {
        return located("length " + length + (length == 0 ? " (an OFRecord frame is never empty)" : " is negative"),
                file, record, offset, null);
    }

    /**
     * The frame whose header says {@code length} runs past the end of {@code file}, of
     * {@code fileSize} bytes ({@link Framing#fits} is false): OFRecord's
     * {@code length 100 exceeds file size 90}; TFRecord's {@code truncated record} with
     * {@code (length 100 exceeds file size 90)}, or, for an empty record, which has no data to
     * fall short of, {@code (data CRC: 2 of 4 bytes)}. A length is read unsigned.
     */
    public static CorruptRecordException frameBeyondFile(Framing framing, String file, long record, long offset, long length,
            long fileSize) {
        String beyond = "length " + Long.toUnsignedString(length) + " exceeds file size " + fileSize;
        if (framing == Framing.OFRECORD) {
            return located(beyond, file, record, offset, null);
        }
        if (length == 0) {
            return truncatedDataCrc(file, record, offset, fileSize - offset - framing.headerBytes());
        }
        return tensorFlow("truncated record", beyond, file, record, offset, null);
    }

    /**
     * The payload ends after {@code got} of the {@code length} bytes its header says, in a
     * stream whose end was not known: OFRecord's
     * {@code truncated record: length 100 but only 3 bytes follow}, TFRecord's
     * {@code truncated record} with {@code (data: 3 of 100 bytes)}.
     */
    public static CorruptRecordException truncatedPayload(Framing framing, String file, long record, long offset, long length,
            long got) {
        if (framing == Framing.TFRECORD) {
            return tensorFlow("truncated record", "data: " + got + " of " + length + " bytes", file, record, offset, null);
        }
        return located("truncated record: length " + length + " but only " + got + " bytes follow", file, record, offset, null);
    }

    /** A TFRecord that ends after {@code got} of the 4 bytes of its data CRC. */
    public static CorruptRecordException truncatedDataCrc(String file, long record, long offset, long got) {
        return tensorFlow("truncated record", "data CRC: " + got + " of " + Framing.TFRECORD.footerBytes() + " bytes",
                file, record, offset, null);
    }

    /** A TFRecord whose length does not match its masked CRC32C. */
    public static CorruptRecordException lengthCrcMismatch(String file, long record, long offset) {
        return tensorFlow("corrupted record", "length CRC mismatch", file, record, offset, null);
    }

    /** A TFRecord whose payload does not match its masked CRC32C. */
    public static CorruptRecordException dataCrcMismatch(String file, long record, long offset) {
        return tensorFlow("corrupted record", "data CRC mismatch", file, record, offset, null);
    }

    /**
     * A record longer than {@code max} bytes, the most a reader hands out (or, unchecked, a
     * damaged length): OFRecord's {@code length L exceeds the largest record, MAX bytes},
     * TFRecord's {@code record too large} with that in brackets. A length is read unsigned.
     */
    public static CorruptRecordException recordTooLarge(Framing framing, String file, long record, long offset, long length,
            long max) {
        String detail = "length " + Long.toUnsignedString(length) + " exceeds the largest record, " + max + " bytes";
        return framing == Framing.TFRECORD
                ? tensorFlow("record too large", detail, file, record, offset, null)
                : located(detail, file, record, offset, null);
    }

    /**
     * A damaged gzip or zlib stream, found while reading the record at {@code offset};
     * {@code detail} says what is wrong and where in the compressed and decompressed bytes.
     */
    public static CorruptRecordException damagedStream(Framing framing, String file, long record, long offset,
            String detail, Throwable cause) {
        return framing == Framing.TFRECORD
                ? tensorFlow("corrupted record", detail, file, record, offset, cause)
                : located(detail, file, record, offset, cause);
    }

    /**
     * A memory-mapped file found shorter than when it was mapped, by a fault reading the record at
     * {@code offset}: it had {@code mappedBytes} and has {@code nowBytes}, or -1 if its size can no
     * longer be read; {@code fault} is the JVM's report. Worded alike for every framing, as
     * {@code REASON at record R, offset N in FILE}: TensorFlow has no word for it.
     */
    public static CorruptRecordException fileChanged(String file, long record, long offset, long mappedBytes, long nowBytes,
            Throwable fault) {
        return located("the file changed while being read: it had " + mappedBytes + " bytes when mapped and "
                + (nowBytes >= 0 ? "is now " + nowBytes + " bytes" : "its size cannot be read now"), file, record, offset, fault);
    }

    /** The file. */
    public String file() {
        return file;
    }

    /** The index of the bad record, counted from 0. */
    public long record() {
        return record;
    }

    /** The byte offset where the bad record starts, in the decompressed stream. */
    public long offset() {
        return offset;
    }

    /** What is wrong, without the location. */
    public String reason() {
        return reason;
    }
}
