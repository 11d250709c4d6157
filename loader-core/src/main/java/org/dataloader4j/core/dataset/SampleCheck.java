package org.dataloader4j.core.dataset;

import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.Parser;
import org.dataloader4j.core.batch.BatchBuffer;

/**
 * Judges one sample at a time the way a batch parse would: parses it alone into a one-row
 * {@link BatchBuffer} of its own, and throws what the parser throws. A sample it passes parses in
 * any batch. A skip policy runs it on the load thread, before the sample enters a batch, so that
 * a corrupt sample can be replaced by the next good one instead of failing a batch already
 * formed. That doubles the parsing work of every sample, on one thread; strict readers do not
 * run it.
 *
 * <p>Owns its row's off-heap memory until {@link #close()}. One thread at a time.
 *
 * @param <T> the sample type
 */
final class SampleCheck<T> implements AutoCloseable {
    private final Parser<? super T> parser;
    private final BatchBuffer row;

    /** A check by {@code parser}, whose outputs for one row are allocated here. */
    SampleCheck(Parser<? super T> parser) {
        this.parser = Objects.requireNonNull(parser, "parser");
        this.row = BatchBuffer.of(parser, 1);
    }

    /**
     * Parses {@code sample} alone.
     *
     * @throws CorruptDataException if the parser finds it malformed
     * @throws IllegalStateException if the check is closed
     */
    void check(T sample) {
        row.parse(parser, List.of(sample));
    }

    /** Frees the row's memory. Idempotent. */
    @Override
    public void close() {
        row.close();
    }
}
