package org.dataloader4j.core.files;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.StorageException;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.store.FileStore;
import org.dataloader4j.format.store.RangeReader;
import org.dataloader4j.format.store.StoredFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Record files kept in a remote {@link FileStore} (HDFS, S3), opened for reading by record
 * number: the remote counterpart of the mappings of {@link RecordFiles}, which it serves.
 *
 * <p>Each file is indexed once: from a sidecar in a local cache folder where one fits the file's
 * length and modification time ({@link RecordIndex#cachedSidecar}), otherwise by reading the file
 * once through the store's read-ahead stream and scanning its frames' headers in memory, as a
 * mapped file is scanned; the sidecar is then written to the cache folder (if there is one; else
 * the index stays in memory). Records are then fetched by batch ({@link FetchedRecords}): the
 * frames a batch needs, sorted and merged where they lie close, in one range read per file.
 *
 * <p>Owns the store, the files' range readers and one shared arena for the batches' buffers;
 * {@link #close()} waits for reads under way, then releases all three. Thread-safe.
 */
final class RemoteFiles implements AutoCloseable {
    /** Neighbouring frames closer than this are read as one range, the bytes between them with them. */
    static final int MERGE_GAP = 64 << 10;
    /** A merged range grows to at most this many bytes. */
    static final int MAX_RANGE = 8 << 20;
    /** The first bytes of a file that tell its compression ({@link Compression#detect(String, byte[], Framing)}). */
    private static final int HEAD_BYTES = 12;
    /** How long {@link #close()} waits for reads under way. */
    private static final long CLOSE_WAIT_SECONDS = 30;
    private static final Logger LOG = LoggerFactory.getLogger(RemoteFiles.class);

    private final FileStore store;
    private final List<StoredFile> files;
    private final String[] names;
    private final FrameReader frames;
    private final RecordIndex[] indexes;
    private final RangeReader[] readers;
    private final Arena arena = Arena.ofShared();
    private final Set<CompletableFuture<Void>> reading = ConcurrentHashMap.newKeySet();
    private final AtomicLong rangeReads = new AtomicLong();
    private final AtomicLong ranges = new AtomicLong();
    private volatile boolean closed;

    private RemoteFiles(FileStore store, List<StoredFile> files, FrameReader frames, RecordIndex[] indexes) {
        this.store = store;
        this.files = files;
        this.names = files.stream().map(StoredFile::toString).toArray(String[]::new);
        this.frames = frames;
        this.indexes = indexes;
        this.readers = new RangeReader[files.size()];
    }

    /**
     * Indexes {@code files} of {@code store} (which the result owns, and closes if this fails), the
     * files indexed side by side on up to {@code threads} threads named {@code name-1} and up.
     *
     * @param detect   the framing of the records if a compressed file is to be told ({@link
     *                 CompressedFileException}) before it is indexed, from its name or first bytes, as
     *                 {@link Compression#detect(String, byte[], Framing)} tells a local file's; null
     *                 to index every file as uncompressed frames
     * @param cacheDir the local folder of the sidecars, or null to keep the indexes in memory
     * @throws StorageException naming a file that cannot be read
     * @throws CompressedFileException naming a compressed file, if {@code detect} is given
     */
    static RemoteFiles open(FileStore store, List<StoredFile> files, FrameReader frames, Framing detect, Path cacheDir,
                            String name, int threads) {
        RecordIndex[] indexes = new RecordIndex[files.size()];
        try (MultiThreadLoop loop = new MultiThreadLoop(name, Math.max(1, Math.min(threads, files.size())))) {
            loop.forEach(files.size(), f -> indexes[f] = index(store, files.get(f), frames, detect, cacheDir));
        } catch (RuntimeException | Error e) {
            closeQuietly(store, e);
            throw e;
        }
        return new RemoteFiles(store, List.copyOf(files), frames, indexes);
    }

    /**
     * The index of {@code file}: its cached sidecar, or a scan of the whole file read once; with
     * {@code detect}, first a look at its name and then at its first bytes as they arrive.
     */
    private static RecordIndex index(FileStore store, StoredFile file, FrameReader frames, Framing detect, Path cacheDir) {
        if (detect != null) {
            checkUncompressed(file, new byte[0], detect);
        }
        long mtime = TimeUnit.MILLISECONDS.toNanos(file.modificationTime());
        Path sidecar = cacheDir == null ? null : RecordIndex.cachedSidecar(file.location().toString(), file.name(), cacheDir);
        if (sidecar != null) {
            RecordIndex cached = RecordIndex.read(sidecar, frames, file.length(), mtime);
            if (cached != null) {
                return cached;
            }
        }
        RecordIndex index;
        try (Arena scan = Arena.ofConfined()) {
            index = RecordIndex.scanHeaders(readWhole(store, file, scan, detect), frames, file.toString());
        }
        if (sidecar != null && !index.damaged()) {
            try {
                Files.createDirectories(sidecar.getParent());
                index.write(sidecar, frames.ruleId(), file.length(), mtime);
            } catch (IOException e) {
                LOG.debug("cannot make the index cache folder {}, keeping the index in memory", cacheDir, e);
            }
        }
        return index;
    }

    /**
     * The whole of {@code file}, read through the store's stream into memory of {@code arena};
     * with {@code detect}, its first bytes are read and checked before the memory for the rest is
     * taken.
     */
    private static MemorySegment readWhole(FileStore store, StoredFile file, Arena arena, Framing detect) {
        long at = 0;
        try (InputStream in = store.open(file)) {
            byte[] head = detect == null ? new byte[0] : in.readNBytes((int) Math.min(HEAD_BYTES, file.length()));
            if (detect != null) {
                checkUncompressed(file, head, detect);
            }
            MemorySegment bytes = arena.allocate(Math.max(1, file.length())).asSlice(0, file.length());
            MemorySegment.copy(head, 0, bytes, ValueLayout.JAVA_BYTE, 0, head.length);
            at = head.length;
            byte[] block = new byte[1 << 20];
            while (at < file.length()) {
                int n = in.read(block, 0, (int) Math.min(block.length, file.length() - at));
                if (n < 0) {
                    throw new EOFException(file + " ends at byte " + at + " of the " + file.length() + " it had when listed");
                }
                MemorySegment.copy(block, 0, bytes, ValueLayout.JAVA_BYTE, at, n);
                at += n;
            }
            return bytes;
        } catch (IOException e) {
            throw new StorageException(file.toString(), CorruptDataException.UNKNOWN, at, e);
        }
    }

    /** Throws if {@code file}, whose first bytes are {@code head}, is compressed, as its name or those bytes say. */
    private static void checkUncompressed(StoredFile file, byte[] head, Framing framing) {
        Compression compression = Compression.detect(file.name(), head, framing);
        if (compression != Compression.NONE) {
            throw new CompressedFileException(file.toString(), compression);
        }
    }

    /** The files, in the order given. */
    List<StoredFile> files() {
        return files;
    }

    /** File {@code file} as shown in errors. */
    String name(int file) {
        return names[file];
    }

    /** The index of file {@code file}. */
    RecordIndex index(int file) {
        return indexes[file];
    }

    /** The length of file {@code file} when it was indexed. */
    long size(int file) {
        return files.get(file).length();
    }

    FrameReader frames() {
        return frames;
    }

    /**
     * The bytes to fetch for record {@code record} of file {@code file}: its frame up to the next
     * (or the file's end), and for a damaged frame at least the header its check reads.
     */
    long fetchBytes(int file, int record) {
        RecordIndex index = indexes[file];
        long offset = index.offset(record);
        long end = record + 1 < index.size() ? index.offset(record + 1) : size(file);
        return Math.max(end - offset, Math.min(frames.headerBytes(), size(file) - offset));
    }

    /**
     * Starts reading ranges of file {@code file} into {@code into}, as {@link RangeReader#read};
     * the future fails with a {@link StorageException} naming the file and the first offset.
     */
    CompletableFuture<Void> read(int file, long[] offsets, ByteBuffer[] into) {
        CompletableFuture<Void> read = start(file, offsets, into);
        rangeReads.incrementAndGet();
        ranges.addAndGet(offsets.length);
        reading.add(read);
        read.whenComplete((done, error) -> reading.remove(read));
        return read;
    }

    private CompletableFuture<Void> start(int file, long[] offsets, ByteBuffer[] into) {
        try {
            return reader(file).read(offsets, into);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private synchronized RangeReader reader(int file) throws IOException {
        if (closed) {
            throw new IOException("the reader of " + names[file] + " is closed");
        }
        if (readers[file] == null) {
            readers[file] = store.ranges(files.get(file));
        }
        return readers[file];
    }

    /**
     * Waits for {@code read} of file {@code file}, then nothing more; the error names record
     * {@code record} at {@code offset}: a file shorter than when it was indexed is a
     * {@link CorruptDataException} (it changed), any other failure a {@link StorageException}.
     */
    void await(CompletableFuture<Void> read, int file, long record, long offset) {
        try {
            read.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException(names[file], record, offset, e);
        } catch (ExecutionException e) {
            throw failure(file, record, offset, e.getCause());
        }
    }

    /** The error for a failed read of record {@code record} of file {@code file}, caused by {@code cause}. */
    RuntimeException failure(int file, long record, long offset, Throwable cause) {
        if (cause instanceof EOFException) {
            long now = currentSize(file);
            if (now != size(file)) {
                return FrameErrors.unchecked(CorruptRecordException.fileChanged(names[file], record, offset, size(file), now,
                        cause));
            }
        }
        return new StorageException(names[file], record, offset, cause);
    }

    /** The length of file {@code file} now, or -1 if it cannot be looked up. */
    long currentSize(int file) {
        try {
            return store.stat(files.get(file).location()).length();
        } catch (IOException e) {
            return -1;
        }
    }

    /** The frame of record {@code record} of file {@code file}, fetched alone into the heap (a round trip for one record). */
    MemorySegment fetchAlone(int file, int record) {
        long offset = indexes[file].offset(record);
        MemorySegment frame = MemorySegment.ofArray(new byte[Math.toIntExact(fetchBytes(file, record))]);
        await(read(file, new long[] {offset}, new ByteBuffer[] {frame.asByteBuffer()}), file, record, offset);
        return frame;
    }

    /**
     * Points {@code into} at record {@code number}, whose fetched frame is {@code frame}. With
     * {@code check}, the frame is checked as a mapped file's is
     * ({@link FrameReader#payloadLength(MemorySegment, long, long, String, long)}), and its length
     * against the index.
     *
     * @throws CorruptDataException naming file, record and offset if the frame is damaged, or the
     *         file changed after it was indexed
     */
    void view(MemorySegment frame, long number, RecordView into, boolean check) {
        int file = RecordLocations.fileOf(number);
        int record = (int) RecordLocations.recordOf(number);
        long offset = indexes[file].offset(record);
        int indexed = indexes[file].length(record);
        int length = Math.max(0, indexed);
        if (check) {
            try {
                length = frames.payloadLength(frame, offset, size(file), names[file], record);
            } catch (IndexOutOfBoundsException e) {
                length = -1;
            }
            if (length != indexed) {
                throw new CorruptDataException(names[file], record, offset, "the frame's length is " + length
                        + " but was " + indexed + " when the file was indexed: the file changed after it was opened");
            }
        }
        into.set(frame, frames.headerBytes(), length, names[file], record, offset);
    }

    /** Fresh memory of {@code bytes} bytes for a batch's records, valid until {@link #close()}. */
    MemorySegment allocate(long bytes) {
        return arena.allocate(Math.max(1, bytes), 8);
    }

    /** The range reads started so far, and the ranges they read: {@code {reads, ranges}}. */
    long[] readCounts() {
        return new long[] {rangeReads.get(), ranges.get()};
    }

    /** Waits (a bounded time) for reads under way, then closes the range readers, the store and the memory. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            CompletableFuture.allOf(reading.toArray(CompletableFuture[]::new)).get(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("reads of {} files ended badly or not in time while closing", files.size(), e);
        }
        IOException failed = null;
        for (RangeReader reader : readers) {
            if (reader != null) {
                try {
                    reader.close();
                } catch (IOException e) {
                    failed = e;
                }
            }
        }
        try {
            store.close();
        } catch (IOException e) {
            failed = e;
        } finally {
            arena.close();
        }
        if (failed != null) {
            throw new UncheckedIOException("closing the store of " + files.size() + " files", failed);
        }
    }

    private static void closeQuietly(FileStore store, Throwable failure) {
        try {
            store.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
