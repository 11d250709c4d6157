package org.dataloader4j.core.dataset;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.RandomAccess;
import org.dataloader4j.api.CorruptDataException;

/**
 * The records of one batch, row by row, as the parsers of record formats read them: a list of
 * {@link RecordSlice}s, or the record numbers of a batch of an indexed file
 * ({@code core.files.RecordBatch}), whose frames are checked only when a row is
 * {@link #load loaded} for decoding, on the parse thread that decodes it.
 */
public interface RecordRows {

    /** The number of rows. */
    int size();

    /**
     * Points {@code into} at row {@code row}'s record. With {@code check}, its frame is then checked
     * (lengths, CRCs) as a reader of the file checks it; without, the caller has loaded it with a
     * check before. The view names the record before any of its bytes is read.
     *
     * @throws org.dataloader4j.api.CorruptDataException naming file, record and offset if
     *         {@code check} and the frame is damaged
     */
    void load(int row, RecordView into, boolean check);

    /** The segment holding row {@code row}'s payload, for reading it ahead; unchecked. */
    MemorySegment source(int row);

    /** Where row {@code row}'s payload starts in {@link #source}; unchecked. */
    long start(int row);

    /** Row {@code row}'s payload length; unchecked, 0 for a frame known to be damaged. */
    int length(int row);

    /**
     * For rows read with corrupt records skipped: moves row {@code row}, whose record was found
     * corrupt ({@code cause}), to the record after it in the files, so that its decoder tries
     * that one instead. The first cause of each row is kept for the reader, which counts and
     * logs it. False where the rows do not skip corrupt records (the default), or every record
     * has been tried and none is good: then the caller throws {@code cause}.
     */
    default boolean replace(int row, CorruptDataException cause) {
        return false;
    }

    /** {@code samples} as rows: itself if it is rows already, otherwise a view of the list. */
    static RecordRows of(List<? extends RecordSlice> samples) {
        return samples instanceof RecordRows rows ? rows : new SliceRows(samples);
    }

    /** The rows of a list of slices, whose frames their dataset checked when it made them. */
    final class SliceRows implements RecordRows {
        private final List<? extends RecordSlice> samples;

        private SliceRows(List<? extends RecordSlice> samples) {
            this.samples = samples instanceof RandomAccess ? samples : List.copyOf(samples);
        }

        @Override
        public int size() {
            return samples.size();
        }

        @Override
        public void load(int row, RecordView into, boolean check) {
            into.set(samples.get(row));
        }

        @Override
        public MemorySegment source(int row) {
            return samples.get(row).source();
        }

        @Override
        public long start(int row) {
            return samples.get(row).start();
        }

        @Override
        public int length(int row) {
            return samples.get(row).length();
        }
    }
}
