package org.dataloader4j.ofrecord.internal;

import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.BatchOutputs;
import org.dataloader4j.core.decode.TwoPassParse;
import org.dataloader4j.core.wire.MapScanner;

/**
 * The OFRecord side of {@code OFRecordParser.parse}: its columns and the scanner of their keys,
 * built once per parser, and one call's {@link TwoPassParse} of a batch with a
 * {@link RowDecoder} per range.
 */
public final class BatchParse {
    private final Column[] columns;
    private final MapScanner scanner;
    /**
     * Each thread's decoder, kept from batch to batch rather than made per range: its scratch
     * is a few hundred heap bytes. It holds the last batch's references until the next.
     */
    private final ThreadLocal<RowDecoder> decoders;

    /** The parse of {@code columns}, in output order. */
    public BatchParse(Column[] columns) {
        this.columns = columns.clone();
        List<String> keys = new ArrayList<>(columns.length);
        for (Column c : columns) {
            keys.add(c.name());
        }
        this.scanner = new MapScanner(keys);
        this.decoders = ThreadLocal.withInitial(() -> new RowDecoder(this.columns, scanner));
    }

    /**
     * Fills rows {@code [0, samples.size())} of {@code out} over {@code loop}.
     *
     * @throws CorruptDataException     for the lowest row whose record is malformed or does not fit
     * @throws IllegalArgumentException if {@code out} does not hold one row per sample, or its
     *                                  outputs are not the columns'
     */
    public void run(List<? extends RecordSlice> samples, Batch out, ParallelLoop loop) {
        BatchOutputs outputs = new BatchOutputs(columns, out, samples.size());
        TwoPassParse.run(loop, samples, outputs, () -> decoders.get().bind(samples, outputs));
    }
}
