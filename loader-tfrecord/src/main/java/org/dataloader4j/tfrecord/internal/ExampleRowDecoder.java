package org.dataloader4j.tfrecord.internal;

import static org.dataloader4j.core.decode.RecordErrors.corrupt;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.BatchOutputs;
import org.dataloader4j.core.decode.TwoPassParse;
import org.dataloader4j.core.decode.ValueCopier;
import org.dataloader4j.core.decode.fast.RecordLayout;
import org.dataloader4j.core.wire.FeatureSchema;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;
import org.dataloader4j.tfrecord.internal.FeatureColumn.Role;

/**
 * Decodes the columns of one row at a time with the rules of the tf.io feature specs: in pass 1
 * every feature and step is resolved and checked ({@link FeatureRules}), dense rows are written
 * and ragged rows measured; in pass 2 ({@link #copyRagged}) ragged rows are copied to their
 * offsets.
 *
 * <p>Holds one thread's scratch (a wire reader, the views, the entries of a row), reused batch
 * after batch: one instance per thread, {@linkplain #bind bound} to each range it parses.
 */
final class ExampleRowDecoder implements TwoPassParse.RowDecoder {
    /** TensorFlow's {@code Feature}: {@code oneof kind {bytes_list = 1; float_list = 2; int64_list = 3}}. */
    static final FeatureSchema SCHEMA = FeatureSchema.of(ListKind.BYTES, ListKind.FLOAT, ListKind.INT64);

    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final FeatureColumn[] columns;
    private final int[] specColumns;
    private final int features;
    private final RecordLocator locator;
    private List<? extends RecordSlice> samples;
    private BatchOutputs out;
    private final WireReader reader = new WireReader();
    private final FeatureView feature = new FeatureView(SCHEMA);
    private final FeatureListView steps = new FeatureListView();
    private final FeatureRules rules;
    private final long[] featureStart;
    private final long[] featureEnd;
    private final long[] listStart;
    private final long[] listEnd;
    /** The layout of the records' features, or null where the spec has feature lists. */
    private final RecordLayout layout;
    // The cursors of copyStrings: where the next byte and length go, and where the row ends.
    private long byteAt;
    private long byteEnd;
    private long stringAt;
    private long stringEnd;

    ExampleRowDecoder(ExampleParse parse) {
        this.columns = parse.columns();
        this.specColumns = parse.specColumns();
        this.features = parse.features();
        this.locator = parse.locator();
        this.rules = new FeatureRules(parse.message(), feature, reader);
        featureStart = new long[features];
        featureEnd = new long[features];
        listStart = new long[specColumns.length - features];
        listEnd = new long[specColumns.length - features];
        layout = specColumns.length == features ? new RecordLayout(columns, specColumns) : null;
    }

    /** Points this decoder at a batch: its samples and its outputs. */
    ExampleRowDecoder bind(List<? extends RecordSlice> samples, BatchOutputs out) {
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
        boolean copiedFirst = layout != null && layout.copyFirst(record.source(), start, record.length(), out, row);
        // A record laid out as the last one learned needs no scan: its entries and lists lie
        // where that one's did.
        boolean laidOut = layout != null && layout.matches(record.source(), start, record.length());
        boolean learn = !laidOut && layout != null && layout.shouldLearn();
        if (!laidOut) {
            try {
                locator.locate(reader, featureStart, featureEnd, listStart, listEnd);
            } catch (WireFormatException e) {
                throw corrupt(record, e, null);
            }
            if (learn) {
                layout.beginLearning();
            }
        }
        for (int s = 0; s < features; s++) {
            if (laidOut && copiedFirst && layout.copiedFirst(s)) {
                continue; // its row holds its values, a whole row as the learned record's did
            }
            long from = laidOut ? layout.entryStart(s, start) : featureStart[s];
            long to = laidOut ? layout.entryEnd(s, start) : featureEnd[s];
            decodeFeature(record, row, s, from, to, laidOut);
        }
        if (learn) {
            layout.endLearning(record.source(), start, record.length());
        }
        for (int s = features; s < specColumns.length; s++) {
            decodeList(record, row, specColumns[s], listStart[s - features], listEnd[s - features]);
        }
    }

    @Override
    public boolean needsReadAhead(int row) {
        return layout == null || !layout.copiesFirst(samples.get(row).length());
    }

    /**
     * Resolves feature {@code s}'s map entry {@code [start, end)} into {@link #feature}: from the
     * layout if the record is {@code laidOut}, else from the record; without a layout (a spec
     * with feature lists), always from the record.
     */
    private void resolve(RecordSlice record, int s, long start, long end, boolean laidOut) {
        if (layout == null) {
            feature.resolveEntry(reader, start, end);
        } else {
            layout.resolve(s, record.start(), start, end, laidOut, reader, feature);
        }
    }

    /**
     * Feature {@code s}'s column of {@code row} from the map entry {@code [start, end)}, or its
     * absence (-1); see {@link #resolve} for {@code laidOut}.
     */
    private void decodeFeature(RecordSlice record, int row, int s, long start, long end, boolean laidOut) {
        int c = specColumns[s];
        FeatureColumn col = columns[c];
        if (start < 0 && layout != null) {
            layout.noteMissing(s);
        }
        if (col.role() == Role.VAR_BYTES) {
            decodeStrings(record, row, s, start, end, laidOut);
            return;
        }
        long count = -1;
        boolean copied = false;
        if (start >= 0) {
            try {
                resolve(record, s, start, end, laidOut);
                ListKind kind = rules.kind(record, col, -1);
                if (col.role() == Role.FIXED && kind != null && kind != ListKind.BYTES) {
                    // Counted, checked and copied in one walk: a packed varint list's bytes would
                    // otherwise be walked twice. A count that does not fit fails the row below.
                    count = ValueCopier.countAndCopy(reader, feature, out.values(c), col.dataType(),
                            (long) row * col.rowElements(), col.rowElements());
                    copied = true;
                } else {
                    count = rules.elements(record, col, -1);
                }
            } catch (WireFormatException e) {
                throw corrupt(record, e, "feature " + col.name());
            }
        }
        if (col.role() != Role.FIXED) {
            rules.checkRagged(record, col, count);
            out.note(c, row, Math.max(count, 0), start, end);
        } else if (count < 0) {
            fillDefault(record, row, c);
        } else {
            rules.checkFixed(record, col, count, -1);
            if (!copied) {
                long written = ValueCopier.copy(reader, feature, out.values(c), col.dataType(),
                        (long) row * col.rowElements(), col.rowElements());
                assert written == col.rowElements();
            }
        }
    }

    /**
     * A {@code VarLenBytesFeature}'s columns (bytes, then lengths) of {@code row}, for feature
     * {@code s}.
     */
    private void decodeStrings(RecordSlice record, int row, int s, long start, long end, boolean laidOut) {
        int c = specColumns[s];
        FeatureColumn col = columns[c];
        long strings = 0;
        long bytes = 0;
        if (start >= 0) {
            try {
                resolve(record, s, start, end, laidOut);
            } catch (WireFormatException e) {
                throw corrupt(record, e, "feature " + col.name());
            }
            if (rules.kind(record, col, -1) != null) {
                strings = feature.pieces();
                bytes = stringBytes();
            }
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

    private void fillDefault(RecordSlice record, int row, int c) {
        FeatureColumn col = columns[c];
        MemorySegment defaultRow = col.defaultRow();
        if (defaultRow == null) {
            throw rules.missing(record, col);
        }
        MemorySegment.copy(defaultRow, 0, out.values(c), row * defaultRow.byteSize(), defaultRow.byteSize());
    }

    /** Feature-list column {@code c} of {@code row} from the entry {@code [start, end)}, or its absence (-1). */
    private void decodeList(RecordSlice record, int row, int c, long start, long end) {
        FeatureColumn col = columns[c];
        if (start < 0) {
            for (int k = c; k <= c + col.companions(); k++) {
                out.note(k, row, 0, start, end);
            }
            return;
        }
        if (col.role() != Role.FIXED_SEQUENCE) {
            decodeVarSteps(record, row, c, start, end);
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
    private void decodeVarSteps(RecordSlice record, int row, int c, long start, long end) {
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
    public void copyRagged(int row) {
        for (int c : specColumns) {
            FeatureColumn col = columns[c];
            if (!col.ragged() || empty(c, row)) {
                continue;
            }
            long length = out.length(c, row);
            RecordSlice record = samples.get(row);
            reader.reset(record.source(), record.start(), record.end());
            long at = out.offset(c, row);
            try {
                if (col.role() == Role.FIXED_SEQUENCE) {
                    copySteps(col, c, row, at);
                } else if (col.role() == Role.VAR_BYTES) {
                    feature.resolveEntry(reader, out.noteStart(c, row), out.noteEnd(c, row));
                    startStrings(c, row);
                    copyStrings(out.values(c), out.values(c + 1));
                } else if (col.role() == Role.BYTES_SEQUENCE || col.role() == Role.VAR_SEQUENCE) {
                    copyVarSteps(col, c, row, at);
                } else {
                    feature.resolveEntry(reader, out.noteStart(c, row), out.noteEnd(c, row));
                    long written = ValueCopier.copy(reader, feature, out.values(c), col.dataType(), at, length);
                    assert written == length : "row " + row + " of " + col.name() + " changed between passes";
                }
            } catch (WireFormatException e) {
                // Only if the record's bytes changed since pass 1 (a mapped file rewritten underneath).
                throw corrupt(record, e, (col.sequence() ? "feature list " : "feature ") + col.name());
            }
        }
    }

    private void copySteps(FeatureColumn col, int c, int row, long at) {
        steps.resolveEntry(reader, out.noteStart(c, row), out.noteEnd(c, row));
        int stepElements = col.stepElements();
        // Never more steps than pass 1 counted, so that changed bytes cannot write past the row.
        long n = Math.min(steps.steps(), out.length(c, row) / stepElements);
        for (int i = 0; i < n; i++) {
            feature.resolveFeature(reader, steps.start(i), steps.end(i));
            ValueCopier.copy(reader, feature, out.values(c), col.dataType(), at + (long) i * stepElements,
                    stepElements);
        }
    }

    /** Whether every column of the spec whose first column is {@code c} has an empty {@code row}. */
    private boolean empty(int c, int row) {
        for (int k = c; k <= c + columns[c].companions(); k++) {
            if (out.length(k, row) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Points the string cursors at {@code row} of column {@code c} (bytes) and {@code c + 1} (lengths). */
    private void startStrings(int c, int row) {
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

    private void copyVarSteps(FeatureColumn col, int c, int row, long at) {
        steps.resolveEntry(reader, out.noteStart(c, row), out.noteEnd(c, row));
        boolean strings = col.role() == Role.BYTES_SEQUENCE;
        int perStep = strings ? c + 2 : c + 1;
        long stepAt = out.offset(perStep, row);
        // Never more steps than pass 1 counted, so that changed bytes cannot write past the row.
        long n = Math.min(steps.steps(), out.length(perStep, row));
        long length = out.length(c, row);
        long written = 0;
        if (strings) {
            startStrings(c, row);
        }
        for (int i = 0; i < n; i++) {
            feature.resolveFeature(reader, steps.start(i), steps.end(i));
            long k;
            if (strings) {
                k = copyStrings(out.values(c), out.values(c + 1));
            } else {
                k = feature.kind() == null ? 0
                        : ValueCopier.copy(reader, feature, out.values(c), col.dataType(), at + written,
                        length - written);
                written += k;
            }
            out.values(perStep).setAtIndex(I64, stepAt + i, k);
        }
    }
}
