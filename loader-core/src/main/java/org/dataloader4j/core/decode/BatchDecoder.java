package org.dataloader4j.core.decode;

import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.core.dataset.RecordRows;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.wire.FeatureSchema;

/**
 * Decodes a batch of records of protobuf {@code Feature} maps into a batch's outputs: the one row
 * routine of the zero-copy parsers (OFRecord, tf.Example), into which a format plugs its
 * {@link EntryDecoder}.
 *
 * <ol>
 *   <li>Rows in parallel ranges: each record is scanned for its entries ({@link EntryDecoder#locate}),
 *       each entry's {@code Feature} is resolved and handed to the format, which checks it, writes
 *       dense rows and notes each ragged row's length ({@link EntryDecoder#decode}).</li>
 *   <li>On the calling thread, a prefix sum of the ragged lengths writes the offsets.</li>
 *   <li>Rows in parallel ranges again: ragged values are copied to their offsets
 *       ({@link EntryDecoder#copyRagged}).</li>
 * </ol>
 *
 * <p>On {@link DecodeMode#FAST} the first pass also reads each range's records ahead in groups,
 * takes a record laid out as the last one learned from that layout instead of scanning it, and
 * copies the long rows of such records first (docs/ofrecord-parser.md); the bytes written and the
 * errors thrown are those of {@link DecodeMode#PLAIN}.
 *
 * <p>Every check is in the first pass, so the second cannot fail. Each range writes only its own
 * rows and stops at its first bad record; the loop rethrows the lowest range's failure, so the
 * error of the lowest bad row is thrown, whatever the threads' timing. Immutable, but for the
 * per-thread decoders it keeps: one parser's instance may run batches on several threads at once.
 */
public final class BatchDecoder {
    /**
     * Fewer rows than this per range cost more to hand to a thread (a park and an unpark, some
     * microseconds) than to parse: a row of a few features takes well under a microsecond.
     */
    public static final int MIN_ROWS_PER_RANGE = 32;

    private final OutputColumn[] columns;
    private final int[] entryColumns;
    private final FeatureSchema schema;
    private final boolean learnsLayouts;
    private final DecodeMode mode;
    private final EntryDecoder.Factory formats;
    /**
     * Each thread's decoder, kept from batch to batch rather than made per range: its scratch is
     * a few hundred heap bytes and, on the fast path, the layout it learned. It holds the last
     * batch's references until the next.
     */
    private final ThreadLocal<RowDecoding> decoders = ThreadLocal.withInitial(() -> new RowDecoding(this));

    /**
     * A routine filling {@code columns}, in output order, with the entries of {@code entryColumns}:
     * entry {@code e}'s first column is {@code columns[entryColumns[e]]}, named after its feature.
     * {@code schema} numbers the lists of the format's {@code Feature}; {@code formats} makes each
     * thread's {@link EntryDecoder}. Layouts are learned on {@code mode}'s fast path only if
     * {@code learnsLayouts}: false for a format that decodes more of a record than its entries
     * ({@link EntryDecoder#decodeRest}).
     *
     * @throws IllegalArgumentException if an entry's column is not one of {@code columns}
     */
    public BatchDecoder(OutputColumn[] columns, int[] entryColumns, FeatureSchema schema, boolean learnsLayouts,
                        DecodeMode mode, EntryDecoder.Factory formats) {
        this.columns = columns.clone();
        this.entryColumns = entryColumns.clone();
        for (int e = 0; e < entryColumns.length; e++) {
            if (entryColumns[e] < 0 || entryColumns[e] >= columns.length) {
                throw new IllegalArgumentException("entry " + e + "'s column is not an output: entryColumns[" + e + "]="
                        + entryColumns[e] + " columns=" + columns.length);
            }
        }
        this.schema = Objects.requireNonNull(schema, "schema");
        this.learnsLayouts = learnsLayouts;
        this.mode = Objects.requireNonNull(mode, "mode");
        this.formats = Objects.requireNonNull(formats, "formats");
    }

    /**
     * Fills rows {@code [0, samples.size())} of {@code out} over {@code loop}; row {@code i} is
     * {@code samples.get(i)}.
     *
     * @throws CorruptDataException     for the lowest row whose record is malformed or does not fit
     * @throws IllegalArgumentException if {@code out} does not hold one row per sample, or its
     *                                  outputs are not the columns'
     */
    public void run(List<? extends RecordSlice> samples, Batch out, ParallelLoop loop) {
        RecordRows rows = RecordRows.of(samples);
        BatchOutputs outputs = new BatchOutputs(columns, out, rows.size());
        int n = outputs.rows();
        long outputRowBytes = outputs.denseRowBytes();
        loop.forRanges(n, MIN_ROWS_PER_RANGE,
                (start, end) -> decoders.get().bind(rows, outputs).firstPass(start, end, outputRowBytes));
        if (outputs.hasRagged()) {
            outputs.writeOffsets();
            loop.forRanges(n, MIN_ROWS_PER_RANGE, (start, end) -> decoders.get().bind(rows, outputs).secondPass(start, end));
        }
    }

    /** The path this routine takes. */
    public DecodeMode mode() {
        return mode;
    }

    OutputColumn[] columns() {
        return columns;
    }

    int[] entryColumns() {
        return entryColumns;
    }

    FeatureSchema schema() {
        return schema;
    }

    boolean learnsLayouts() {
        return learnsLayouts;
    }

    EntryDecoder.Factory formats() {
        return formats;
    }
}
