package org.dataloader4j.core.decode;

import static org.dataloader4j.core.decode.RecordErrors.corrupt;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.dataset.RecordRows;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.decode.fast.RecordLayout;
import org.dataloader4j.core.decode.fast.RecordPrefetch;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;

/**
 * One thread's part of a {@link BatchDecoder}: the sequence each row goes through, once for every
 * format. On the fast path, before a record is scanned: its long rows copied first if a learned
 * layout copies records of its length first; the record matched against the layout, which then
 * gives its entries and lists instead of a scan; else, after a run of misses, the record learned
 * as it is decoded. Ranges are read ahead in groups, but for records copied first.
 *
 * <p>Holds one thread's scratch (a wire reader, a feature view, a copier, the entries of a row,
 * the layout and the read-ahead), reused batch after batch: one instance per thread,
 * {@linkplain #bind bound} to each range it decodes.
 */
final class RowDecoding {
    private final OutputColumn[] columns;
    private final int[] entryColumns;
    private final EntryDecoder format;
    private final WireReader reader = new WireReader();
    private final FeatureView feature;
    private final long[] entryStart;
    private final long[] entryEnd;
    /** The layout of the records' entries; null on the plain path, and where none is learned. */
    private final RecordLayout layout;
    /** Null on the plain path. */
    private final RecordPrefetch readAhead;
    /** Each entry's output in the bound batch, where a layout copies its rows first. */
    private final MemorySegment[] entryOutputs;
    /** The record of the row being decoded; set row by row. */
    private final RecordView record = new RecordView();
    private RecordRows samples;
    private BatchOutputs out;

    RowDecoding(BatchDecoder batch) {
        this.columns = batch.columns();
        this.entryColumns = batch.entryColumns();
        int entries = entryColumns.length;
        this.feature = new FeatureView(batch.schema());
        this.format = batch.formats().create(reader, feature, new ValueCopier(batch.mode()));
        this.entryStart = new long[entries];
        this.entryEnd = new long[entries];
        this.entryOutputs = new MemorySegment[entries];
        boolean fast = batch.mode() == DecodeMode.FAST;
        this.readAhead = fast ? new RecordPrefetch() : null;
        this.layout = fast && batch.learnsLayouts() ? layout(columns, entryColumns) : null;
    }

    /** A layout of the entries, which copies first the dense rows that lists are as they stand. */
    private static RecordLayout layout(OutputColumn[] columns, int[] entryColumns) {
        ListKind[] rowKinds = new ListKind[entryColumns.length];
        long[] rowBytes = new long[entryColumns.length];
        for (int e = 0; e < entryColumns.length; e++) {
            OutputColumn col = columns[entryColumns[e]];
            // A ragged row's place is known only once the batch's offsets are.
            rowKinds[e] = col.ragged() ? null : ValueCopier.rowKind(col.dataType());
            rowBytes[e] = (long) col.rowElements() * col.dataType().byteSize();
        }
        return new RecordLayout(rowKinds, rowBytes);
    }

    /** Points this decoder at a batch: its samples and its outputs. */
    RowDecoding bind(RecordRows samples, BatchOutputs out) {
        this.samples = samples;
        this.out = out;
        for (int e = 0; e < entryOutputs.length; e++) {
            entryOutputs[e] = out.values(entryColumns[e]);
        }
        return this;
    }

    /**
     * Pass 1 over rows {@code [start, end)}. On the fast path each group of records is read ahead
     * at once ({@link RecordPrefetch}), then decoded from the cache; a record copied first is not
     * (its copy reads it front to back), but the first byte of the record
     * {@link RecordPrefetch#FIRST_AHEAD} rows on is read before it.
     */
    void firstPass(int start, int end, long outputRowBytes) {
        if (readAhead == null) {
            for (int row = start; row < end; row++) {
                decode(row);
            }
            return;
        }
        long firstBytes = 0;
        for (int row = start; row < end; ) {
            if (layout != null && layout.copiesFirst(samples.length(row))) {
                // The first line of the record a few rows on, a miss in a shuffled batch, is asked
                // for now, so that it comes in during this copy rather than holding up that one's.
                firstBytes += readFirst(row + RecordPrefetch.FIRST_AHEAD);
                decode(row++);
                continue;
            }
            int groupEnd;
            try {
                groupEnd = readAhead.group(samples, row, end, outputRowBytes);
            } catch (InternalError e) {
                // A fault reading ahead (a file cut short after it was mapped): the rows' own
                // checks meet it again and name the record it falls in.
                groupEnd = row + 1;
            }
            for (; row < groupEnd; row++) {
                decode(row);
            }
        }
        readAhead.keep(firstBytes);
    }

    /** The first byte of row {@code row}'s record read early ({@link RecordPrefetch#first}), or 0 where that faults. */
    private byte readFirst(int row) {
        try {
            return RecordPrefetch.first(samples, row);
        } catch (InternalError e) {
            return 0; // as for a group: the row's own check meets the fault again
        }
    }

    /** Pass 2 over rows {@code [start, end)}: their ragged values, copied to their offsets. */
    void secondPass(int start, int end) {
        for (int row = start; row < end; row++) {
            samples.load(row, record, false);
            format.copyRagged(record, row, out);
        }
    }

    /**
     * Pass 1 for row {@code row}: its frame checked (where its dataset has not), every entry,
     * then the rest of the record. A corrupt record is replaced by the next good one where the
     * rows skip corrupt records ({@link RecordRows#replace}).
     *
     * @throws CorruptDataException if the record is malformed or does not fit, and is not replaced
     */
    private void decode(int row) {
        try {
            decodeOnce(row);
        } catch (CorruptDataException e) {
            // Rows read with corrupt records skipped move on to the next record until one decodes;
            // every write of the failed attempts is written again.
            while (samples.replace(row, e)) {
                try {
                    decodeOnce(row);
                    return;
                } catch (CorruptDataException next) {
                    // that one is corrupt too: on to the next
                }
            }
            throw e;
        }
    }

    private void decodeOnce(int row) {
        try {
            samples.load(row, record, true);
            decodeLoaded(row);
        } catch (InternalError e) {
            // A fault reading the record's file, which may be reported a little after the read
            // that took it: the view names the record (RecordRows#load names it before reading).
            throw RecordErrors.fault(record, e);
        }
    }

    /** {@link #decode} of a row whose record is loaded and its frame checked. */
    private void decodeLoaded(int row) {
        MemorySegment source = record.source();
        long start = record.start();
        reader.reset(source, start, record.end());
        boolean copiedFirst = false;
        boolean laidOut = false;
        boolean learn = false;
        if (layout != null) {
            // A record of the learned length may have its long rows copied before it is matched:
            // the copy reads it, which it was not read ahead for.
            copiedFirst = layout.copyFirst(source, start, record.length(), entryOutputs, row);
            // A record laid out as the last one learned needs no scan: its entries and lists lie
            // where that one's did.
            laidOut = layout.matches(source, start, record.length());
            learn = !laidOut && layout.shouldLearn();
        }
        if (!laidOut) {
            Arrays.fill(entryStart, -1);
            try {
                format.locate(reader, entryStart, entryEnd);
            } catch (WireFormatException e) {
                throw corrupt(record, e, null);
            }
            if (learn) {
                layout.beginLearning();
            }
        }
        for (int e = 0; e < entryStart.length; e++) {
            if (!laidOut) {
                decodeEntry(record, row, e, entryStart[e], entryEnd[e], false);
            } else if (!copiedFirst || !layout.copiedFirst(e)) {
                // (A row copied first holds its values already, a whole row as the learned record's did.)
                decodeEntry(record, row, e, layout.entryStart(e, start), layout.entryEnd(e, start), true);
            }
        }
        if (learn) {
            layout.endLearning(source, start, record.length());
        }
        format.decodeRest(record, row, out);
    }

    /**
     * Entry {@code e} of {@code row} from its map entry {@code [from, to)}, or from its absence
     * ({@code from} is -1). The Feature is taken from the layout if the record is
     * {@code laidOut}, else resolved from the record (and noted, if the layout is learning it).
     *
     * <p>A method of its own, one call an entry: the compiler then inlines the resolution and the
     * format's decoding into it, as into one method per entry, rather than into the row's loop,
     * whose budget of inlining they would exhaust.
     */
    private void decodeEntry(RecordView record, int row, int e, long from, long to, boolean laidOut) {
        if (from < 0) {
            if (layout != null) {
                layout.noteMissing(e);
            }
            format.decode(record, row, e, -1, -1, out);
            return;
        }
        try {
            if (layout != null) {
                layout.resolve(e, record.start(), from, to, laidOut, reader, feature);
            } else {
                feature.resolveEntry(reader, from, to);
            }
            format.decode(record, row, e, from, to, out);
        } catch (WireFormatException x) {
            throw corrupt(record, x, "feature " + columns[entryColumns[e]].name());
        }
    }
}
