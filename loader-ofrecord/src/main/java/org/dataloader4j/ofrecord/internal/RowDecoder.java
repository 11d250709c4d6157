package org.dataloader4j.ofrecord.internal;

import static org.dataloader4j.core.decode.RecordErrors.corrupt;

import java.util.Arrays;
import java.util.List;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.BatchOutputs;
import org.dataloader4j.core.decode.TwoPassParse;
import org.dataloader4j.core.decode.ValueCopier;
import org.dataloader4j.core.decode.fast.RecordLayout;
import org.dataloader4j.core.wire.FeatureSchema;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.MapScanner;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;

/**
 * Decodes the columns of one row at a time, with OneFlow's {@code OFRecordRawDecoder} and
 * {@code OFRecordBytesDecoder} semantics: missing features and defaults, the value count a row
 * holds, truncation and zero padding. Dense rows are written at once; ragged rows are measured
 * here and copied by {@link #copyRagged} once their offsets are known.
 *
 * <p>Holds one thread's scratch (a wire reader, a feature view, the entries of a row), reused
 * batch after batch: one instance per thread, {@linkplain #bind bound} to each range it parses.
 */
final class RowDecoder implements TwoPassParse.RowDecoder {
    /** OFRecord's {@code Feature}: {@code oneof kind} of five lists, fields 1 to 5. */
    static final FeatureSchema SCHEMA = FeatureSchema.of(
            ListKind.BYTES, ListKind.FLOAT, ListKind.DOUBLE, ListKind.INT32, ListKind.INT64);
    /** OFRecord field 1: {@code map<string, Feature> feature}. */
    private static final int FEATURE_MAP = 1;

    private final Column[] columns;
    private final MapScanner scanner;
    private List<? extends RecordSlice> samples;
    private BatchOutputs out;
    private final WireReader reader = new WireReader();
    private final FeatureView feature = new FeatureView(SCHEMA);
    private final long[] entryStart;
    private final long[] entryEnd;
    private final RecordLayout layout;

    RowDecoder(Column[] columns, MapScanner scanner) {
        this.columns = columns;
        this.scanner = scanner;
        this.entryStart = new long[columns.length];
        this.entryEnd = new long[columns.length];
        int[] outputOf = new int[columns.length];
        Arrays.setAll(outputOf, c -> c);
        this.layout = new RecordLayout(columns, outputOf);
    }

    /** Points this decoder at a batch: its samples and its outputs. */
    RowDecoder bind(List<? extends RecordSlice> samples, BatchOutputs out) {
        this.samples = samples;
        this.out = out;
        return this;
    }

    @Override
    public void decode(int row) {
        RecordSlice record = samples.get(row);
        long start = record.start();
        reader.reset(record.source(), start, record.end());
        // A record of the learned length may have its long lists copied to their rows before it
        // is matched: the copy reads it, which it was not read ahead for (needsReadAhead).
        boolean copiedFirst = layout.copyFirst(record.source(), start, record.length(), out, row);
        // A record laid out as the last one learned needs no scan: its entries and lists lie
        // where that one's did.
        boolean laidOut = layout.matches(record.source(), start, record.length());
        boolean learn = !laidOut && layout.shouldLearn();
        if (!laidOut) {
            Arrays.fill(entryStart, -1);
            try {
                scanner.scan(reader, FEATURE_MAP, entryStart, entryEnd);
            } catch (WireFormatException e) {
                throw corrupt(record, e, null);
            }
            if (learn) {
                layout.beginLearning();
            }
        }
        for (int c = 0; c < columns.length; c++) {
            if (laidOut && copiedFirst && layout.copiedFirst(c)) {
                continue; // its row holds its values, a whole row as the learned record's did
            }
            long from = laidOut ? layout.entryStart(c, start) : entryStart[c];
            long to = laidOut ? layout.entryEnd(c, start) : entryEnd[c];
            decode(record, row, c, from, to, laidOut);
        }
        if (learn) {
            layout.endLearning(record.source(), start, record.length());
        }
    }

    @Override
    public boolean needsReadAhead(int row) {
        return !layout.copiesFirst(samples.get(row).length());
    }

    /**
     * Decodes column {@code c} of {@code row} from the record's map entry
     * {@code [entryStart, entryEnd)}, or from its absence if {@code entryStart} is -1. The
     * Feature is taken from the layout if the record is {@code laidOut}, else resolved from the
     * record (and noted, if the layout is learning it).
     *
     * @throws CorruptDataException if the feature is malformed or does not fit the column
     */
    private void decode(RecordSlice record, int row, int c, long entryStart, long entryEnd, boolean laidOut) {
        Column col = columns[c];
        if (entryStart < 0) {
            layout.noteMissing(c);
            decodeMissing(record, row, c);
            return;
        }
        int rowElements = col.rowElements();
        long at = (long) row * rowElements;
        boolean copied = false;
        long count;
        try {
            layout.resolve(c, record.start(), entryStart, entryEnd, laidOut, reader, feature);
            if (checkedKind(record, col) == ListKind.BYTES) {
                count = feature.end(0) - feature.start(0);
            } else if (col.ragged()) {
                count = feature.count(reader);
            } else {
                // Counted, checked and copied in one walk: a packed varint list's bytes would
                // otherwise be walked twice. A count that does not fit fails the row below.
                count = ValueCopier.countAndCopy(reader, feature, out.values(c), col.dataType(), at, rowElements);
                copied = true;
            }
        } catch (WireFormatException e) {
            throw corrupt(record, e, "feature " + col.name());
        }
        if (col.ragged()) {
            if (count > rowElements && !col.truncate()) {
                throw corrupt(record, col.bytesOnly()
                        ? "feature " + col.name() + " holds " + count + " bytes, more than maxBytes=" + rowElements
                        : "feature " + col.name() + " has " + count + " values, its rows hold at most " + rowElements);
            }
            out.note(c, row, Math.min(count, rowElements), entryStart, entryEnd);
            return;
        }
        if (count != rowElements && !col.truncate()) {
            throw corrupt(record, "feature " + col.name() + " has " + count + " values, its rows hold " + rowElements);
        }
        long written = copied ? Math.min(count, rowElements)
                : ValueCopier.copy(reader, feature, out.values(c), col.dataType(), at, rowElements);
        // Slots are reused: a short row's tail still holds an earlier batch's values.
        ValueCopier.zero(out.values(c), col.dataType(), at + written, rowElements - written);
    }

    private void decodeMissing(RecordSlice record, int row, int c) {
        Column col = columns[c];
        if (!col.hasDefault()) {
            throw corrupt(record, "missing feature " + col.name());
        }
        if (col.ragged()) {
            out.note(c, row, 0, -1, -1);
        } else {
            ValueCopier.fill(out.values(c), col.dataType(), (long) row * col.rowElements(), col.rowElements(),
                    col.defaultValue());
        }
    }

    /**
     * The list the resolved feature holds, checked against the column: a {@code bytes_list} of
     * exactly one string into UINT8 or INT8, or a numeric list into a column that is not for
     * bytes only.
     */
    private ListKind checkedKind(RecordSlice record, Column col) {
        ListKind kind = feature.kind();
        if (kind == null) {
            throw corrupt(record, "feature " + col.name() + " holds no list (its Feature sets no kind)");
        }
        if (kind == ListKind.BYTES) {
            if (!col.acceptsBytes()) {
                throw corrupt(record, "feature " + col.name() + " is a bytes_list, which decodes only into UINT8 or INT8, not "
                        + col.dataType());
            }
            if (feature.pieces() != 1) {
                throw corrupt(record, "feature " + col.name() + " has " + feature.pieces()
                        + " bytes_list values, expected exactly 1");
            }
        } else if (col.bytesOnly()) {
            throw corrupt(record, "feature " + col.name() + " is a " + kind + ", expected a bytes_list");
        }
        return kind;
    }

    /** Copies the ragged columns of {@code row} to their offsets; the first pass checked them. */
    @Override
    public void copyRagged(int row) {
        for (int c = 0; c < columns.length; c++) {
            long length = columns[c].ragged() ? out.length(c, row) : 0;
            if (length == 0) {
                continue;
            }
            RecordSlice record = samples.get(row);
            reader.reset(record.source(), record.start(), record.end());
            try {
                feature.resolveEntry(reader, out.noteStart(c, row), out.noteEnd(c, row));
            } catch (WireFormatException e) {
                throw corrupt(record, e, "feature " + columns[c].name());
            }
            long written = ValueCopier.copy(reader, feature, out.values(c), columns[c].dataType(),
                    out.offset(c, row), length);
            assert written == length : "row " + row + " of " + columns[c].name() + " changed between passes";
        }
    }
}
