package org.dataloader4j.format;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Reads a record file from a stream, record by record, in OFRecord or TFRecord
 * {@link Framing}, decompressing gzip or zlib on the way ({@link Compression}). Every bad frame
 * is a {@link CorruptRecordException} naming the file, the record and its offset in the
 * decompressed stream; a bogus length is never allocated, and TFRecord CRCs are checked unless
 * turned off.
 *
 * <pre>{@code
 * try (RecordReader in = RecordReader.open(Path.of("part-00000"))) {
 *     for (RawRecord r = in.next(); r != null; r = in.next()) {
 *         OFRecord record = OFRecord.parseFrom(r.payload());
 *     }
 * }
 * try (RecordReader in = RecordReader.open(Path.of("train.tfrecord.gz"), Framing.TFRECORD, null, true)) {
 *     for (RawRecord r = in.next(); r != null; r = in.next()) {
 *         Example example = Example.parseFrom(r.payload());
 *     }
 * }
 * }</pre>
 *
 * <p>Not thread-safe.
 *
 * <p>Longer than most classes: both framings, compression and every check of a frame are read
 * here, in the order the bytes come, so each error names exactly where the stream broke.
 */
public final class RecordReader implements Closeable {
    /**
     * The largest payload a Java array can hold, and the largest any reader of record files hands
     * out: the runtime's mapped readers refuse a longer record too, so that a file reads the same
     * through either.
     */
    public static final int MAX_PAYLOAD = Integer.MAX_VALUE - 8;
    private static final int FIRST_CHUNK = 1 << 20;

    private final InputStream in;
    private final String name;
    private final long size;
    private final Framing framing;
    private final boolean verifyCrc;
    private final byte[] header = new byte[12];
    private final CRC32C crc = new CRC32C();
    private long offset;
    private long index;
    private CorruptRecordException failure;
    /** The length of the record whose header was read and whose payload was not yet; -1 if none. */
    private int pending = -1;
    private boolean closed;

    private RecordReader(InputStream in, String name, long size, Framing framing, boolean verifyCrc) {
        this.in = in;
        this.name = name;
        this.size = size;
        this.framing = framing;
        this.verifyCrc = verifyCrc;
    }

    /** Reads the OFRecord file at {@code file}; a length beyond the file's end is reported as such. */
    public static RecordReader open(Path file) throws IOException {
        return open(file, Framing.OFRECORD, Compression.NONE, true);
    }

    /**
     * Reads {@code file} in {@code framing}, decompressing it as {@code compression}
     * ({@code null}: {@link Compression#detect(Path, Framing) detected}); {@code verifyCrc} false
     * skips the TFRecord CRC checks. Without compression a length beyond the file's end is
     * reported before anything is read.
     */
    public static RecordReader open(Path file, Framing framing, Compression compression, boolean verifyCrc)
            throws IOException {
        Objects.requireNonNull(framing, "framing");
        Compression c = compression != null ? compression : Compression.detect(file, framing);
        long size = c == Compression.NONE ? Files.size(file) : -1;
        return new RecordReader(c.decompress(Files.newInputStream(file)), file.toString(), size, framing, verifyCrc);
    }

    /** Reads OFRecord framing from {@code in}, calling it {@code name} in errors; the reader closes it. */
    public static RecordReader of(InputStream in, String name) {
        return new RecordReader(Objects.requireNonNull(in, "in"), Objects.requireNonNull(name, "name"), -1,
                Framing.OFRECORD, true);
    }

    /**
     * Reads the uncompressed file of {@code size} bytes that {@code in} streams (a file of a
     * remote store) in {@code framing}, calling it {@code name} in errors, as {@link #open(Path,
     * Framing, Compression, boolean)} reads a local one: a length beyond the file's end is
     * reported as such. The reader closes {@code in}.
     *
     * @throws IllegalArgumentException if {@code size} is negative
     */
    public static RecordReader of(InputStream in, String name, long size, Framing framing, boolean verifyCrc) {
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0: size=" + size);
        }
        return new RecordReader(Compression.NONE.decompress(Objects.requireNonNull(in, "in")),
                Objects.requireNonNull(name, "name"), size, Objects.requireNonNull(framing, "framing"), verifyCrc);
    }

    /**
     * Reads {@code in} in {@code framing}, decompressing it as {@code compression}
     * ({@code null}: detected from {@code name}'s extension and the first bytes, see
     * {@link Compression#detect(String, byte[], Framing)}), calling it {@code name} in errors;
     * {@code verifyCrc} false skips the TFRecord CRC checks. The reader closes {@code in}, also
     * when this fails.
     */
    public static RecordReader of(InputStream in, String name, Framing framing, Compression compression,
            boolean verifyCrc) throws IOException {
        Objects.requireNonNull(in, "in");
        try {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(framing, "framing");
            InputStream source = in;
            Compression c = compression;
            if (c == null) {
                PushbackInputStream peek = new PushbackInputStream(in, 12);
                byte[] head = peek.readNBytes(12);
                peek.unread(head);
                c = Compression.detect(name, head, framing);
                source = peek;
            }
            return new RecordReader(c.decompress(source), name, -1, framing, verifyCrc);
        } catch (IOException | RuntimeException e) {
            try {
                in.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * The next record, or {@code null} at a clean end of the stream (right after a record).
     *
     * @throws CorruptRecordException if the frame is truncated, its length is not valid, a CRC
     *                                does not match or the compressed stream is damaged; the
     *                                stream cannot be resynchronised after a bad frame, so every
     *                                later call throws the same exception
     * @throws IllegalStateException  if the reader is closed, or a header read by
     *                                {@link #nextLength()} still waits for its payload
     */
    public RawRecord next() throws IOException {
        long start = offset;
        long record = index;
        return nextLength() < 0 ? null : new RawRecord(record, start, readPayload());
    }

    /**
     * Reads the next record's header and returns its payload's length, or -1 at a clean end of
     * the stream; {@link #readPayload(byte[], int)} then reads the payload into the caller's
     * memory (or {@link #readPayload()} into an array of its own, as {@link #next()} does). The
     * record's index and offset are {@link #recordsRead()} and {@link #offset()} before this call.
     *
     * @throws CorruptRecordException as {@link #next()} does, for the header
     * @throws IllegalStateException  as {@link #next()} does
     */
    public int nextLength() throws IOException {
        checkReadable();
        if (pending >= 0) {
            throw new IllegalStateException("record " + index + " of " + name + ": its payload is not read yet");
        }
        try {
            return readHeader();
        } catch (CorruptRecordException | CompressedStreamException e) {
            throw failed(e);
        }
    }

    /**
     * Reads the payload of the record whose header {@link #nextLength()} just read into
     * {@code into[at, at + length)}, checks its data CRC (TFRecord) and moves past the record.
     *
     * @throws CorruptRecordException    as {@link #next()} does, for the payload and its CRC
     * @throws IllegalStateException     if no header waits for its payload, or the reader is closed
     * @throws IndexOutOfBoundsException if the payload does not fit at {@code at}; nothing is read
     */
    public void readPayload(byte[] into, int at) throws IOException {
        int length = pendingLength();
        Objects.checkFromIndexSize(at, length, into.length);
        try {
            int got = in.readNBytes(into, at, length);
            if (got < length) {
                throw truncatedPayload(length, got);
            }
            endRecord(into, at, length);
        } catch (CorruptRecordException | CompressedStreamException e) {
            throw failed(e);
        }
    }

    /**
     * Reads the payload of the record whose header {@link #nextLength()} just read into an array
     * of its own, checks its data CRC (TFRecord) and moves past the record. The array grows only
     * as bytes arrive, so a bogus length in a stream without a length CRC allocates no more than
     * the stream holds.
     *
     * @throws CorruptRecordException as {@link #next()} does, for the payload and its CRC
     * @throws IllegalStateException  if no header waits for its payload, or the reader is closed
     */
    public byte[] readPayload() throws IOException {
        int length = pendingLength();
        try {
            return readGrowing(length);
        } catch (CorruptRecordException | CompressedStreamException e) {
            throw failed(e);
        }
    }

    private int pendingLength() throws CorruptRecordException {
        checkReadable();
        if (pending < 0) {
            throw new IllegalStateException("no record header of " + name + " waits for its payload");
        }
        return pending;
    }

    private void checkReadable() throws CorruptRecordException {
        if (closed) {
            throw new IllegalStateException("record reader of " + name + " is closed");
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Keeps {@code e}, worded as a corrupt record, as the answer to every later read. */
    private CorruptRecordException failed(IOException e) {
        failure = e instanceof CorruptRecordException c ? c
                : CorruptRecordException.damagedStream(framing, name, index, offset, e.getMessage(), e);
        return failure;
    }

    /** Reads and checks a header; its payload's length, or -1 at a clean end. */
    private int readHeader() throws IOException {
        long start = offset;
        int headerBytes = framing.headerBytes();
        int got = in.readNBytes(header, 0, headerBytes);
        if (got == 0) {
            return -1;
        }
        if (got < headerBytes) {
            throw CorruptRecordException.truncatedHeader(framing, name, index, start, got);
        }
        long length = littleEndianLong(header);
        if (framing == Framing.TFRECORD) {
            checkTFRecordLength(start, length);
        } else {
            checkOFRecordLength(start, length);
        }
        pending = (int) length;
        return pending;
    }

    /** Checks the data CRC of the payload in {@code payload[at, at + length)} and moves past the record. */
    private void endRecord(byte[] payload, int at, int length) throws IOException {
        if (framing == Framing.TFRECORD) {
            checkFooter(payload, at, length, offset);
        }
        offset += framing.headerBytes() + length + framing.footerBytes();
        index++;
        pending = -1;
    }

    /** In the order the runtime's mapped reader checks them, so that both name the same fault first. */
    private void checkOFRecordLength(long start, long length) throws CorruptRecordException {
        if (length <= 0) {
            throw CorruptRecordException.nonPositiveLength(name, index, start, length);
        }
        checkAgainstFile(start, length);
    }

    /** The length CRC first, as TensorFlow checks it: only then is the length worth believing. */
    private void checkTFRecordLength(long start, long length) throws CorruptRecordException {
        if (verifyCrc && TFRecordCrc.maskedCrc32c(header, 0, 8) != Compression.littleEndianInt(header, 8)) {
            throw CorruptRecordException.lengthCrcMismatch(name, index, start);
        }
        checkAgainstFile(start, length);
    }

    /** A length beyond the file (where its size is known), then one beyond what an array holds. */
    private void checkAgainstFile(long start, long length) throws CorruptRecordException {
        if (size >= 0 && !framing.fits(length, size - start)) {
            throw CorruptRecordException.frameBeyondFile(framing, name, index, start, length, size);
        }
        if (Long.compareUnsigned(length, MAX_PAYLOAD) > 0) {
            throw CorruptRecordException.recordTooLarge(framing, name, index, start, length, MAX_PAYLOAD);
        }
    }

    private void checkFooter(byte[] payload, int at, int length, long start) throws IOException {
        int got = in.readNBytes(header, 0, 4);
        if (got < 4) {
            throw CorruptRecordException.truncatedDataCrc(name, index, start, got);
        }
        if (verifyCrc) {
            crc.reset();
            crc.update(payload, at, length);
            if (TFRecordCrc.mask((int) crc.getValue()) != Compression.littleEndianInt(header, 0)) {
                throw CorruptRecordException.dataCrcMismatch(name, index, start);
            }
        }
    }

    /** Reads a payload of {@code length} bytes, growing the array only as bytes arrive, and moves past the record. */
    private byte[] readGrowing(int length) throws IOException {
        byte[] payload = new byte[Math.min(length, FIRST_CHUNK)];
        int filled = 0;
        while (true) {
            int n = in.readNBytes(payload, filled, payload.length - filled);
            filled += n;
            if (filled == length) {
                endRecord(payload, 0, length);
                return payload;
            }
            if (filled < payload.length) {
                throw truncatedPayload(length, filled);
            }
            payload = Arrays.copyOf(payload, (int) Math.min(length, 2L * payload.length));
        }
    }

    /** The payload of the record at {@link #offset()} ended after {@code got} of its {@code length} bytes. */
    private CorruptRecordException truncatedPayload(int length, int got) {
        return CorruptRecordException.truncatedPayload(framing, name, index, offset, length, got);
    }

    static long littleEndianLong(byte[] b) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[i] & 0xffL);
        }
        return v;
    }

    /** The framing this reader reads. */
    public Framing framing() {
        return framing;
    }

    /** The number of records read so far: the index of the next one. */
    public long recordsRead() {
        return index;
    }

    /** The offset of the next record's frame, counted in the decompressed stream. */
    public long offset() {
        return offset;
    }

    /** Closes the stream; idempotent. */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            in.close();
        }
    }

    /** Every record's payload in the OFRecord file {@code file}; for tests and small files. */
    public static List<byte[]> readAll(Path file) throws IOException {
        return readAll(file, Framing.OFRECORD, Compression.NONE);
    }

    /**
     * Every record's payload in {@code file}, in {@code framing}, decompressed as
     * {@code compression} ({@code null}: detected), CRCs checked; for tests and small files.
     */
    public static List<byte[]> readAll(Path file, Framing framing, Compression compression) throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (RecordReader r = open(file, framing, compression, true)) {
            for (RawRecord rec = r.next(); rec != null; rec = r.next()) {
                out.add(rec.payload());
            }
        }
        return out;
    }
}
