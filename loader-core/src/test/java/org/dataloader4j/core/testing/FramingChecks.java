package org.dataloader4j.core.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.files.FrameReader;
import org.dataloader4j.core.files.RecordIndex;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.RecordReader;

/**
 * The body of the framing fuzz tests, shared by the formats' modules: one file's bytes read by
 * every reader of that framing, which must agree. The mapped path (a format's {@link FrameReader}
 * over a heap segment, frame after frame to the end as the sequential datasets read, and the
 * {@link RecordIndex} scan) may fail only with a {@link CorruptDataException}; the stream path
 * ({@link RecordReader}, plain and as the bytes compressed by gzip and zlib) only with a
 * {@link CorruptRecordException}, and only once: every later {@code next()} throws it again. All
 * of them read the same payloads and fail at the same record and offset, or all reach the end.
 * The mapped path and a stream reader opened on the same bytes in a file, which knows the file's
 * size as the mapped path does, also give the same message and reason: bad framing is worded in
 * one place. (A stream of unknown length finds a length beyond the end only as the bytes run
 * out, and says that.) The bytes are also read as a gzip and as a zlib stream, where only a
 * {@code CorruptRecordException} may escape, and as a stream of detected compression.
 *
 * <p>{@link #assertWordedAlike} holds a format's dataset up against the stream reader of the
 * same file in the same way.
 */
public final class FramingChecks {
    private static final String NAME = "fuzz-input";

    private FramingChecks() {
    }

    /**
     * What reading a file gave: its payloads in order, and the record index, frame offset,
     * message, reason and cause of the first bad frame, or -1, -1 and nulls at a clean end.
     */
    private record Outcome(List<byte[]> payloads, long badRecord, long badOffset, String message, String reason, String cause) {
        Outcome(List<byte[]> payloads) {
            this(payloads, -1, -1, null, null, null);
        }

        Outcome(List<byte[]> payloads, CorruptDataException e) {
            this(payloads, e.record(), e.offset(), e.getMessage(), e.reason(), String.valueOf(e.getCause()));
        }

        Outcome(List<byte[]> payloads, CorruptRecordException e) {
            this(payloads, e.record(), e.offset(), e.getMessage(), e.reason(), String.valueOf(e.getCause()));
        }

        void assertSameAs(Outcome expected, String what) {
            assertEquals(expected.payloads.size(), payloads.size(), what + ": records read");
            for (int i = 0; i < payloads.size(); i++) {
                assertArrayEquals(expected.payloads.get(i), payloads.get(i), what + ": payload of record " + i);
            }
            assertEquals(expected.badRecord, badRecord, what + ": record of the first bad frame");
            assertEquals(expected.badOffset, badOffset, what + ": offset of the first bad frame");
        }

        void assertWordedAs(Outcome expected, String what) {
            assertSameAs(expected, what);
            assertEquals(expected.message, message, what + ": the message");
            assertEquals(expected.reason, reason, what + ": the reason");
            assertEquals(expected.cause, cause, what + ": the cause");
        }
    }

    /** Reads {@code file} in every way {@code framing} can be read; see the class comment. */
    public static void check(byte[] file, FrameReader frames, Framing framing, boolean verifyCrc) {
        Outcome mapped = mapped(file, frames, NAME);
        checkIndex(file, frames, mapped);
        checkWording(file, frames, framing, verifyCrc);
        stream(file, framing, Compression.NONE, verifyCrc).assertSameAs(mapped, "stream");
        stream(compress(file, Compression.GZIP), framing, Compression.GZIP, verifyCrc).assertSameAs(mapped, "gzip stream");
        stream(compress(file, Compression.ZLIB), framing, Compression.ZLIB, verifyCrc).assertSameAs(mapped, "zlib stream");
        stream(file, framing, null, verifyCrc);
        stream(file, framing, Compression.GZIP, verifyCrc);
        stream(file, framing, Compression.ZLIB, verifyCrc);
    }

    /**
     * Frame after frame from offset 0 to the end, as a sequential dataset reads a mapped file,
     * calling the file {@code name}.
     */
    private static Outcome mapped(byte[] file, FrameReader frames, String name) {
        MemorySegment mapping = MemorySegment.ofArray(file);
        List<byte[]> payloads = new ArrayList<>();
        long offset = 0;
        try {
            while (offset < mapping.byteSize()) {
                int length = frames.payloadLength(mapping, offset, name, payloads.size());
                payloads.add(mapping.asSlice(offset + frames.headerBytes(), length).toArray(ValueLayout.JAVA_BYTE));
                offset += frames.headerBytes() + length + frames.footerBytes();
            }
            assertEquals(mapping.byteSize(), offset, "frames end at the end of the file");
            return new Outcome(payloads);
        } catch (CorruptDataException e) {
            checkNamed(e, name, payloads.size(), offset);
            return new Outcome(payloads, e);
        }
    }

    /**
     * The mapped path and a stream reader of the bytes in a file (so that it knows the file's
     * size) agree in every word of their error.
     */
    private static void checkWording(byte[] file, FrameReader frames, Framing framing, boolean verifyCrc) {
        try {
            Path path = Files.createTempFile("framing-checks", ".bin");
            try {
                Files.write(path, file);
                streamOf(path, framing, Compression.NONE, verifyCrc).assertWordedAs(mapped(file, frames, path.toString()),
                        "stream of a file");
            } finally {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads {@code file} to its end or its first bad frame with {@code dataset}, a format's
     * dataset over {@code file} alone, and with the stream reader of that file; asserts
     * that both read the same records and then fail alike: the same message, reason, file,
     * record, offset and cause. Returns the dataset's error, or null if both reach the end. The
     * dataset reads {@code file} as it is compressed, mapped or as a stream.
     */
    public static CorruptDataException assertWordedAlike(Dataset<? extends RecordSlice> dataset, Path file, Framing framing,
            Compression compression, boolean verifyCrc) {
        List<byte[]> payloads = new ArrayList<>();
        CorruptDataException error = null;
        try {
            for (List<? extends RecordSlice> samples = dataset.next(); !samples.isEmpty(); samples = dataset.next()) {
                for (RecordSlice sample : samples) {
                    payloads.add(sample.payload().toArray(ValueLayout.JAVA_BYTE));
                }
            }
        } catch (CorruptDataException e) {
            assertEquals(file.toString(), e.file(), "the error names the file");
            error = e;
        }
        Outcome read = error == null ? new Outcome(payloads) : new Outcome(payloads, error);
        read.assertWordedAs(streamOf(file, framing, compression, verifyCrc), "the dataset");
        return error;
    }

    /** The records of the file {@code file}, as the stream reader opened on it reads them. */
    private static Outcome streamOf(Path file, Framing framing, Compression compression, boolean verifyCrc) {
        List<byte[]> payloads = new ArrayList<>();
        try (RecordReader in = RecordReader.open(file, framing, compression, verifyCrc)) {
            try {
                for (RawRecord r = in.next(); r != null; r = in.next()) {
                    payloads.add(r.payload());
                }
                return new Outcome(payloads);
            } catch (CorruptRecordException e) {
                assertEquals(file.toString(), e.file(), "the error names the file");
                return new Outcome(payloads, e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The index scan reads exactly the mapped read's frames, or fails at its bad frame. */
    private static void checkIndex(byte[] file, FrameReader frames, Outcome mapped) {
        MemorySegment mapping = MemorySegment.ofArray(file);
        try {
            RecordIndex index = RecordIndex.scan(mapping, frames, Path.of(NAME));
            List<byte[]> payloads = new ArrayList<>(index.size());
            for (int i = 0; i < index.size(); i++) {
                payloads.add(index.slice(mapping, NAME, i).payload().toArray(ValueLayout.JAVA_BYTE));
            }
            new Outcome(payloads).assertSameAs(mapped, "record index scan");
        } catch (CorruptDataException e) {
            checkNamed(e, NAME, mapped.badRecord(), mapped.badOffset());
            assertEquals(mapped.message(), e.getMessage(), "record index scan: the message");
        }
    }

    private static void checkNamed(CorruptDataException e, String name, long record, long offset) {
        assertEquals(name, e.file(), "the error names the file");
        assertEquals(record, e.record(), "the error names the record");
        assertEquals(offset, e.offset(), "the error names the frame's offset");
    }

    /**
     * Every record of {@code bytes} read as a stream in {@code framing}, decompressed as
     * {@code compression} ({@code null}: detected). Fails the test if anything but a
     * {@link CorruptRecordException} escapes, or if a record is not where its predecessors end.
     */
    private static Outcome stream(byte[] bytes, Framing framing, Compression compression, boolean verifyCrc) {
        List<byte[]> payloads = new ArrayList<>();
        long end = 0;
        try (RecordReader in = RecordReader.of(new ByteArrayInputStream(bytes), NAME, framing, compression, verifyCrc)) {
            try {
                for (RawRecord r = in.next(); r != null; r = in.next()) {
                    assertEquals(payloads.size(), r.index(), "records are numbered in order");
                    assertEquals(end, r.offset(), "a record starts where the one before it ends");
                    payloads.add(r.payload());
                    end += framing.headerBytes() + r.payload().length + framing.footerBytes();
                }
                return new Outcome(payloads);
            } catch (CorruptRecordException e) {
                assertEquals(NAME, e.file(), "the error names the stream");
                assertEquals(payloads.size(), e.record(), "the error names the record");
                assertEquals(end, e.offset(), "the error names the frame's offset");
                try {
                    in.next();
                    fail("a reader that failed reads on");
                } catch (CorruptRecordException again) {
                    assertSame(e, again, "a failed reader fails again the same way");
                }
                return new Outcome(payloads, e);
            }
        } catch (IOException e) {
            throw new AssertionError("an untyped I/O failure from a stream in memory", e);
        }
    }

    /** {@code bytes} compressed as a whole, as a file of that compression holds them. */
    public static byte[] compress(byte[] bytes, Compression compression) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 2 + 64);
        try (OutputStream c = compression == Compression.GZIP ? new GZIPOutputStream(out) : new DeflaterOutputStream(out)) {
            c.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
