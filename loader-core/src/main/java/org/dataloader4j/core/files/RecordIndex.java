package org.dataloader4j.core.files;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.dataset.RecordSlice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where every record of one file lies: the offset of each frame and the length of its payload,
 * found by scanning the mapped file with a {@link FrameReader} (so every frame is checked as the
 * sequential dataset checks it) or read back from a sidecar file written by an earlier scan.
 *
 * <p>The sidecar ({@link #sidecarFor}) is described in {@code docs/record-formats.md}. It is
 * trusted only if its magic, version, rule, the data file's size and modification time, its
 * record count, its CRC32C, and the sum of its frames all agree; otherwise the file is scanned
 * again and the sidecar rewritten, atomically (temporary file, then rename). A sidecar that
 * cannot be written is skipped: the index is kept in memory and the reason logged at debug.
 *
 * <p>A scan for a reader reads the headers only and keeps damaged frames as entries
 * ({@link #openHeaders}); the strict scan checks every frame whole and fails at the first damaged
 * one ({@link #open}). A sidecar is written only for a file with no damaged frame, so both read
 * the same sidecars.
 *
 * <p>Immutable: {@code long[]} offsets and {@code int[]} lengths, 12 bytes per record.
 */
public final class RecordIndex {
    /** The sidecar's suffix, appended to the data file's name. */
    public static final String SUFFIX = ".d4jidx";
    static final byte[] MAGIC = {'D', 'L', '4', 'J', 'R', 'I', 'D', 'X'};
    static final int VERSION = 1;
    static final int HEADER = 40;
    private static final Logger LOG = LoggerFactory.getLogger(RecordIndex.class);

    private final long[] offsets;
    private final int[] lengths;
    private final int headerBytes;
    private final boolean fromSidecar;
    /** Whether a frame is damaged: its entry has length -1 ({@link #scanHeaders}). */
    private final boolean damaged;
    /** Written, never read: gives the scan's reads of each frame's last byte a use, so the compiler keeps them. */
    @SuppressWarnings("unused")
    private long lastBytes;

    private RecordIndex(long[] offsets, int[] lengths, int headerBytes, boolean fromSidecar) {
        this.offsets = offsets;
        this.lengths = lengths;
        this.headerBytes = headerBytes;
        this.fromSidecar = fromSidecar;
        boolean any = false;
        for (int length : lengths) {
            any |= length < 0;
        }
        this.damaged = any;
    }

    /** The sidecar of {@code file} in {@code dir}, or beside the file if {@code dir} is null. */
    public static Path sidecarFor(Path file, Path dir) {
        String name = file.getFileName() + SUFFIX;
        return dir == null ? file.resolveSibling(name) : dir.resolve(name);
    }

    /**
     * Scans every frame of {@code file}, a mapping of {@code path}, with every check of
     * {@code frames}.
     *
     * @throws org.dataloader4j.api.CorruptDataException if a frame is damaged, or the file was
     *         cut short after it was mapped, naming the record the new end cuts
     * @throws IllegalArgumentException if the file holds more than {@code Integer.MAX_VALUE - 8} records
     */
    public static RecordIndex scan(MemorySegment file, FrameReader frames, Path path) {
        return scan(file, frames, path, true);
    }

    /**
     * Indexes every frame of {@code file}, a mapping of {@code path}, by its header alone
     * ({@link FrameReader#headerLength}): a line or two read per record, the payloads left for the
     * parse threads to check as they decode them. A damaged frame does not stop the scan: it
     * becomes an entry of length -1 at its offset, the scan goes on where the format's
     * {@link FrameReader#afterDamage} says (as a reader that skips corrupt records does), and
     * whoever reads that entry checks the frame again and gets its error. So records keep the
     * numbers a sequential reader gives them.
     *
     * @throws org.dataloader4j.api.CorruptDataException if the file was cut short after it was mapped
     * @throws IllegalArgumentException if the file holds more than {@code Integer.MAX_VALUE - 8} records
     */
    public static RecordIndex scanHeaders(MemorySegment file, FrameReader frames, Path path) {
        return scan(file, frames, path, false);
    }

    /**
     * {@link #scanHeaders(MemorySegment, FrameReader, Path)} of a file's bytes held in memory
     * (read from a remote store), named {@code name} in errors.
     */
    public static RecordIndex scanHeaders(MemorySegment bytes, FrameReader frames, String name) {
        return scan(bytes, frames, null, name, false);
    }

    /** {@link #scan(MemorySegment, FrameReader, Path)} if {@code strict}, else {@link #scanHeaders}. */
    private static RecordIndex scan(MemorySegment file, FrameReader frames, Path path, boolean strict) {
        return scan(file, frames, path, path.toString(), strict);
    }

    /** The scan of {@code file}, mapped from {@code path}, or held in memory if {@code path} is null. */
    private static RecordIndex scan(MemorySegment file, FrameReader frames, Path path, String name, boolean strict) {
        long[] offsets = new long[16];
        int[] lengths = new int[16];
        int n = 0;
        long frameBytes = frames.headerBytes() + frames.footerBytes();
        long lastBytes = 0;
        // Where a strict scan leaves the payload unread, each frame's last byte is read, so that
        // a file cut short after it was mapped fails at the frame the cut falls in, as the readers
        // do (MappedRecordLocator), not at the next one.
        boolean readLastByte = strict && !frames.readsPayload();
        long size = file.byteSize();
        long offset = 0;
        try {
            for (; offset < size; n++) {
                int length;
                long next;
                try {
                    length = strict ? frames.payloadLength(file, offset, name, n) : frames.headerLength(file, offset, name, n);
                    next = offset + frameBytes + length;
                    if (readLastByte) {
                        lastBytes += file.get(ValueLayout.JAVA_BYTE, next - 1);
                    }
                } catch (CorruptDataException e) {
                    if (strict) {
                        throw e;
                    }
                    length = -1;
                    next = Math.min(size, Math.max(offset + 1, frames.afterDamage(file, offset)));
                }
                if (n == offsets.length) {
                    if (n >= Integer.MAX_VALUE - 16) {
                        throw new IllegalArgumentException("too many records to index in " + name + ": records>" + n);
                    }
                    int grown = (int) Math.min(Integer.MAX_VALUE - 8L, n * 2L);
                    offsets = Arrays.copyOf(offsets, grown);
                    lengths = Arrays.copyOf(lengths, grown);
                }
                offsets[n] = offset;
                lengths[n] = length;
                offset = next;
            }
        } catch (InternalError e) {
            if (path == null) {
                throw e;
            }
            // The JVM may report a fault in a read of the mapping a little after the read: the
            // record named is the first whose frame the file's new end cuts, else the one at hand.
            int cut = n;
            long at = offset;
            try {
                long now = Files.size(path);
                for (int i = 0; i < n; i++) {
                    if (offsets[i] + frameBytes + Math.max(0, lengths[i]) > now) {
                        cut = i;
                        at = offsets[i];
                        break;
                    }
                }
            } catch (IOException unreadable) {
                e.addSuppressed(unreadable);
            }
            throw MappedFiles.shrunk(path, size, cut, at, e);
        }
        RecordIndex index = new RecordIndex(Arrays.copyOf(offsets, n), Arrays.copyOf(lengths, n), frames.headerBytes(), false);
        index.lastBytes = lastBytes;
        return index;
    }

    /**
     * The index of {@code file}, mapped as {@code mapping}: read from {@code sidecar} if it is
     * fresh and sound, otherwise {@linkplain #scan scanned} with every check and written there (if
     * it can be).
     *
     * @param sidecar where the index is kept, e.g. {@link #sidecarFor}; null to keep it in memory only
     * @throws org.dataloader4j.api.CorruptDataException if the file must be scanned and a frame is damaged
     */
    public static RecordIndex open(Path file, MemorySegment mapping, FrameReader frames, Path sidecar) {
        return open(file, mapping, frames, sidecar, true);
    }

    /**
     * The index of {@code file} for reading: as {@link #open}, but {@linkplain #scanHeaders
     * scanned by the headers}, and written to the sidecar only if no frame is damaged (a sidecar
     * describes a sound file).
     *
     * @param sidecar where the index is kept, e.g. {@link #sidecarFor}; null to keep it in memory only
     */
    public static RecordIndex openHeaders(Path file, MemorySegment mapping, FrameReader frames, Path sidecar) {
        return open(file, mapping, frames, sidecar, false);
    }

    private static RecordIndex open(Path file, MemorySegment mapping, FrameReader frames, Path sidecar, boolean strict) {
        long size = mapping.byteSize();
        long mtime;
        try {
            mtime = Files.getLastModifiedTime(file).to(TimeUnit.NANOSECONDS);
        } catch (IOException e) {
            LOG.debug("cannot stat {}, not using a sidecar", file, e);
            return scan(mapping, frames, file, strict);
        }
        if (sidecar != null) {
            RecordIndex read = read(sidecar, frames, size, mtime);
            if (read != null) {
                return read;
            }
        }
        RecordIndex index = scan(mapping, frames, file, strict);
        if (sidecar != null && !index.damaged) {
            index.write(sidecar, frames.ruleId(), size, mtime);
        }
        return index;
    }

    /** The index in {@code sidecar}, or null if it is missing, stale or damaged. */
    static RecordIndex read(Path sidecar, FrameReader frames, long size, long mtime) {
        byte[] bytes;
        try {
            if (!Files.isRegularFile(sidecar) || Files.size(sidecar) > Integer.MAX_VALUE - 8) {
                return null;
            }
            bytes = Files.readAllBytes(sidecar);
        } catch (IOException e) {
            LOG.debug("cannot read index sidecar {}, scanning", sidecar, e);
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < HEADER + 4 || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)
                || b.getInt(8) != VERSION || b.getInt(12) != frames.ruleId()
                || b.getLong(16) != size || b.getLong(24) != mtime) {
            LOG.debug("index sidecar {} is stale or not an index, scanning", sidecar);
            return null;
        }
        long count = b.getLong(32);
        if (count < 0 || count != (bytes.length - HEADER - 4L) / 4 || (bytes.length - HEADER - 4L) % 4 != 0
                || crc(bytes, bytes.length - 4) != b.getInt(bytes.length - 4)) {
            LOG.debug("index sidecar {} is damaged, scanning", sidecar);
            return null;
        }
        int n = (int) count;
        long[] offsets = new long[n];
        int[] lengths = new int[n];
        long offset = 0;
        long frameBytes = frames.headerBytes() + frames.footerBytes();
        for (int i = 0; i < n; i++) {
            int length = b.getInt(HEADER + 4 * i);
            if (length < 0 || offset + frameBytes + length > size) {
                LOG.debug("index sidecar {} does not fit its file at record {}, scanning", sidecar, i);
                return null;
            }
            offsets[i] = offset;
            lengths[i] = length;
            offset += frameBytes + length;
        }
        if (offset != size) {
            LOG.debug("index sidecar {} covers {} of {} bytes, scanning", sidecar, offset, size);
            return null;
        }
        return new RecordIndex(offsets, lengths, frames.headerBytes(), true);
    }

    /**
     * The sidecar of remote file {@code location} in the local cache folder {@code dir}: named
     * after the file and a hash of its whole location, so that files of the same name in other
     * folders or stores do not share one. Its header holds the file's length and modification
     * time, so a stale one is never read ({@link #read}).
     */
    public static Path cachedSidecar(String location, String name, Path dir) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(location.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return dir.resolve(name + "-" + Long.toHexString(crc.getValue() << 32 | location.hashCode() & 0xffffffffL) + SUFFIX);
    }

    /** Whether a frame is damaged: the index covers the records before it, and is not written to a sidecar. */
    public boolean damaged() {
        return damaged;
    }

    /** Writes this index to {@code sidecar} atomically, or logs why it cannot. */
    void write(Path sidecar, int ruleId, long size, long mtime) {
        int n = lengths.length;
        ByteBuffer b = ByteBuffer.allocate(HEADER + 4 * n + 4).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(VERSION).putInt(ruleId).putLong(size).putLong(mtime).putLong(n);
        for (int length : lengths) {
            b.putInt(length);
        }
        b.putInt(crc(b.array(), b.position()));
        Path temp = null;
        try {
            Path dir = sidecar.toAbsolutePath().getParent();
            temp = Files.createTempFile(dir, sidecar.getFileName().toString(), ".tmp");
            Files.write(temp, b.array());
            try {
                Files.move(temp, sidecar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, sidecar, StandardCopyOption.REPLACE_EXISTING);
            }
            temp = null;
        } catch (IOException | SecurityException e) {
            LOG.debug("cannot write index sidecar {}, keeping the index in memory", sidecar, e);
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException e) {
                    LOG.debug("cannot delete {}", temp, e);
                }
            }
        }
    }

    private static int crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }

    /** The number of records. */
    public int size() {
        return lengths.length;
    }

    /** The byte offset of record {@code i}'s frame. */
    public long offset(int i) {
        return offsets[i];
    }

    /** The byte offset of record {@code i}'s payload. */
    public long payloadOffset(int i) {
        return offsets[i] + headerBytes;
    }

    /** The length of record {@code i}'s payload, or -1 if its frame is damaged ({@link #scanHeaders}). */
    public int length(int i) {
        return lengths[i];
    }

    /** Whether this index was read from a sidecar rather than scanned. */
    public boolean fromSidecar() {
        return fromSidecar;
    }

    /** Record {@code i} of {@code mapping}, the file this index describes, as a zero-copy slice. */
    public RecordSlice slice(MemorySegment mapping, String name, int i) {
        return new RecordSlice(mapping, payloadOffset(i), lengths[i], name, i, offsets[i]);
    }
}
