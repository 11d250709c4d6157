package org.dataloader4j.format;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Checksum;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The decompressed bytes of a gzip stream (RFC 1952, one member or several back to back, as the
 * {@code gzip} tool reads them) or a zlib stream (RFC 1950). Every damage is a
 * {@link CompressedStreamException}, never an early end of data: a bad header, bad deflate data,
 * a stream that stops before its end, a wrong gzip CRC32 or size, a wrong zlib Adler-32, and
 * bytes after the end that do not start another gzip member. A stream with no bytes at all is
 * empty, as TensorFlow reads it.
 *
 * <p>Headers and trailers are read here and the inflater sees only raw deflate data, so every
 * byte of good data is handed out before a trailer is found wrong, and input is fed in slices so
 * that a deflate error loses little of the good output before it. Why not the JDK's streams:
 * {@code GZIPInputStream} ends quietly where the bytes after a member are not a gzip header, and
 * before Java 23 it stops after the first member whenever the underlying stream's
 * {@code available()} says 0, as network and decompressing streams do; either loses records
 * without a word. {@code InflaterInputStream} ignores bytes after the zlib stream. Not
 * thread-safe.
 *
 * <p>Longer than most classes: GZIP's members, headers and trailers and ZLIB's are read by hand
 * here, so that every kind of damage is found and named where it is.
 */
final class InflatingInputStream extends InputStream {
    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;
    private static final int RESERVED = 0xe0;
    /** The most compressed bytes given to the inflater at once. */
    private static final int SLICE = 1 << 14;

    private enum State { START, INFLATING, END }

    private final InputStream in;
    private final boolean gzip;
    private final String kind;
    private final Inflater inflater = new Inflater(true);
    private final Checksum check;
    /** Compressed input: two slices, enough to feed the inflater a whole slice at a time. */
    private final byte[] buf = new byte[2 * SLICE];
    private int pos;
    private int fed;
    private int limit;
    /** The compressed offset of {@code buf[0]}. */
    private long bufStart;
    private long produced;
    private long members;
    private State state = State.START;
    private boolean closed;

    /** Decompresses {@code in} as gzip ({@code gzip} true) or zlib; closing this closes {@code in}. */
    InflatingInputStream(InputStream in, boolean gzip) {
        this.in = Objects.requireNonNull(in, "in");
        this.gzip = gzip;
        this.kind = gzip ? "gzip" : "zlib";
        this.check = gzip ? new CRC32() : new Adler32();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException(kind + " stream is closed");
        }
        if (len == 0) {
            return 0;
        }
        while (state != State.END) {
            if (state == State.START) {
                start();
            } else {
                int n = inflate(b, off, len);
                if (n > 0) {
                    return n;
                }
            }
        }
        return -1;
    }

    /** Reads the first header, or ends an empty stream. */
    private void start() throws IOException {
        int first = rawByte();
        if (first < 0) {
            state = State.END;
            return;
        }
        if (gzip) {
            readGzipHeader(first);
        } else {
            readZlibHeader(first);
        }
        beginInflating();
    }

    private void beginInflating() {
        inflater.reset();
        check.reset();
        feed();
        state = State.INFLATING;
    }

    private void feed() {
        fed = Math.min(limit, pos + SLICE);
        inflater.setInput(buf, pos, fed - pos);
    }

    /** Up to {@code len} bytes of output, or 0 after taking input or finishing a stream. */
    private int inflate(byte[] b, int off, int len) throws IOException {
        int n;
        try {
            n = inflater.inflate(b, off, len);
        } catch (DataFormatException e) {
            pos = fed - inflater.getRemaining();
            throw damaged("invalid deflate data (" + e.getMessage() + ")");
        }
        if (n > 0) {
            check.update(b, off, n);
            produced += n;
            return n;
        }
        if (inflater.finished()) {
            pos = fed - inflater.getRemaining();
            endOfStream();
        } else if (inflater.needsInput()) {
            pos = fed;
            if (pos == limit && !fill()) {
                throw damaged("truncated stream: it ends inside the compressed data");
            }
            feed();
        }
        return 0;
    }

    /** Checks a finished member's or stream's trailer, and what follows it. */
    private void endOfStream() throws IOException {
        members++;
        if (!gzip) {
            long adler = trailerByte() << 24 | trailerByte() << 16 | trailerByte() << 8 | trailerByte();
            if (adler != check.getValue()) {
                throw damaged("bad trailer: Adler-32 " + hex(adler) + " but the data has " + hex(check.getValue()));
            }
            // A zlib file holds exactly one stream.
            if (rawByte() >= 0) {
                pos--;
                throw damaged("data after the end of the zlib stream");
            }
            state = State.END;
            return;
        }
        long crc32 = trailerByte() | trailerByte() << 8 | trailerByte() << 16 | trailerByte() << 24;
        long size = trailerByte() | trailerByte() << 8 | trailerByte() << 16 | trailerByte() << 24;
        if (crc32 != check.getValue()) {
            throw damaged("bad trailer of member " + members + ": CRC32 " + hex(crc32) + " but the data has " + hex(check.getValue()));
        }
        if (size != (inflater.getBytesWritten() & 0xffffffffL)) {
            throw damaged("bad trailer of member " + members + ": size " + size + " but the data has "
                    + (inflater.getBytesWritten() & 0xffffffffL) + " (mod 2^32)");
        }
        int next = rawByte();
        if (next < 0) {
            state = State.END;
            return;
        }
        readGzipHeader(next);
        beginInflating();
    }

    /** Reads a zlib header (RFC 1950, 2.2) whose first byte is {@code cmf}. */
    private void readZlibHeader(int cmf) throws IOException {
        int flg = headerByte(null);
        if ((cmf & 0x0f) != 8 || (cmf >>> 4) > 7) {
            throw damaged("unsupported zlib header: method " + (cmf & 0x0f) + ", window " + (cmf >>> 4));
        }
        if ((cmf * 256 + flg) % 31 != 0) {
            throw damaged("incorrect header check");
        }
        if ((flg & 0x20) != 0) {
            throw damaged("stream needs a preset dictionary");
        }
    }

    /** Reads a gzip member header (RFC 1952, 2.3.1) whose first byte is {@code first}. */
    private void readGzipHeader(int first) throws IOException {
        CRC32 headerCrc = new CRC32();
        headerCrc.update(first);
        int second = headerByte(headerCrc);
        if (first != 0x1f || second != 0x8b) {
            throw damaged(members == 0 ? "not in gzip format (bad magic)"
                    : "bytes after member " + members + " are not a gzip member (bad magic)");
        }
        int method = headerByte(headerCrc);
        if (method != 8) {
            throw damaged("unsupported compression method " + method + " in gzip header");
        }
        int flags = headerByte(headerCrc);
        if ((flags & RESERVED) != 0) {
            throw damaged("reserved gzip header flags set: 0x" + Integer.toHexString(flags));
        }
        for (int i = 0; i < 6; i++) { // MTIME, XFL, OS
            headerByte(headerCrc);
        }
        if ((flags & FEXTRA) != 0) {
            int extra = headerByte(headerCrc) | headerByte(headerCrc) << 8;
            for (int i = 0; i < extra; i++) {
                headerByte(headerCrc);
            }
        }
        if ((flags & FNAME) != 0) {
            skipZeroTerminated(headerCrc);
        }
        if ((flags & FCOMMENT) != 0) {
            skipZeroTerminated(headerCrc);
        }
        if ((flags & FHCRC) != 0) {
            int expected = (int) (headerCrc.getValue() & 0xffff);
            int stored = headerByte(null) | headerByte(null) << 8;
            if (stored != expected) {
                throw damaged("gzip header CRC mismatch");
            }
        }
    }

    private void skipZeroTerminated(CRC32 headerCrc) throws IOException {
        int b;
        do {
            b = headerByte(headerCrc);
        } while (b != 0);
    }

    private int headerByte(CRC32 headerCrc) throws IOException {
        int b = rawByte();
        if (b < 0) {
            throw damaged("truncated stream: it ends inside a " + kind + " header");
        }
        if (headerCrc != null) {
            headerCrc.update(b);
        }
        return b;
    }

    private long trailerByte() throws IOException {
        int b = rawByte();
        if (b < 0) {
            throw damaged(gzip ? "truncated stream: it ends inside the trailer of member " + members
                    : "truncated stream: it ends inside the zlib trailer");
        }
        return b;
    }

    /** The next compressed byte outside the inflater, or -1 at the end of the input. */
    private int rawByte() throws IOException {
        if (pos == limit && !fill()) {
            return -1;
        }
        return buf[pos++] & 0xff;
    }

    /** Replaces the used-up buffer with the next bytes of input; false at its end. */
    private boolean fill() throws IOException {
        bufStart += limit;
        pos = 0;
        limit = 0;
        int n;
        do {
            n = in.read(buf, 0, buf.length);
        } while (n == 0);
        if (n < 0) {
            return false;
        }
        limit = n;
        return true;
    }

    private CompressedStreamException damaged(String detail) {
        return new CompressedStreamException(kind + ": " + detail, bufStart + pos, produced);
    }

    private static String hex(long v) {
        return String.format("0x%08x", v);
    }

    /** Frees the inflater and closes the underlying stream; idempotent. */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            inflater.end();
            in.close();
        }
    }
}
