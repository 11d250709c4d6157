package org.dataloader4j.ofrecord.internal;

import static org.dataloader4j.core.decode.RecordErrors.corrupt;

import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.decode.BatchOutputs;
import org.dataloader4j.core.decode.EntryDecoder;
import org.dataloader4j.core.decode.ValueCopier;
import org.dataloader4j.core.wire.FeatureSchema;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.MapScanner;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;

/**
 * Decodes the columns of an OFRecord, one feature at a time, with OneFlow's
 * {@code OFRecordRawDecoder} and {@code OFRecordBytesDecoder} semantics: missing features and
 * defaults, the value count a row holds, truncation and zero padding. Dense rows are written at
 * once; ragged rows are measured here and copied by {@link #copyRagged} once their offsets are
 * known. Column {@code c} is entry {@code c}: the feature of its key in the record's map.
 *
 * <p>One thread's, made by its {@code BatchDecoder} with the thread's reader, view and copier.
 */
final class RowDecoder implements EntryDecoder {
    /** OFRecord's {@code Feature}: {@code oneof kind} of five lists, fields 1 to 5. */
    static final FeatureSchema SCHEMA = FeatureSchema.of(
            ListKind.BYTES, ListKind.FLOAT, ListKind.DOUBLE, ListKind.INT32, ListKind.INT64);
    /** OFRecord field 1: {@code map<string, Feature> feature}. */
    private static final int FEATURE_MAP = 1;

    private final Column[] columns;
    private final MapScanner scanner;
    private final WireReader reader;
    private final FeatureView feature;
    private final ValueCopier copier;

    RowDecoder(Column[] columns, MapScanner scanner, WireReader reader, FeatureView feature, ValueCopier copier) {
        this.columns = columns;
        this.scanner = scanner;
        this.reader = reader;
        this.feature = feature;
        this.copier = copier;
    }

    @Override
    public void locate(WireReader r, long[] entryStart, long[] entryEnd) {
        scanner.scan(r, FEATURE_MAP, entryStart, entryEnd);
    }

    /**
     * Decodes column {@code c} of {@code row} from the resolved feature of the record's map entry
     * {@code [entryStart, entryEnd)}, or from its absence if {@code entryStart} is -1.
     *
     * @throws CorruptDataException if the feature does not fit the column
     */
    @Override
    public void decode(RecordView record, int row, int c, long entryStart, long entryEnd, BatchOutputs out) {
        Column col = columns[c];
        if (entryStart < 0) {
            decodeMissing(record, row, c, out);
            return;
        }
        int rowElements = col.rowElements();
        long at = (long) row * rowElements;
        boolean copied = false;
        long count;
        if (checkedKind(record, col) == ListKind.BYTES) {
            count = feature.end(0) - feature.start(0);
        } else if (col.ragged()) {
            count = feature.count(reader);
        } else {
            // Counted, checked and copied in one walk: a packed varint list's bytes would
            // otherwise be walked twice. A count that does not fit fails the row below.
            count = copier.countAndCopy(reader, feature, out.values(c), col.dataType(), at, rowElements);
            copied = true;
        }
        if (col.ragged()) {
            if (count > rowElements && !col.truncate()) {
                throw countError(record, col, count);
            }
            out.note(c, row, Math.min(count, rowElements), entryStart, entryEnd);
            return;
        }
        if (count != rowElements && !col.truncate()) {
            throw countError(record, col, count);
        }
        long written = copied ? Math.min(count, rowElements)
                : copier.copy(reader, feature, out.values(c), col.dataType(), at, rowElements);
        // Slots are reused: a short row's tail still holds an earlier batch's values.
        ValueCopier.zero(out.values(c), col.dataType(), at + written, rowElements - written);
    }

    /**
     * The error of a feature of {@code count} values that {@code col}'s rows do not take. Its own
     * method, so that {@link #decode} stays small enough for the compiler to inline.
     */
    private static CorruptDataException countError(RecordView record, Column col, long count) {
        int rowElements = col.rowElements();
        if (!col.ragged()) {
            return corrupt(record, "feature " + col.name() + " has " + count + " values, its rows hold " + rowElements);
        }
        return corrupt(record, col.bytesOnly()
                ? "feature " + col.name() + " holds " + count + " bytes, more than maxBytes=" + rowElements
                : "feature " + col.name() + " has " + count + " values, its rows hold at most " + rowElements);
    }

    private void decodeMissing(RecordView record, int row, int c, BatchOutputs out) {
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
    private ListKind checkedKind(RecordView record, Column col) {
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
    public void copyRagged(RecordView record, int row, BatchOutputs out) {
        for (int c = 0; c < columns.length; c++) {
            long length = columns[c].ragged() ? out.length(c, row) : 0;
            if (length == 0) {
                continue;
            }
            reader.reset(record.source(), record.start(), record.end());
            try {
                feature.resolveEntry(reader, out.noteStart(c, row), out.noteEnd(c, row));
            } catch (WireFormatException e) {
                throw corrupt(record, e, "feature " + columns[c].name());
            }
            long written = copier.copy(reader, feature, out.values(c), columns[c].dataType(),
                    out.offset(c, row), length);
            assert written == length : "row " + row + " of " + columns[c].name() + " changed between passes";
        }
    }
}
