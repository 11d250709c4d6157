package org.dataloader4j.core.decode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Tensor;

/**
 * Where one parse call writes: each column's memory, and for ragged columns what the first pass
 * of a {@link BatchDecoder} notes per row (the row's length, and where its values are in the
 * record) for the offsets and the second pass.
 *
 * <p>Each row's notes are written by the range that owns the row and read after the loop that
 * wrote them has returned, so they need no synchronisation.
 */
public final class BatchOutputs {
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final OutputColumn[] columns;
    private final int rows;
    private final MemorySegment[] values;
    private final MemorySegment[] offsets;
    private final long[][] noteStart;
    private final long[][] noteEnd;
    private final long[][] lengths;

    /**
     * The outputs of {@code columns} in {@code out}, for {@code rows} samples.
     *
     * @throws IllegalArgumentException if {@code out} does not hold one row per sample, or an
     *                                  output is not of its column's type and size
     */
    public BatchOutputs(OutputColumn[] columns, Batch out, int rows) {
        if (rows != out.size()) {
            throw new IllegalArgumentException("a parser fills one row per sample: samples=" + rows
                    + " batch.size=" + out.size());
        }
        this.columns = columns;
        this.rows = rows;
        values = new MemorySegment[columns.length];
        offsets = new MemorySegment[columns.length];
        noteStart = new long[columns.length][];
        noteEnd = new long[columns.length][];
        lengths = new long[columns.length][];
        for (int c = 0; c < columns.length; c++) {
            OutputColumn col = columns[c];
            if (col.ragged()) {
                RaggedTensor t = out.ragged(col.name());
                values[c] = checked(col, t.values(), (long) rows * col.rowElements());
                offsets[c] = t.offsets().segment();
                noteStart[c] = new long[rows];
                noteEnd[c] = new long[rows];
                lengths[c] = new long[rows];
            } else {
                values[c] = checked(col, out.tensor(col.name()), (long) rows * col.rowElements());
            }
        }
    }

    private static MemorySegment checked(OutputColumn col, Tensor t, long elements) {
        if (t.dataType() != col.dataType() || t.elementCount() < elements) {
            throw new IllegalArgumentException("output " + col.name() + " is " + t
                    + ", not the parser's: needs " + elements + " elements of " + col.dataType());
        }
        return t.segment();
    }

    /** The number of rows. */
    public int rows() {
        return rows;
    }

    /** Column {@code c}'s values: a dense tensor's memory, or a ragged tensor's values. */
    public MemorySegment values(int c) {
        return values[c];
    }

    /** The bytes one row takes in the dense outputs, all together. */
    public long denseRowBytes() {
        long bytes = 0;
        for (OutputColumn col : columns) {
            if (!col.ragged()) {
                bytes += rowBytes(col);
            }
        }
        return bytes;
    }

    /** The bytes a dense row of {@code col} takes. */
    private static long rowBytes(OutputColumn col) {
        return (long) col.rowElements() * col.dataType().byteSize();
    }

    /** Whether any column is ragged, so that the offsets and the second pass are needed. */
    public boolean hasRagged() {
        for (OutputColumn col : columns) {
            if (col.ragged()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Notes ragged row {@code row} of column {@code c}: its {@code length} in values, and the
     * region {@code [start, end)} of the record its values come from (for the second pass).
     */
    public void note(int c, int row, long length, long start, long end) {
        lengths[c][row] = length;
        noteStart[c][row] = start;
        noteEnd[c][row] = end;
    }

    /** The length noted for ragged row {@code row} of column {@code c}. */
    public long length(int c, int row) {
        return lengths[c][row];
    }

    /** The start of the region noted for ragged row {@code row} of column {@code c}. */
    public long noteStart(int c, int row) {
        return noteStart[c][row];
    }

    /** The end of the region noted for ragged row {@code row} of column {@code c}. */
    public long noteEnd(int c, int row) {
        return noteEnd[c][row];
    }

    /** Writes every ragged column's offsets: row {@code i} starts where row {@code i - 1} ends. */
    public void writeOffsets() {
        for (int c = 0; c < columns.length; c++) {
            if (columns[c].ragged()) {
                long offset = 0;
                offsets[c].setAtIndex(I64, 0, 0);
                for (int row = 0; row < rows; row++) {
                    offset += lengths[c][row];
                    offsets[c].setAtIndex(I64, row + 1, offset);
                }
            }
        }
    }

    /** The offset of ragged row {@code row} of column {@code c}; valid after {@link #writeOffsets}. */
    public long offset(int c, int row) {
        return offsets[c].getAtIndex(I64, row);
    }
}
