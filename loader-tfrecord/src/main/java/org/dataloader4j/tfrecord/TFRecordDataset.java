package org.dataloader4j.tfrecord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.SampleAtATimeDataset;
import org.dataloader4j.core.dataset.SampleRecycler;
import org.dataloader4j.core.files.FileCursor;
import org.dataloader4j.core.files.FrameErrors;
import org.dataloader4j.core.files.MappedFiles;
import org.dataloader4j.core.files.MappedRecordLocator;
import org.dataloader4j.core.files.RecordChunks;
import org.dataloader4j.core.files.RecordLocations;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.RecordReader;
import org.dataloader4j.tfrecord.internal.InflatingLane;

/**
 * The records of TFRecord files, one {@link RecordSlice} per {@link #next()}, file after file,
 * for a number of epochs, with both CRCs of every record checked (unless turned off).
 *
 * <p>An uncompressed file is memory-mapped once, into an arena this dataset owns and closes in
 * {@link #close()}, and a record's data is a slice of the mapping. A GZIP or ZLIB file (chosen
 * per file, or detected from its name and first bytes) is inflated as a stream here, on the load
 * thread, and each record's data is copied to the heap, into chunks that are used again once
 * their records are {@linkplain #recycle recycled} ({@link RecordChunks}); offsets then count in
 * the inflated stream, and resuming inside such a file reads it again up to the saved record.
 *
 * <p>The {@link #locator()} locates a record by its file, index and offset. Fetching a record of
 * a mapped file again reads just that record; fetching records of a compressed file inflates that
 * file once from its start up to the last record asked for (so resuming a shuffle buffer costs one
 * partial pass over each compressed file it holds records of).
 *
 * <p>After a damaged record, a later {@code next()} goes on past it: in a mapped file past the
 * frame if its length checks out, else at the next offset where a whole frame checks out; in a
 * compressed file, which cannot be resynchronised, with the next file.
 *
 * <p>Errors are worded as TensorFlow words them, plus the file and the record, alike for mapped
 * and compressed files ({@link CorruptRecordException}):
 * {@code corrupted record at offset N in FILE (data CRC mismatch); record R},
 * {@code truncated record at offset N in FILE (length L exceeds file size S); record R}.
 * Single-threaded; the slices it returns may be read from any thread until the dataset is
 * closed, or until they are recycled.
 *
 * <p>Longer than most datasets: a TFRecord file is read two ways, mapped or inflated, and both
 * share the cursor, the errors and the state, so they stay in one class.
 */
public final class TFRecordDataset extends SampleAtATimeDataset<RecordSlice> implements SampleRecycler<RecordSlice> {
    static final String KIND = "tfrecord";

    private final FileCursor cursor;
    private final Compression compression;
    private final boolean verifyCrc;
    private final MappedFiles mappings;
    private final MappedRecordLocator records;
    private final Compression[] compressions;
    /** The payloads of compressed files' records, in chunks used again once recycled. */
    private final RecordChunks chunks = new RecordChunks();
    /** How many compressed files are inflated at once, on threads of their own; 0: on the calling thread. */
    private final int lanes;
    /** The blocks each lane may hold. */
    private final int laneBlocks;
    /** The prefix of the lanes' thread names. */
    private final String name;
    /** The lanes inflating the next compressed files, in reading order, each with its visit ({@link FileCursor#visit}). */
    private final ArrayDeque<Lane> ahead = new ArrayDeque<>();
    /** The first visit after those {@link #ahead} has lanes for, or may skip. */
    private long nextAhead;
    private int lanesStarted;
    /** The blocks of lanes closed, for the next lanes. */
    private final Queue<byte[]> spareBlocks = new ConcurrentLinkedQueue<>();
    private RecordReader stream;

    private record Lane(long visit, InflatingLane stream) {
    }

    /**
     * The records of {@code files} for {@code epochs} epochs ({@link #FOREVER} for no end).
     *
     * @param compression the files' compression, or {@code null} to detect it per file
     * @param verifyCrc   whether to check both CRCs of every record
     * @throws IllegalArgumentException if there are no files or {@code epochs} is out of range
     */
    public TFRecordDataset(List<Path> files, long epochs, boolean shuffleAfterEpoch, long seed,
                           Compression compression, boolean verifyCrc) {
        this(files, epochs, shuffleAfterEpoch, seed, compression, verifyCrc, 0, "tfrecord");
    }

    /**
     * As {@link #TFRecordDataset(List, long, boolean, long, Compression, boolean)}, the compressed
     * files inflated on threads named {@code name-inflate-N}, as many at once as there are files
     * or cores, whichever is fewer: the file being read and the next ones in reading order, each
     * into blocks ahead of the reader ({@code InflatingLane}), {@code inflateAheadBytes} of them
     * in all. The records, errors and states are those of inflating on the calling thread
     * ({@code inflateAheadBytes} 0).
     *
     * @throws IllegalArgumentException also if {@code inflateAheadBytes} is negative
     */
    public TFRecordDataset(List<Path> files, long epochs, boolean shuffleAfterEpoch, long seed,
                           Compression compression, boolean verifyCrc, long inflateAheadBytes, String name) {
        if (inflateAheadBytes < 0) {
            throw new IllegalArgumentException("inflateAheadBytes must be >= 0: inflateAheadBytes=" + inflateAheadBytes);
        }
        this.lanes = inflateAheadBytes == 0 ? 0 : Math.min(files.size(), Runtime.getRuntime().availableProcessors());
        this.laneBlocks = lanes == 0 ? 0 : (int) Math.max(2, inflateAheadBytes / lanes / InflatingLane.BLOCK);
        this.name = Objects.requireNonNull(name, "name");
        this.cursor = new FileCursor(files, epochs, shuffleAfterEpoch, seed);
        this.compression = compression;
        this.verifyCrc = verifyCrc;
        this.mappings = new MappedFiles(files);
        this.records = new MappedRecordLocator(files, mappings, TFRecordFrames.of(verifyCrc));
        this.compressions = new Compression[files.size()];
    }

    @Override
    protected RecordSlice nextSample() {
        while (!cursor.ended()) {
            RecordSlice slice = compressionOf(cursor.fileIndex()) == Compression.NONE ? mapped() : streamed();
            if (slice != null) {
                return slice;
            }
            closeStream();
            cursor.nextFile();
        }
        return null;
    }

    /** The next record of the current mapped file, or null at its end. */
    private RecordSlice mapped() {
        if (cursor.offset() == mappings.get(cursor.fileIndex()).byteSize()) {
            return null;
        }
        return records.next(cursor);
    }

    /** The next record of the current compressed file, or null at its end. */
    private RecordSlice streamed() {
        if (stream == null) {
            stream = lanes == 0 ? open(cursor.fileIndex()) : openLane();
            // Resuming inside a compressed file: inflate and skip what was read before.
            skipTo(stream, cursor.fileIndex(), 0, cursor.record());
        }
        RecordSlice slice;
        try {
            slice = readIntoChunk(stream, cursor.fileIndex());
        } catch (CorruptDataException e) {
            // A stream cannot be resynchronised: the next call goes on with the next file.
            closeStream();
            cursor.nextFile();
            throw e;
        }
        if (slice != null) {
            cursor.advance(records.frameBytes(slice));
        }
        return slice;
    }

    private RecordReader open(int file) {
        try {
            return RecordReader.open(cursor.files().get(file), Framing.TFRECORD, compressionOf(file), verifyCrc);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + cursor.files().get(file), e);
        }
    }

    /**
     * The current file read through its lane (started before, if it was among the next files, or
     * now), with lanes started for the next compressed files.
     */
    private RecordReader openLane() {
        long visit = cursor.visit();
        while (!ahead.isEmpty() && ahead.peekFirst().visit() < visit) {
            closeQuietly(ahead.pollFirst().stream());
        }
        InflatingLane lane = !ahead.isEmpty() && ahead.peekFirst().visit() == visit ? ahead.pollFirst().stream()
                : startLane(cursor.fileIndex());
        RecordReader reader;
        try {
            reader = RecordReader.of(lane, cursor.file().toString(), Framing.TFRECORD, Compression.NONE, verifyCrc);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + cursor.file(), e);
        }
        nextAhead = Math.max(nextAhead, visit + 1);
        int files = cursor.files().size();
        while (ahead.size() < lanes - 1 && nextAhead <= visit + files) {
            int file = cursor.upcoming((int) (nextAhead - visit));
            if (file < 0) {
                break;
            }
            if (compressionOf(file) != Compression.NONE) {
                ahead.addLast(new Lane(nextAhead, startLane(file)));
            }
            nextAhead++;
        }
        return reader;
    }

    /** A lane inflating compressed file {@code file} from its start. */
    private InflatingLane startLane(int file) {
        Path path = cursor.files().get(file);
        try {
            return new InflatingLane(compressionOf(file).decompress(Files.newInputStream(path)),
                    name + "-inflate-" + ++lanesStarted, laneBlocks, spareBlocks);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + path, e);
        }
    }

    /** Stops the lanes started ahead. */
    private void closeAhead() {
        while (!ahead.isEmpty()) {
            closeQuietly(ahead.pollFirst().stream());
        }
        nextAhead = 0;
    }

    private static void closeQuietly(InflatingLane lane) {
        try {
            lane.close();
        } catch (IOException e) {
            // a file read ahead and not needed: nothing of it was handed out
        }
    }

    /** The next record of {@code in}, a stream of file {@code file}, or null at its end. */
    private RecordSlice read(RecordReader in, int file) {
        Path path = cursor.files().get(file);
        try {
            RawRecord record = in.next();
            return record == null ? null
                    : new RecordSlice(MemorySegment.ofArray(record.payload()), path.toString(), record.index(), record.offset());
        } catch (IOException e) {
            throw readFailure(e, path);
        }
    }

    /**
     * The next record of {@code in}, a stream of file {@code file}, or null at its end: its payload
     * in a chunk of {@link #chunks}, or in an array of its own if it is longer than a chunk takes.
     */
    private RecordSlice readIntoChunk(RecordReader in, int file) {
        Path path = cursor.files().get(file);
        long index = in.recordsRead();
        long offset = in.offset();
        try {
            int length = in.nextLength();
            if (length < 0) {
                return null;
            }
            if (length > RecordChunks.LARGEST) {
                return new RecordSlice(MemorySegment.ofArray(in.readPayload()), path.toString(), index, offset);
            }
            in.readPayload(chunks.room(length), chunks.at());
            return chunks.take(length, path.toString(), index, offset);
        } catch (IOException e) {
            throw readFailure(e, path);
        }
    }

    /** A bad frame as the {@link CorruptDataException} a mapped file's would be; any other failure to read as it is. */
    private static RuntimeException readFailure(IOException e, Path path) {
        return e instanceof CorruptRecordException c ? FrameErrors.unchecked(c) : new UncheckedIOException("reading " + path, e);
    }

    /** Reads the records of {@code in}, whose next record is {@code next}, up to record {@code record}. */
    private void skipTo(RecordReader in, int file, long next, long record) {
        for (long r = next; r < record; r++) {
            if (read(in, file) == null) {
                throw new IllegalArgumentException("cannot resume " + cursor.files().get(file) + " at record " + record
                        + ": it has only " + r + " records");
            }
        }
    }

    /**
     * Locates a record by its file, index and offset ({@link RecordLocations}); fetches records of
     * compressed files by inflating each such file once, up to the last record asked for.
     */
    @Override
    public Optional<SampleLocator<RecordSlice>> locator() {
        return Optional.of(new SampleLocator<>() {
            @Override
            public int width() {
                return records.width();
            }

            @Override
            public void locate(RecordSlice sample, long[] to, int at) {
                records.locate(sample, to, at);
            }

            @Override
            public List<RecordSlice> fetch(long[] locations) {
                return TFRecordDataset.this.fetch(locations);
            }
        });
    }

    private List<RecordSlice> fetch(long[] locations) {
        int n = locations.length / RecordLocations.WIDTH;
        RecordSlice[] out = new RecordSlice[n];
        Map<Integer, List<Integer>> compressed = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            int file = records.locations().file(locations, i);
            if (compressionOf(file) == Compression.NONE) {
                out[i] = records.at(file, RecordLocations.record(locations, i), RecordLocations.offset(locations, i));
            } else {
                compressed.computeIfAbsent(file, f -> new ArrayList<>()).add(i);
            }
        }
        compressed.forEach((file, wanted) -> {
            wanted.sort(Comparator.comparingLong(i -> RecordLocations.record(locations, i)));
            try (RecordReader in = open(file)) {
                RecordSlice current = null;
                for (int i : wanted) {
                    long record = RecordLocations.record(locations, i);
                    if (current == null || current.index() != record) {
                        skipTo(in, file, current == null ? 0 : current.index() + 1, record);
                        current = read(in, file);
                    }
                    if (current == null || current.offset() != RecordLocations.offset(locations, i)) {
                        throw new IllegalArgumentException("no record " + record + " at offset " + RecordLocations.offset(locations, i)
                                + " in " + cursor.files().get(file));
                    }
                    out[i] = current;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("reading " + cursor.files().get(file), e);
            }
        });
        return Arrays.asList(out);
    }

    private Compression compressionOf(int i) {
        if (compressions[i] == null) {
            compressions[i] = compressionOf(cursor.files().get(i), compression);
        }
        return compressions[i];
    }

    /** {@code given}, or if it is null the compression detected from {@code file}'s name and first bytes. */
    static Compression compressionOf(Path file, Compression given) {
        try {
            return given != null ? given : Compression.detect(file, Framing.TFRECORD);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Takes back records of compressed files, whose chunks are then used again; mapped records need nothing. */
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
        return cursor.state(KIND);
    }

    @Override
    public void restore(DatasetState state) {
        closeStream();
        closeAhead();
        cursor.restore(state, KIND);
    }

    private void closeStream() {
        if (stream != null) {
            try {
                stream.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                stream = null;
            }
        }
    }

    /** Closes the open stream and unmaps every file; slices handed out before become invalid. Idempotent. */
    @Override
    public void close() {
        try {
            closeStream();
        } finally {
            closeAhead();
            spareBlocks.clear();
            chunks.clear();
            mappings.close();
        }
    }
}
