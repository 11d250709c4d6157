package org.dataloader4j.ofrecord.internal;

import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.BatchDecoder;
import org.dataloader4j.core.decode.DecodeMode;
import org.dataloader4j.core.decode.RecordFeatures;
import org.dataloader4j.core.wire.MapScanner;

/**
 * The OFRecord side of {@code OFRecordParser.parse}: its columns and the scanner of their keys,
 * built once per parser, and the {@link BatchDecoder} that decodes each batch with a
 * {@link RowDecoder} per thread. Each column is an entry: the feature of its key.
 */
public final class BatchParse {
    /** Where the records' features lie, for keys that read one feature (a reader's {@code groupBy}). */
    public static final RecordFeatures FEATURES = new RecordFeatures(RowDecoder.SCHEMA, 1);

    private final BatchDecoder decoder;

    /** The parse of {@code columns}, in output order, on {@code mode}'s path. */
    public BatchParse(Column[] columns, DecodeMode mode) {
        Column[] cols = columns.clone();
        List<String> keys = new ArrayList<>(cols.length);
        int[] entryColumns = new int[cols.length];
        for (int c = 0; c < cols.length; c++) {
            keys.add(cols[c].name());
            entryColumns[c] = c;
        }
        MapScanner scanner = new MapScanner(keys);
        this.decoder = new BatchDecoder(cols, entryColumns, RowDecoder.SCHEMA, true, mode,
                (reader, feature, copier) -> new RowDecoder(cols, scanner, reader, feature, copier));
    }

    /**
     * Fills rows {@code [0, samples.size())} of {@code out} over {@code loop}.
     *
     * @throws CorruptDataException     for the lowest row whose record is malformed or does not fit
     * @throws IllegalArgumentException if {@code out} does not hold one row per sample, or its
     *                                  outputs are not the columns'
     */
    public void run(List<? extends RecordSlice> samples, Batch out, ParallelLoop loop) {
        decoder.run(samples, out, loop);
    }
}
