package org.dataloader4j.core.files;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.Objects;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.api.StorageException;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.SampleAtATimeDataset;
import org.dataloader4j.core.dataset.SampleRecycler;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.RecordReader;
import org.dataloader4j.format.store.FileStore;
import org.dataloader4j.format.store.StoredFile;

/**
 * The records of files in a {@link FileStore} read one after another through the store's
 * sequential streams ({@link FileStore#open}, which read ahead in blocks): the way to read files
 * whose records cannot be fetched by location, compressed ones, from a remote store. The files
 * are visited in the order of a {@link FileCursor} over their names, so the states are those of
 * the local readers of the same files; a resume inside a file reads it again from its start and
 * drops the records read before.
 *
 * <p>A record that does not frame is a {@link CorruptDataException}, after which the next call
 * goes on with the next file (a stream cannot be resynchronised); a file the store cannot read is
 * a {@link StorageException} naming it and the offset in its decompressed records. Single-threaded;
 * the dataset owns the store and closes it.
 */
public final class StreamedRecordDataset extends SampleAtATimeDataset<RecordSlice> implements SampleRecycler<RecordSlice> {
    private final FileStore store;
    private final List<StoredFile> files;
    private final Framing framing;
    private final Compression compression;
    private final boolean verifyCrc;
    private final String kind;
    private final FileCursor cursor;
    /** The records' locations, by the files' names as records show them. */
    private final RecordLocations locations;
    /** The payloads, in chunks used again once recycled. */
    private final RecordChunks chunks = new RecordChunks();
    private RecordReader stream;

    /**
     * The records of {@code files} of {@code store} in {@code framing}, decompressed as
     * {@code compression} ({@code null}: detected per file from its name and first bytes), for
     * {@code epochs} epochs; {@code kind} names the states, as the local reader of the format does.
     *
     * @throws IllegalArgumentException if there are no files or {@code epochs} is out of range
     */
    public StreamedRecordDataset(FileStore store, List<StoredFile> files, Framing framing, Compression compression,
                                 boolean verifyCrc, long epochs, boolean shuffleAfterEpoch, long seed, String kind) {
        this.store = Objects.requireNonNull(store, "store");
        this.files = List.copyOf(files);
        this.framing = Objects.requireNonNull(framing, "framing");
        this.compression = compression;
        this.verifyCrc = verifyCrc;
        this.kind = Objects.requireNonNull(kind, "kind");
        this.locations = RecordLocations.ofNames(this.files.stream().map(StoredFile::toString).toList());
        this.cursor = FileCursor.ofNames(this.files.stream().map(StoredFile::name).toList(), epochs, shuffleAfterEpoch,
                seed);
    }

    @Override
    protected RecordSlice nextSample() {
        while (!cursor.ended()) {
            if (stream == null) {
                stream = open(cursor.fileIndex(), cursor.record());
            }
            RecordSlice slice = read(stream, cursor.fileIndex());
            if (slice != null) {
                return slice;
            }
            closeStream();
            cursor.nextFile();
        }
        return null;
    }

    /** The stream of file {@code file}, past the first {@code record} records. */
    private RecordReader open(int file, long record) {
        StoredFile stored = files.get(file);
        RecordReader reader;
        try {
            InputStream in = store.open(stored);
            reader = RecordReader.of(in, stored.toString(), framing, compression, verifyCrc);
        } catch (CorruptRecordException e) {
            throw FrameErrors.unchecked(e);
        } catch (IOException e) {
            throw new StorageException(stored.toString(), CorruptDataException.UNKNOWN, 0, e);
        }
        try {
            for (long r = 0; r < record; r++) {
                if (reader.next() == null) {
                    throw new IllegalArgumentException("cannot resume " + stored + " at record " + record
                            + ": it has only " + r + " records");
                }
            }
        } catch (IOException e) {
            RuntimeException failure = failure(e, stored, reader);
            closeQuietly(reader, failure);
            throw failure;
        } catch (RuntimeException e) {
            closeQuietly(reader, e);
            throw e;
        }
        return reader;
    }

    /** The next record of {@code in}, a stream of file {@code file}, or null at its end. */
    private RecordSlice read(RecordReader in, int file) {
        StoredFile stored = files.get(file);
        long index = in.recordsRead();
        long offset = in.offset();
        RecordSlice slice;
        try {
            int length = in.nextLength();
            if (length < 0) {
                return null;
            }
            if (length > RecordChunks.LARGEST) {
                slice = new RecordSlice(MemorySegment.ofArray(in.readPayload()), stored.toString(), index, offset);
            } else {
                in.readPayload(chunks.room(length), chunks.at());
                slice = chunks.take(length, stored.toString(), index, offset);
            }
        } catch (IOException e) {
            RuntimeException failure = failure(e, stored, in);
            if (failure instanceof CorruptDataException) {
                // A stream cannot be resynchronised: the next call goes on with the next file.
                closeStream();
                cursor.nextFile();
            }
            throw failure;
        }
        cursor.advance(in.offset() - offset);
        return slice;
    }

    /** A bad frame as a {@link CorruptDataException}; any other failure to read as a {@link StorageException}. */
    private static RuntimeException failure(IOException e, StoredFile file, RecordReader in) {
        return e instanceof CorruptRecordException c ? FrameErrors.unchecked(c)
                : new StorageException(file.toString(), in.recordsRead(), in.offset(), e);
    }

    private static void closeQuietly(RecordReader reader, Throwable failure) {
        try {
            reader.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private void closeStream() {
        if (stream != null) {
            RecordReader closing = stream;
            stream = null;
            try {
                closing.close();
            } catch (IOException e) {
                // the file is done with: what it held was read or will be read again
            }
        }
    }

    /**
     * Locates a record by its file's number and its index and offset ({@link RecordLocations});
     * fetches records by reading each file they are in once, up to the last record asked for.
     */
    @Override
    public Optional<SampleLocator<RecordSlice>> locator() {
        return Optional.of(locations.locator(this::fetch));
    }

    private List<RecordSlice> fetch(long[] locations) {
        int n = locations.length / RecordLocations.WIDTH;
        RecordSlice[] out = new RecordSlice[n];
        Map<Integer, List<Integer>> byFile = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            byFile.computeIfAbsent(this.locations.file(locations, i), f -> new ArrayList<>()).add(i);
        }
        byFile.forEach((file, wanted) -> {
            wanted.sort(Comparator.comparingLong(i -> RecordLocations.record(locations, i)));
            StoredFile stored = files.get(file);
            long first = RecordLocations.record(locations, wanted.get(0));
            try (RecordReader in = open(file, first)) {
                RecordSlice current = null;
                for (int i : wanted) {
                    long record = RecordLocations.record(locations, i);
                    try {
                        while (current == null || current.index() < record) {
                            current = next(in, stored);
                            if (current == null) {
                                break;
                            }
                        }
                    } catch (IOException e) {
                        throw failure(e, stored, in);
                    }
                    if (current == null || current.index() != record || current.offset() != RecordLocations.offset(locations, i)) {
                        throw new IllegalArgumentException("no record " + record + " at offset "
                                + RecordLocations.offset(locations, i) + " in " + stored);
                    }
                    out[i] = current;
                }
            } catch (IOException e) {
                // closing a stream whose records were all read
            }
        });
        return Arrays.asList(out);
    }

    /** The next record of {@code in}, in an array of its own, or null at its end. */
    private static RecordSlice next(RecordReader in, StoredFile stored) throws IOException {
        long index = in.recordsRead();
        long offset = in.offset();
        RawRecord record = in.next();
        return record == null ? null
                : new RecordSlice(MemorySegment.ofArray(record.payload()), stored.toString(), index, offset);
    }

    /** Takes back records, whose chunks are then used again. */
    @Override
    public void recycle(List<? extends RecordSlice> samples) {
        chunks.recycle(samples);
    }

    @Override
    public long epoch() {
        return cursor.epoch();
    }

    @Override
    public DatasetState state() {
        return cursor.state(kind);
    }

    @Override
    public void restore(DatasetState state) {
        closeStream();
        cursor.restore(state, kind);
    }

    /** Closes the open stream and the store; slices handed out before become invalid. Idempotent. */
    @Override
    public void close() {
        try {
            closeStream();
        } finally {
            chunks.clear();
            try {
                store.close();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot close " + store, e);
            }
        }
    }
}
