package org.dataloader4j.tfrecord.internal;

import static org.dataloader4j.core.decode.RecordErrors.corrupt;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.decode.BatchOutputs;
import org.dataloader4j.core.decode.EntryDecoder;
import org.dataloader4j.core.decode.ValueCopier;
import org.dataloader4j.core.wire.FeatureSchema;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;
import org.dataloader4j.tfrecord.internal.FeatureColumn.Role;

/**
 * Decodes the columns of one row at a time with the rules of the tf.io feature specs: in pass 1
 * every feature and step is checked ({@link FeatureRules}), dense rows are written and ragged
 * rows measured; in pass 2 ({@link #copyRagged}) ragged rows are copied to their offsets. Feature
 * {@code s} is entry {@code s}; a SequenceExample's feature lists follow the features
 * ({@link #decodeRest}).
 *
 * <p>One thread's, made by its {@code BatchDecoder} with the thread's reader, view and copier;
 * it keeps the bounds of the feature lists the last scan found and the string cursors of pass 2.
 * Longer than most classes: each spec's pass 1 and pass 2 stay side by side, so that what the
 * first measures is what the second copies.
 */
final class ExampleRowDecoder implements EntryDecoder {
    /** TensorFlow's {@code Feature}: {@code oneof kind {bytes_list = 1; float_list = 2; int64_list = 3}}. */
    static final FeatureSchema SCHEMA = FeatureSchema.of(ListKind.BYTES, ListKind.FLOAT, ListKind.INT64);

    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final FeatureColumn[] columns;
    private final int[] specColumns;
    private final int features;
    private final RecordLocator locator;
    private final WireReader reader;
    private final FeatureView feature;
    private final ValueCopier copier;
    private final FeatureListView steps = new FeatureListView();
    private final FeatureRules rules;
    private final long[] listStart;
    private final long[] listEnd;
    // The cursors of copyStrings: where the next byte and length go, and where the row ends.
    private long byteAt;
    private long byteEnd;
    private long stringAt;
    private long stringEnd;

    ExampleRowDecoder(ExampleParse parse, WireReader reader, FeatureView feature, ValueCopier copier) {
        this.columns = parse.columns();
        this.specColumns = parse.specColumns();
        this.features = parse.features();
        this.locator = parse.locator();
        this.reader = reader;
        this.feature = feature;
        this.copier = copier;
        this.rules = new FeatureRules(parse.message(), feature, reader);
        listStart = new long[specColumns.length - features];
        listEnd = new long[specColumns.length - features];
    }

    @Override
    public void locate(WireReader r, long[] featureStart, long[] featureEnd) {
        locator.locate(r, featureStart, featureEnd, listStart, listEnd);
    }

    @Override
    public void decodeRest(RecordView record, int row, BatchOutputs out) {
        for (int s = features; s < specColumns.length; s++) {
            decodeList(record, row, specColumns[s], listStart[s - features], listEnd[s - features], out);
        }
    }

    /**
     * Feature {@code s}'s column of {@code row} from the resolved feature of the map entry
     * {@code [start, end)}, or from its absence (-1).
     */
    @Override
    public void decode(RecordView record, int row, int s, long start, long end, BatchOutputs out) {
        int c = specColumns[s];
        FeatureColumn col = columns[c];
        if (col.role() == Role.VAR_BYTES) {
            decodeStrings(record, row, c, start, end, out);
            return;
        }
        long count = -1;
        boolean copied = false;
        if (start >= 0) {
            ListKind kind = rules.kind(record, col, -1);
            if (col.role() == Role.FIXED && kind != null && kind != ListKind.BYTES) {
                // Counted, checked and copied in one walk: a packed varint list's bytes would
                // otherwise be walked twice. A count that does not fit fails the row below.
                count = copier.countAndCopy(reader, feature, out.values(c), col.dataType(),
                        (long) row * col.rowElements(), col.rowElements());
                copied = true;
            } else {
                count = rules.elements(record, col, -1);
            }
        }
        if (col.role() != Role.FIXED) {
            rules.checkRagged(record, col, count);
            out.note(c, row, Math.max(count, 0), start, end);
        } else if (count < 0) {
            fillDefault(record, row, c, out);
        } else {
            rules.checkFixed(record, col, count, -1);
            if (!copied) {
                long written = copier.copy(reader, feature, out.values(c), col.dataType(),
                        (long) row * col.rowElements(), col.rowElements());
                assert written == col.rowElements();
            }
        }
    }

    /**
     * A {@code VarLenBytesFeature}'s columns (bytes {@code c}, then lengths) of {@code row}, from
     * the resolved feature of the map entry {@code [start, end)}, or from its absence (-1).
     */
    private void decodeStrings(RecordView record, int row, int c, long start, long end, BatchOutputs out) {
        FeatureColumn col = columns[c];
        long strings = 0;
        long bytes = 0;
        if (start >= 0 && rules.kind(record, col, -1) != null) {
            strings = feature.pieces();
            bytes = stringBytes();
        }
        rules.checkStrings(record, col, columns[c + 1], strings, bytes);
        out.note(c, row, bytes, start, end);
        out.note(c + 1, row, strings, start, end);
    }

    /** The bytes of the resolved {@code bytes_list}'s strings together. */
    private long stringBytes() {
        long bytes = 0;
        for (int i = 0; i < feature.pieces(); i++) {
            bytes += feature.end(i) - feature.start(i);
        }
        return bytes;
    }

    private void fillDefault(RecordView record, int row, int c, BatchOutputs out) {
        FeatureColumn col = columns[c];
        MemorySegment defaultRow = col.defaultRow();
        if (defaultRow == null) {
            throw rules.missing(record, col);
        }
        MemorySegment.copy(defaultRow, 0, out.values(c), row * defaultRow.byteSize(), defaultRow.byteSize());
    }

    /** Feature-list column {@code c} of {@code row} from the entry {@code [start, end)}, or its absence (-1). */
    private void decodeList(RecordView record, int row, int c, long start, long end, BatchOutputs out) {
        FeatureColumn col = columns[c];
        if (start < 0) {
            for (int k = c; k <= c + col.companions(); k++) {
                out.note(k, row, 0, start, end);
            }
            return;
        }
        if (col.role() != Role.FIXED_SEQUENCE) {
            decodeVarSteps(record, row, c, start, end, out);
            return;
        }
        int n;
        try {
            steps.resolveEntry(reader, start, end);
            n = steps.steps();
            rules.checkSteps(record, col, n);
            for (int i = 0; i < n; i++) {
                feature.resolveFeature(reader, steps.start(i), steps.end(i));
                rules.checkFixed(record, col, rules.elements(record, col, i), i);
            }
        } catch (WireFormatException e) {
            throw corrupt(record, e, "feature list " + col.name());
        }
        out.note(c, row, (long) n * col.stepElements(), start, end);
    }

    /**
     * A {@code BytesSequenceFeature}'s columns (bytes, lengths, strings per step) or a
     * {@code VarLenSequenceFeature}'s (values, values per step) of {@code row}, from {@code c}.
     */
    private void decodeVarSteps(RecordView record, int row, int c, long start, long end, BatchOutputs out) {
        FeatureColumn col = columns[c];
        boolean strings = col.role() == Role.BYTES_SEQUENCE;
        int n;
        long values = 0;
        long bytes = 0;
        try {
            steps.resolveEntry(reader, start, end);
            n = steps.steps();
            rules.checkSteps(record, col, n);
            for (int i = 0; i < n; i++) {
                feature.resolveFeature(reader, steps.start(i), steps.end(i));
                if (rules.kind(record, col, i) != null) {
                    values += strings ? feature.pieces() : feature.count(reader);
                    bytes += strings ? stringBytes() : 0;
                }
            }
        } catch (WireFormatException e) {
            throw corrupt(record, e, "feature list " + col.name());
        }
        if (strings) {
            rules.checkStrings(record, col, columns[c + 1], values, bytes);
            out.note(c, row, bytes, start, end);
            out.note(c + 1, row, values, start, end);
            out.note(c + 2, row, n, start, end);
        } else {
            rules.checkValues(record, col, values);
            out.note(c, row, values, start, end);
            out.note(c + 1, row, n, start, end);
        }
    }

    /** Copies the ragged columns of {@code row} to their offsets; pass 1 checked every one of them. */
    @Override
    public void copyRagged(RecordView record, int row, BatchOutputs out) {
        for (int c : specColumns) {
            FeatureColumn col = columns[c];
            if (!col.ragged() || empty(c, row, out)) {
                continue;
            }
            long length = out.length(c, row);
            reader.reset(record.source(), record.start(), record.end());
            long at = out.offset(c, row);
            try {
                if (col.role() == Role.FIXED_SEQUENCE) {
                    copySteps(col, c, row, at, out);
                } else if (col.role() == Role.VAR_BYTES) {
                    feature.resolveEntry(reader, out.noteStart(c, row), out.noteEnd(c, row));
                    startStrings(c, row, out);
                    copyStrings(out.values(c), out.values(c + 1));
                } else if (col.role() == Role.BYTES_SEQUENCE || col.role() == Role.VAR_SEQUENCE) {
                    copyVarSteps(col, c, row, at, out);
                } else {
                    feature.resolveEntry(reader, out.noteStart(c, row), out.noteEnd(c, row));
                    long written = copier.copy(reader, feature, out.values(c), col.dataType(), at, length);
                    assert written == length : "row " + row + " of " + col.name() + " changed between passes";
                }
            } catch (WireFormatException e) {
                // Only if the record's bytes changed since pass 1 (a mapped file rewritten underneath).
                throw corrupt(record, e, (col.sequence() ? "feature list " : "feature ") + col.name());
            }
        }
    }

    private void copySteps(FeatureColumn col, int c, int row, long at, BatchOutputs out) {
        steps.resolveEntry(reader, out.noteStart(c, row), out.noteEnd(c, row));
        int stepElements = col.stepElements();
        // Never more steps than pass 1 counted, so that changed bytes cannot write past the row.
        long n = Math.min(steps.steps(), out.length(c, row) / stepElements);
        for (int i = 0; i < n; i++) {
            feature.resolveFeature(reader, steps.start(i), steps.end(i));
            copier.copy(reader, feature, out.values(c), col.dataType(), at + (long) i * stepElements,
                    stepElements);
        }
    }

    /** Whether every column of the spec whose first column is {@code c} has an empty {@code row}. */
    private boolean empty(int c, int row, BatchOutputs out) {
        for (int k = c; k <= c + columns[c].companions(); k++) {
            if (out.length(k, row) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Points the string cursors at {@code row} of column {@code c} (bytes) and {@code c + 1} (lengths). */
    private void startStrings(int c, int row, BatchOutputs out) {
        byteAt = out.offset(c, row);
        byteEnd = byteAt + out.length(c, row);
        stringAt = out.offset(c + 1, row);
        stringEnd = stringAt + out.length(c + 1, row);
    }

    /**
     * Copies the resolved {@code bytes_list}'s strings to the cursors, each in one bulk copy, and
     * their lengths; returns how many it copied. Never past the row pass 1 measured, so that
     * changed bytes cannot write into the next row.
     */
    private int copyStrings(MemorySegment bytesOut, MemorySegment lengthsOut) {
        if (feature.kind() != ListKind.BYTES) {
            return 0;
        }
        int n = 0;
        for (int i = 0; i < feature.pieces() && stringAt < stringEnd; i++) {
            long length = Math.min(feature.end(i) - feature.start(i), byteEnd - byteAt);
            MemorySegment.copy(reader.segment(), feature.start(i), bytesOut, byteAt, length);
            lengthsOut.setAtIndex(I64, stringAt++, length);
            byteAt += length;
            n++;
        }
        return n;
    }

    private void copyVarSteps(FeatureColumn col, int c, int row, long at, BatchOutputs out) {
        steps.resolveEntry(reader, out.noteStart(c, row), out.noteEnd(c, row));
        boolean strings = col.role() == Role.BYTES_SEQUENCE;
        int perStep = strings ? c + 2 : c + 1;
        long stepAt = out.offset(perStep, row);
        // Never more steps than pass 1 counted, so that changed bytes cannot write past the row.
        long n = Math.min(steps.steps(), out.length(perStep, row));
        long length = out.length(c, row);
        long written = 0;
        if (strings) {
            startStrings(c, row, out);
        }
        for (int i = 0; i < n; i++) {
            feature.resolveFeature(reader, steps.start(i), steps.end(i));
            long k;
            if (strings) {
                k = copyStrings(out.values(c), out.values(c + 1));
            } else {
                k = feature.kind() == null ? 0
                        : copier.copy(reader, feature, out.values(c), col.dataType(), at + written,
                        length - written);
                written += k;
            }
            out.values(perStep).setAtIndex(I64, stepAt + i, k);
        }
    }
}
