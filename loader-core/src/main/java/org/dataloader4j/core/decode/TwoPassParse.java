package org.dataloader4j.core.decode;

import java.util.List;
import java.util.function.Supplier;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.fast.RecordPrefetch;

/**
 * The two passes of a zero-copy feature parser over one batch.
 *
 * <ol>
 *   <li>Rows in parallel ranges: each record is scanned, every feature is checked, dense rows
 *       are written, and each ragged row's length is {@linkplain BatchOutputs#note noted}.</li>
 *   <li>On the calling thread, a prefix sum of the ragged lengths writes the offsets.</li>
 *   <li>Rows in parallel ranges again: ragged values are copied to their offsets.</li>
 * </ol>
 *
 * <p>Every check is in the first pass, so the second cannot fail. Each range writes only its
 * own rows and stops at its first bad record; the loop rethrows the lowest range's failure, so
 * the error of the lowest bad row is thrown, whatever the threads' timing.
 */
public final class TwoPassParse {
    /**
     * Fewer rows than this per range cost more to hand to a thread (a park and an unpark, some
     * microseconds) than to parse: a row of a few features takes well under a microsecond.
     */
    public static final int MIN_ROWS_PER_RANGE = 32;

    /** One range's work: made per range, used on one thread, so it may hold scratch state. */
    public interface RowDecoder {
        /** Pass 1 for row {@code row}: checks it, writes its dense outputs, notes its ragged ones. */
        void decode(int row);

        /** Pass 2 for row {@code row}: copies its ragged values to their offsets. */
        void copyRagged(int row);

        /**
         * Whether row {@code row}'s record is worth reading ahead before pass 1 decodes it: true
         * unless pass 1 reads it front to back itself, as a record {@linkplain
         * RecordLayout#copiesFirst copied first} is.
         */
        default boolean needsReadAhead(int row) {
            return true;
        }
    }

    private TwoPassParse() {
    }

    /**
     * Runs both passes over rows {@code [0, outputs.rows())}, each range with its own decoder;
     * row {@code i} is {@code samples.get(i)}. The first pass reads each range's records ahead in
     * groups ({@link RecordPrefetch}), each group from a row that {@linkplain
     * RowDecoder#needsReadAhead needs it} on; before a row that does not, it reads the first byte
     * of the record {@link RecordPrefetch#FIRST_AHEAD} rows on.
     *
     * @throws IllegalArgumentException if there is not one sample per row
     */
    public static void run(ParallelLoop loop, List<? extends RecordSlice> samples, BatchOutputs outputs,
                           Supplier<? extends RowDecoder> decoders) {
        int n = outputs.rows();
        if (samples.size() != n) {
            throw new IllegalArgumentException(samples.size() + " samples for " + n + " rows");
        }
        long outputRowBytes = outputs.denseRowBytes();
        loop.forRanges(n, MIN_ROWS_PER_RANGE, (start, end) -> {
            RowDecoder d = decoders.get();
            long firstBytes = 0;
            for (int row = start; row < end; ) {
                if (!d.needsReadAhead(row)) {
                    // Its copy reads the record front to back. The first line of the record a few
                    // rows on, a miss in a shuffled batch, is asked for now, so that it comes in
                    // during this copy rather than holding up that record's own.
                    firstBytes += RecordPrefetch.first(samples, row + RecordPrefetch.FIRST_AHEAD);
                    d.decode(row++);
                    continue;
                }
                // Each group's records are read ahead at once, then decoded from the cache.
                int groupEnd = RecordPrefetch.group(samples, row, end, outputRowBytes);
                for (; row < groupEnd; row++) {
                    d.decode(row);
                }
            }
            RecordPrefetch.keep(firstBytes);
        });
        if (outputs.hasRagged()) {
            outputs.writeOffsets();
            loop.forRanges(n, MIN_ROWS_PER_RANGE, (start, end) -> {
                RowDecoder d = decoders.get();
                for (int row = start; row < end; row++) {
                    d.copyRagged(row);
                }
            });
        }
    }
}
