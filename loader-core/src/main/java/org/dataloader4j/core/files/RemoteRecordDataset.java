package org.dataloader4j.core.files;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.RandomAccessDataset;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.core.dataset.Checks;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.dataset.SampleAtATimeDataset;

/**
 * The records of remote {@link RecordFiles} by index, counted across the files in the order given:
 * the remote counterpart of {@link IndexedRecordDataset}, with the same states, for the decorators
 * that fetch records by index ({@link org.dataloader4j.core.dataset.DistributedTrainingDataset}).
 *
 * <p>Records asked for one at a time would cost a round trip each. So the records {@link #prefetch}
 * names are fetched together, as a reader's batches are ({@link FetchedRecords}: sorted, merged,
 * one range read per file), as soon as they are named and the fetches before them not yet taken
 * hold less than {@link #FETCHING_BYTES}; {@link #at} then finds them fetched, or waits for their
 * read. {@link #next()} names its next records itself. An index not named is
 * fetched alone; a fetch whose records are passed over (a caller that asks for a later one first)
 * is dropped.
 *
 * <p>The records are {@link RecordSlice}s of heap arrays, one array per fetch, each frame checked
 * as it is taken: valid for as long as anyone holds them, even after {@link #close()}.
 * Single-threaded; owns and closes the files.
 */
public final class RemoteRecordDataset extends SampleAtATimeDataset<RecordSlice> implements RandomAccessDataset<RecordSlice> {
    /** The records {@link #next()} names at a time. */
    static final int READ_AHEAD = 256;
    /** A fetch holds at most this many bytes of frames; a longer list of records is fetched in parts. */
    static final long FETCH_BYTES = 32 << 20;
    /**
     * The bytes of the fetches under way and not yet taken: a fetch named beyond them waits to
     * start until earlier ones are taken (the first one named always starts).
     */
    static final long FETCHING_BYTES = 2 * FETCH_BYTES;
    /** The fetches named and not yet taken that are kept; older ones are dropped, their records fetched alone if asked. */
    private static final int MAX_PENDING = 64;

    private final RecordFiles files;
    private final long epochs;
    /** starts[f] is the index of file f's first record; starts[files] is the total. */
    private final long[] starts;
    private final RecordLocations locations;
    /** The fetches started by {@link #prefetch}, oldest first, each with the records it was asked for. */
    private final ArrayDeque<Fetch> pending = new ArrayDeque<>();
    private final long[] ahead = new long[READ_AHEAD];
    private long epoch;
    private long position;
    /** The first index of the epoch that {@link #next()} has not named yet. */
    private long named;
    private boolean ended;
    private boolean closed;

    /** One fetch of records, its frames' bytes, whether it has started, and how many of them {@link #at} has taken. */
    private static final class Fetch {
        final FetchedRecords records;
        final long[] numbers;
        final long bytes;
        boolean started;
        int taken;

        Fetch(FetchedRecords records, long[] numbers, long bytes) {
            this.records = records;
            this.numbers = numbers;
            this.bytes = bytes;
        }
    }

    /**
     * The records of the remote {@code files}, for {@code epochs} epochs ({@link Dataset#FOREVER}
     * for no end); the dataset owns the files.
     *
     * @throws IllegalArgumentException if the files are local or {@code epochs} is out of range
     */
    public RemoteRecordDataset(RecordFiles files, long epochs) {
        if (!files.remote()) {
            throw new IllegalArgumentException("local files are read by IndexedRecordDataset: " + files.names());
        }
        this.files = files;
        this.epochs = Checks.epochs(epochs);
        List<String> names = files.names();
        this.starts = new long[names.size() + 1];
        for (int f = 0; f < names.size(); f++) {
            starts[f + 1] = starts[f] + files.records(f);
        }
        this.locations = RecordLocations.ofNames(names);
    }

    @Override
    public long size() {
        return starts[starts.length - 1];
    }

    /** The range reads started so far, and the ranges they read ({@link RecordFiles#readCounts()}). */
    public long[] readCounts() {
        return files.readCounts();
    }

    /**
     * Fetches records {@code indices[0 .. count)}, in parts of at most {@link #FETCH_BYTES}, each
     * started as soon as the parts named before it and not yet taken hold less than
     * {@link #FETCHING_BYTES}.
     *
     * @throws IndexOutOfBoundsException if an index is not in {@code [0, size())}
     */
    @Override
    public void prefetch(long[] indices, int count) {
        checkOpen();
        int from = 0;
        while (from < count) {
            long bytes = 0;
            int to = from;
            while (to < count && (to == from || bytes + frameBytes(indices[to]) <= FETCH_BYTES)) {
                bytes += frameBytes(indices[to]);
                to++;
            }
            long[] numbers = new long[to - from];
            for (int i = from; i < to; i++) {
                numbers[i - from] = number(indices[i]);
            }
            if (pending.size() == MAX_PENDING) {
                pending.removeFirst();
            }
            pending.addLast(new Fetch(files.newFreshFetch(), numbers, bytes));
            from = to;
        }
        startWithinBudget();
    }

    /** Starts the fetches not yet started, oldest first, while those started and not taken hold less than {@link #FETCHING_BYTES}. */
    private void startWithinBudget() {
        long fetching = 0;
        for (Fetch fetch : pending) {
            if (!fetch.started) {
                if (fetching > 0 && fetching + fetch.bytes > FETCHING_BYTES) {
                    return;
                }
                fetch.records.start(fetch.numbers, fetch.numbers.length);
                fetch.started = true;
            }
            fetching += fetch.bytes;
        }
    }

    /**
     * Record {@code index}, counted across the files in the order given: taken from a fetch if it
     * is the next record one was asked for, else fetched alone.
     *
     * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, size())}
     * @throws IllegalStateException if the dataset is closed
     * @throws org.dataloader4j.api.CorruptDataException naming file, record and offset if the frame is damaged
     * @throws org.dataloader4j.api.StorageException naming them if the file cannot be read
     */
    @Override
    public RecordSlice at(long index) {
        checkOpen();
        return slice(number(index));
    }

    /**
     * Record {@code number}: the next record of the first fetch whose next record it is (the
     * fetches before that one were passed over, and are dropped), else fetched alone.
     */
    private RecordSlice slice(long number) {
        RecordView view = new RecordView();
        Fetch match = null;
        for (Fetch fetch : pending) {
            if (fetch.numbers[fetch.taken] == number) {
                match = fetch;
                break;
            }
        }
        if (match == null) {
            files.load(number, view, true);
        } else {
            while (pending.peekFirst() != match) {
                pending.removeFirst();
            }
            startWithinBudget();
            match.records.load(match.taken, number, view, true);
            if (++match.taken == match.numbers.length) {
                pending.removeFirst();
                startWithinBudget();
            }
        }
        return new RecordSlice(view.source(), view.start(), view.length(), view.file(), view.index(), view.offset());
    }

    /** The number ({@link RecordLocations#number}) of record {@code index}. */
    private long number(long index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException("index out of range: index=" + index + ", size=" + size());
        }
        int file = IndexedRecordDataset.fileAt(starts, index);
        return RecordLocations.number(file, index - starts[file]);
    }

    private long frameBytes(long index) {
        long number = number(index);
        return files.frameBytes(RecordLocations.fileOf(number), (int) RecordLocations.recordOf(number));
    }

    @Override
    protected RecordSlice nextSample() {
        if (ended) {
            return null;
        }
        if (position == size()) {
            if (size() == 0 || (epochs != Dataset.FOREVER && epoch + 1 >= epochs)) {
                ended = true;
                return null;
            }
            epoch++;
            position = 0;
            named = 0;
        }
        if (position >= named) {
            int count = (int) Math.min(READ_AHEAD, size() - position);
            for (int i = 0; i < count; i++) {
                ahead[i] = position + i;
            }
            prefetch(ahead, count);
            named = position + count;
        }
        return at(position++);
    }

    /**
     * Locates a record as the local readers do ({@link RecordLocations}: its number and its
     * frame's offset), and fetches records again by their locations, together.
     */
    @Override
    public Optional<SampleLocator<RecordSlice>> locator() {
        return Optional.of(locations.locator(this::fetch));
    }

    /** The records at {@code located} ({@link RecordLocations}), fetched together. */
    private List<RecordSlice> fetch(long[] located) {
        long[] indices = new long[located.length / RecordLocations.WIDTH];
        for (int i = 0; i < indices.length; i++) {
            indices[i] = indexOf(locations.file(located, i), RecordLocations.record(located, i), RecordLocations.offset(located, i));
        }
        prefetch(indices, indices.length);
        List<RecordSlice> out = new ArrayList<>(indices.length);
        for (long index : indices) {
            out.add(at(index));
        }
        return out;
    }

    /** The index of record {@code record} of file {@code file}, whose frame is at {@code offset}. */
    private long indexOf(int file, long record, long offset) {
        if (record >= files.records(file) || files.index(file).offset((int) record) != offset) {
            throw new IllegalArgumentException("no record " + record + " at offset " + offset + " in "
                    + files.names().get(file));
        }
        return starts[file] + record;
    }

    @Override
    public long epoch() {
        return epoch;
    }

    /** The state of {@link IndexedRecordDataset}: the epoch and the next record. */
    @Override
    public DatasetState state() {
        return IndexedRecordDataset.state(epoch, position, ended);
    }

    /** {@inheritDoc} A record of -1 is the end. */
    @Override
    public void restore(DatasetState state) {
        long[] restored = IndexedRecordDataset.restored(state, size(), epochs);
        epoch = restored[0];
        ended = restored[1] == -1;
        position = ended ? size() : restored[1];
        named = position;
        pending.clear();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("remote record dataset is closed: files=" + files.names());
        }
    }

    /** Closes the files (after the reads under way, {@link RemoteFiles#close()}); the slices handed out stay valid. Idempotent. */
    @Override
    public void close() {
        closed = true;
        pending.clear();
        files.close();
    }
}
