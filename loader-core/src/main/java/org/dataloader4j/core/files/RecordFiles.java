package org.dataloader4j.core.files;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.store.FileStore;
import org.dataloader4j.format.store.StoredFile;

/**
 * Record files opened for reading by record number: each file mapped once and indexed once (from
 * its sidecar where that is fresh, otherwise by a scan of its frames' headers, files scanned in
 * parallel), for as long as the reader lives. A record is named by one {@code long}, its file's
 * position in the list and its index in the file ({@link RecordLocations#number}), so that a
 * reader's load thread can shuffle and batch records as numbers, touching no record bytes.
 *
 * <p>Whoever decodes a record {@link #load loads} it, on its own thread: its frame is checked there
 * with every check of the format ({@link FrameReader#payloadLength}: lengths, CRCs) and against its
 * index entry, and a damaged frame fails there, naming file, record and offset. So the checks run
 * on the parse threads, side by side, and page faults fall where the bytes are copied.
 *
 * <p>Remote files ({@link #open(FileStore, List, FrameReader, Path, String, int)}) are indexed
 * the same way, and their records fetched by batch rather than mapped ({@link RemoteFiles},
 * {@link FetchedRecords}); {@link #load} and {@link #slice} then fetch the one record.
 *
 * <p>{@link #load} and {@link #slice} may be called from any thread until {@link #close()}.
 */
public final class RecordFiles implements AutoCloseable {
    /** The local files, or null for remote ones. */
    private final List<Path> files;
    private final String[] names;
    /** The files' names alone (their paths' last segments), which a reader's state is checked against. */
    private final List<String> fileNames;
    /** The local files' mappings, or null for remote ones. */
    private final MappedFiles mappings;
    /** The remote files, or null for local ones. */
    private final RemoteFiles remote;
    private final FrameReader frames;
    private final RecordIndex[] indexes;
    private final long size;

    private RecordFiles(List<Path> files, MappedFiles mappings, FrameReader frames, RecordIndex[] indexes) {
        this(files, files.stream().map(Path::toString).toList(), files.stream().map(RecordFiles::fileName).toList(),
                mappings, null, frames, indexes);
    }

    private RecordFiles(RemoteFiles remote) {
        this(null, remote.files().stream().map(StoredFile::toString).toList(),
                remote.files().stream().map(StoredFile::name).toList(), null, remote, remote.frames(),
                java.util.stream.IntStream.range(0, remote.files().size()).mapToObj(remote::index).toArray(RecordIndex[]::new));
    }

    private RecordFiles(List<Path> files, List<String> names, List<String> fileNames, MappedFiles mappings,
                        RemoteFiles remote, FrameReader frames, RecordIndex[] indexes) {
        this.files = files;
        this.names = names.toArray(String[]::new);
        this.fileNames = List.copyOf(fileNames);
        this.mappings = mappings;
        this.remote = remote;
        this.frames = frames;
        this.indexes = indexes;
        long total = 0;
        for (RecordIndex index : indexes) {
            total += index.size();
        }
        this.size = total;
    }

    /**
     * Maps and indexes {@code files} ({@link RecordIndex#openHeaders}), the scans split over up to
     * {@code threads} threads named {@code name-1} and up, which end before this returns.
     *
     * @param indexDir where the sidecars are kept, or null to keep each beside its file
     * @throws IllegalArgumentException if there are no files, or more than {@link RecordLocations} numbers
     * @throws java.io.UncheckedIOException if a file cannot be mapped
     */
    public static RecordFiles open(List<Path> files, FrameReader frames, Path indexDir, String name, int threads) {
        List<Path> list = List.copyOf(files);
        if (list.isEmpty()) {
            throw new IllegalArgumentException("a dataset needs at least one file");
        }
        RecordLocations.checkFiles(list.size());
        MappedFiles mappings = new MappedFiles(list);
        RecordIndex[] indexes = new RecordIndex[list.size()];
        try (MultiThreadLoop loop = new MultiThreadLoop(name, Math.max(1, Math.min(threads, list.size())))) {
            loop.forEach(list.size(), f -> {
                Path file = list.get(f);
                indexes[f] = RecordIndex.openHeaders(file, mappings.get(f), frames, RecordIndex.sidecarFor(file, indexDir));
            });
        } catch (RuntimeException | Error e) {
            mappings.close();
            throw e;
        }
        return new RecordFiles(list, mappings, frames, indexes);
    }

    /**
     * Indexes {@code files} of the remote {@code store} ({@link RemoteFiles}: from sidecars cached
     * in {@code cacheDir}, else by reading each file once), side by side on up to {@code threads}
     * threads named {@code name-1} and up. The result owns the store.
     *
     * @param cacheDir the local folder of the sidecars, or null to keep the indexes in memory
     * @throws IllegalArgumentException if there are no files, or more than {@link RecordLocations} numbers
     * @throws org.dataloader4j.api.StorageException naming a file that cannot be read
     */
    public static RecordFiles open(FileStore store, List<StoredFile> files, FrameReader frames, Path cacheDir, String name,
                                   int threads) {
        return open(store, files, frames, null, cacheDir, name, threads);
    }

    /**
     * As {@link #open(FileStore, List, FrameReader, Path, String, int)}; with {@code detect} (the
     * files' framing, else null) a compressed file is told by its name or first bytes, as a local
     * file's compression is detected, before it is indexed.
     *
     * @throws CompressedFileException naming a compressed file, if {@code detect} is given (the store is then closed)
     */
    public static RecordFiles open(FileStore store, List<StoredFile> files, FrameReader frames, Framing detect,
                                   Path cacheDir, String name, int threads) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("a dataset needs at least one file");
        }
        RecordLocations.checkFiles(files.size());
        return new RecordFiles(RemoteFiles.open(store, files, frames, detect, cacheDir, name, threads));
    }

    private static String fileName(Path file) {
        Path name = file.getFileName();
        return (name == null ? file : name).toString();
    }

    /** The files as shown in errors, in the order given. */
    public List<String> names() {
        return List.of(names);
    }

    /** The files' names alone (the last segment of each path), in the order given. */
    public List<String> fileNames() {
        return fileNames;
    }

    /** Whether the files are remote: their records are fetched by batch ({@link FetchedRecords}), not mapped. */
    public boolean remote() {
        return remote != null;
    }

    /**
     * The range reads of remote files started so far, and the ranges they read: {@code {reads,
     * ranges}}; {@code {0, 0}} for local files.
     */
    public long[] readCounts() {
        return remote == null ? new long[2] : remote.readCounts();
    }

    /** Fetching of a batch's records, for a {@link RecordBatch} of remote files. */
    FetchedRecords newFetch() {
        return new FetchedRecords(remote);
    }

    /** Fetching of records into a new heap array each time, for slices handed out ({@link RemoteRecordDataset}). */
    FetchedRecords newFreshFetch() {
        return new FetchedRecords(remote, true);
    }

    /** The bytes of file {@code file}. */
    private long fileSize(int file) {
        return remote != null ? remote.size(file) : mappings.get(file).byteSize();
    }

    /** The index of file {@code file}, in the order given. */
    public RecordIndex index(int file) {
        return indexes[file];
    }

    /** The records of file {@code file}. */
    public int records(int file) {
        return indexes[file].size();
    }

    /** The records of every file. */
    public long size() {
        return size;
    }

    /**
     * The number of the record after record {@code number} in the files: the next of its file,
     * else the first of the next file that has records, coming round from the last file to the
     * first (to {@code number} itself if it is the only record).
     */
    long after(long number) {
        int file = RecordLocations.fileOf(number);
        long record = RecordLocations.recordOf(number) + 1;
        while (record >= indexes[file].size()) {
            file = (file + 1) % indexes.length;
            record = 0;
        }
        return RecordLocations.number(file, record);
    }

    /** The bytes of record {@code record} of file {@code file} in its file, frame included, up to the next frame. */
    long frameBytes(int file, int record) {
        RecordIndex index = indexes[file];
        long end = record + 1 < index.size() ? index.offset(record + 1) : fileSize(file);
        return end - index.offset(record);
    }

    /**
     * Points {@code into} at record {@code number} ({@link RecordLocations#number}). With
     * {@code check}, its frame is checked first with every check of the format, and its length
     * against the index.
     *
     * @throws CorruptDataException naming file, record and offset if {@code check} and the frame
     *         is damaged, or the file was changed or cut short after it was indexed
     */
    public void load(long number, RecordView into, boolean check) {
        if (remote != null) {
            int file = RecordLocations.fileOf(number);
            remote.view(remote.fetchAlone(file, (int) RecordLocations.recordOf(number)), number, into, check);
            return;
        }
        int file = RecordLocations.fileOf(number);
        int record = (int) RecordLocations.recordOf(number);
        RecordIndex index = indexes[file];
        MemorySegment mapping = mappings.get(file);
        long offset = index.offset(record);
        int length = index.length(record);
        // Named first: a fault reading a mapping may be reported a little after the read that
        // took it, so whoever catches it finds the record in the view.
        into.set(mapping, offset + frames.headerBytes(), length, names[file], record, offset);
        if (check) {
            into.keepRead(checkFrame(file, record, offset, length, mapping));
        }
    }

    /** Checks the frame; returns its last byte where the format's check did not read the payload, else 0. */
    private byte checkFrame(int file, int record, long offset, int indexed, MemorySegment mapping) {
        int length;
        byte last = 0;
        try {
            length = frames.payloadLength(mapping, offset, names[file], record);
            if (!frames.readsPayload() && length == indexed && length > 0) {
                // The frame's last byte: a file cut short after it was mapped fails here, naming
                // the record the cut falls in, not in the decoding of its payload.
                last = mapping.get(ValueLayout.JAVA_BYTE, offset + frames.headerBytes() + length - 1);
            }
        } catch (InternalError e) {
            throw MappedFiles.shrunk(files.get(file), mapping.byteSize(), record, offset, e);
        }
        if (length != indexed) {
            throw new CorruptDataException(names[file], record, offset, "the frame's length is " + length
                    + " but was " + indexed + " when the file was indexed: the file changed after it was opened");
        }
        return last;
    }

    /**
     * Null if the file of record {@code number} has the size it had when mapped; else the error
     * naming that record, with {@code cause}: the file changed while being read, so its records are
     * no longer those indexed, and none of them can be told good.
     */
    CorruptDataException changed(long number, CorruptDataException cause) {
        int file = RecordLocations.fileOf(number);
        long now;
        if (remote != null) {
            now = remote.currentSize(file);
        } else {
            try {
                now = Files.size(files.get(file));
            } catch (IOException e) {
                now = -1;
            }
        }
        long mapped = fileSize(file);
        if (now == mapped) {
            return null;
        }
        int record = (int) RecordLocations.recordOf(number);
        return FrameErrors.unchecked(CorruptRecordException.fileChanged(names[file], record, indexes[file].offset(record),
                mapped, now, cause));
    }

    /** Record {@code number}, checked as {@link #load} checks it, as a slice of its file's mapping. */
    public RecordSlice slice(long number) {
        RecordView view = new RecordView();
        load(number, view, true);
        return new RecordSlice(view.source(), view.start(), view.length(), view.file(), view.index(), view.offset());
    }

    /** The segment holding record {@code number}'s payload, of a local file; unchecked. */
    MemorySegment source(long number) {
        return mappings.get(RecordLocations.fileOf(number));
    }

    /** Where record {@code number}'s payload starts in its {@link #source}; unchecked. */
    long start(long number) {
        return indexes[RecordLocations.fileOf(number)].payloadOffset((int) RecordLocations.recordOf(number));
    }

    /** Record {@code number}'s payload length as indexed, 0 for a damaged frame; unchecked. */
    int length(long number) {
        return Math.max(0, indexes[RecordLocations.fileOf(number)].length((int) RecordLocations.recordOf(number)));
    }

    /** Unmaps every file, or closes the remote store; records loaded before become invalid. Idempotent. */
    @Override
    public void close() {
        if (remote != null) {
            remote.close();
        } else {
            mappings.close();
        }
    }
}
