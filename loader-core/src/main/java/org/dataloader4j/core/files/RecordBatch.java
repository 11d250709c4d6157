package org.dataloader4j.core.files;

import java.lang.foreign.MemorySegment;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.ByteSized;
import org.dataloader4j.core.dataset.RecordRows;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.RecordView;

/**
 * One batch of records of {@link RecordFiles} as their numbers: what a reader's load thread
 * hands the parse stage for a file of framed records. The parsers of the record formats read it
 * as {@link RecordRows}, checking each record's frame as they decode it, with no object per
 * record; any other parser reads it as a list, whose {@link #get} checks the record and makes a
 * {@link RecordSlice} of it.
 *
 * <p>Filled by one thread (the load thread), then read by the parse threads after the ring's
 * hand-off; cleared and filled again when its slot comes round.
 */
public final class RecordBatch extends AbstractList<RecordSlice> implements RecordRows, RandomAccess, ByteSized {
    private final RecordFiles files;
    /** The fetching of the rows' records where the files are remote, else null. */
    private final FetchedRecords fetch;
    private long[] numbers;
    private int size;
    private long bytes;
    /**
     * Where corrupt records are replaced ({@link #replace}): per row, the corrupt record it was
     * filled with and why, null for a good row; written by the row's parse thread. Null in a
     * strict batch.
     */
    private CorruptDataException[] skipped;
    private long[] skippedNumbers;

    /**
     * An empty batch of records of {@code files}, with room for {@code capacity} without growing,
     * whose corrupt rows the parse replaces ({@link #replace}) if {@code replacesCorrupt}.
     */
    public RecordBatch(RecordFiles files, int capacity, boolean replacesCorrupt) {
        this.files = files;
        this.fetch = files.remote() ? files.newFetch() : null;
        this.numbers = new long[Math.max(1, capacity)];
        if (replacesCorrupt) {
            this.skipped = new CorruptDataException[numbers.length];
            this.skippedNumbers = new long[numbers.length];
        }
    }

    /** The files whose records this batch numbers. */
    public RecordFiles files() {
        return files;
    }

    /** Adds record {@code number} as the last row. */
    public void addNumber(long number) {
        if (size == numbers.length) {
            numbers = Arrays.copyOf(numbers, size * 2);
            if (skipped != null) {
                skipped = Arrays.copyOf(skipped, numbers.length);
                skippedNumbers = Arrays.copyOf(skippedNumbers, numbers.length);
            }
        }
        numbers[size++] = number;
        bytes += files.length(number);
    }

    /**
     * Starts fetching the rows' records, where the files are remote ({@link FetchedRecords}): the
     * load thread calls it once the batch is filled, before handing it on. Nothing for local files.
     */
    public void fetch() {
        if (fetch != null && size > 0) {
            fetch.start(numbers, size);
        }
    }

    /** Keeps the first {@code rows} rows. */
    public void truncate(int rows) {
        if (rows < 0 || rows > size) {
            throw new IndexOutOfBoundsException("rows " + rows + " of " + size);
        }
        for (int i = rows; i < size; i++) {
            bytes -= files.length(numbers[i]);
        }
        size = rows;
    }

    @Override
    public RecordSlice get(int row) {
        return files.slice(numbers[checkRow(row)]);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void clear() {
        if (skipped != null) {
            Arrays.fill(skipped, 0, size, null);
        }
        size = 0;
        bytes = 0;
    }

    /**
     * Moves row {@code row} to the record after its own in the files ({@link RecordFiles#after}),
     * keeping the row's first corrupt record and {@code cause}; false if this batch does not skip,
     * or the row has come round to the record it first held.
     *
     * @throws CorruptDataException naming the row's record if its file has changed size since it
     *         was mapped: its records are no longer those indexed, so a file changed under a
     *         reader fails it even where corrupt records are skipped
     */
    @Override
    public boolean replace(int row, CorruptDataException cause) {
        checkRow(row);
        if (skipped == null) {
            return false;
        }
        CorruptDataException changed = files.changed(numbers[row], cause);
        if (changed != null) {
            throw changed;
        }
        if (skipped[row] == null) {
            skipped[row] = cause;
            skippedNumbers[row] = numbers[row];
        }
        long next = files.after(numbers[row]);
        if (next == skippedNumbers[row]) {
            return false;
        }
        numbers[row] = next;
        return true;
    }

    /**
     * Why row {@code row}'s record was replaced, or null if it was not. Valid once the batch is
     * parsed; read by the reader as it hands the batch out.
     */
    public CorruptDataException skipped(int row) {
        return skipped == null ? null : skipped[checkRow(row)];
    }

    @Override
    public void load(int row, RecordView into, boolean check) {
        if (fetch != null) {
            fetch.load(checkRow(row), numbers[row], into, check);
        } else {
            files.load(numbers[checkRow(row)], into, check);
        }
    }

    @Override
    public MemorySegment source(int row) {
        return fetch != null ? fetch.source(checkRow(row)) : files.source(numbers[checkRow(row)]);
    }

    @Override
    public long start(int row) {
        return fetch != null ? fetch.start(checkRow(row)) : files.start(numbers[checkRow(row)]);
    }

    @Override
    public int length(int row) {
        return files.length(numbers[checkRow(row)]);
    }

    /** The payload bytes of the rows, as indexed. */
    @Override
    public long byteSize() {
        return bytes;
    }

    private int checkRow(int row) {
        return java.util.Objects.checkIndex(row, size);
    }
}
