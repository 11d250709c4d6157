package org.dataloader4j.core.files;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.RandomAccessDataset;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.core.dataset.Checks;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.SampleAtATimeDataset;

/**
 * The records of one or many record files with a {@link RecordIndex} per file, so that any
 * record can be fetched by its index: {@link #at(long)} counts records across the files in the
 * order given, and {@link #next()} yields them in that order, epoch after epoch.
 *
 * <p>Every file is mapped and indexed when the dataset is built (from its sidecar where that is
 * fresh, see {@link RecordIndex#open}); a damaged frame fails the build. Records are zero-copy
 * slices of the mappings, valid until {@link #close()}, each frame checked again as it is taken.
 * Single-threaded; the slices may be read from any thread until the dataset is closed.
 */
public final class IndexedRecordDataset extends SampleAtATimeDataset<RecordSlice> implements RandomAccessDataset<RecordSlice> {
    static final String KIND = "indexed";

    private final List<Path> files;
    private final long epochs;
    private final MappedFiles mappings;
    private final MappedRecordLocator records;
    private final RecordIndex[] indexes;
    /** starts[f] is the global index of file f's first record; starts[files] is the total. */
    private final long[] starts;
    private long epoch;
    private long position;
    private boolean ended;
    private boolean closed;

    /**
     * The records of {@code files}, framed by {@code frames}, for {@code epochs} epochs
     * ({@link #FOREVER} for no end).
     *
     * @param indexDir where the sidecars are kept, or null to keep each beside its file
     * @throws IllegalArgumentException if there are no files or {@code epochs} is out of range
     * @throws org.dataloader4j.api.CorruptDataException if a file must be scanned and has a damaged frame
     * @throws java.io.UncheckedIOException if a file cannot be mapped
     */
    public IndexedRecordDataset(List<Path> files, FrameReader frames, long epochs, Path indexDir) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("a dataset needs at least one file");
        }
        this.files = List.copyOf(files);
        this.epochs = Checks.epochs(epochs);
        this.mappings = new MappedFiles(this.files);
        this.records = new MappedRecordLocator(this.files, mappings, frames);
        this.indexes = new RecordIndex[this.files.size()];
        this.starts = new long[this.files.size() + 1];
        try {
            for (int f = 0; f < indexes.length; f++) {
                Path file = this.files.get(f);
                indexes[f] = RecordIndex.open(file, mappings.get(f), frames, RecordIndex.sidecarFor(file, indexDir));
                starts[f + 1] = starts[f] + indexes[f].size();
            }
        } catch (RuntimeException e) {
            mappings.close();
            throw e;
        }
    }

    /** The index of file {@code i}, in the order given. */
    public RecordIndex index(int i) {
        return indexes[i];
    }

    @Override
    public long size() {
        return starts[indexes.length];
    }

    /**
     * Record {@code index}, counted across the files in the order given.
     *
     * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, size())}
     * @throws IllegalStateException if the dataset is closed
     */
    @Override
    public RecordSlice at(long index) {
        if (closed) {
            throw new IllegalStateException("indexed record dataset is closed: files=" + files);
        }
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException("index out of range: index=" + index + ", size=" + size());
        }
        int lo = fileAt(starts, index);
        // Checked as the sequential readers check a frame: an index (a sidecar written by a
        // header scan, say) vouches for where the frames are, not for their payloads.
        long record = index - starts[lo];
        return records.at(lo, record, indexes[lo].offset((int) record));
    }

    /**
     * The file of record {@code index} counted across files whose first records' indices are
     * {@code starts} (the total last): the last file whose first record is at or before it, so
     * that empty files are passed over.
     */
    static int fileAt(long[] starts, long index) {
        int lo = 0;
        int hi = starts.length - 2;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= index) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
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
        }
        return at(position++);
    }

    /** Locates a record by its file, index and offset ({@link RecordLocations}). */
    @Override
    public Optional<SampleLocator<RecordSlice>> locator() {
        return Optional.of(records);
    }

    @Override
    public long epoch() {
        return epoch;
    }

    @Override
    public DatasetState state() {
        return state(epoch, position, ended);
    }

    /** {@inheritDoc} A record of -1 is the end. */
    @Override
    public void restore(DatasetState state) {
        long[] restored = restored(state, size(), epochs);
        epoch = restored[0];
        ended = restored[1] == -1;
        position = ended ? size() : restored[1];
    }

    /** The state of a dataset of records by index at record {@code position} of epoch {@code epoch}, or at its end. */
    static DatasetState state(long epoch, long position, boolean ended) {
        return DatasetState.of(KIND, null).with("epoch", epoch).with("record", ended ? -1 : position);
    }

    /**
     * The epoch and record (-1 for the end) of {@code state}, checked against {@code size}
     * records and {@code epochs} epochs.
     *
     * @throws IllegalArgumentException if the state is of another kind or does not fit
     */
    static long[] restored(DatasetState state, long size, long epochs) {
        state.expect(KIND);
        long e = state.field("epoch");
        long r = state.field("record");
        if (e < 0 || (epochs != Dataset.FOREVER && e >= epochs) || r < -1 || r > size) {
            throw new IllegalArgumentException("state does not fit " + size + " records and " + epochs
                    + " epochs: " + state);
        }
        return new long[] {e, r};
    }

    /** Unmaps every file; slices handed out before become invalid. Idempotent. */
    @Override
    public void close() {
        closed = true;
        mappings.close();
    }
}
