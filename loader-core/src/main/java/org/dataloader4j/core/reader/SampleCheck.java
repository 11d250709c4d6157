package org.dataloader4j.core.reader;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.ParallelLoop;

/**
 * Judges one sample at a time the way a batch parse would: parses it alone into one row of
 * memory of its own, and throws what the parser throws. A sample it passes parses in any batch.
 * A skip policy runs it on the load thread, before the sample enters a batch, so that a corrupt
 * sample can be replaced by the next good one instead of failing a batch already formed. That
 * doubles the parsing work of every sample, on one thread; strict readers do not run it.
 *
 * <p>Owns its row's off-heap memory until {@link #close()}. One thread at a time.
 *
 * @param <T> the sample type
 */
public final class SampleCheck<T> implements AutoCloseable {
    private final Parser<? super T> parser;
    private final Arena arena;
    private final Slot row;
    private boolean closed;

    /** A check by {@code parser}, whose outputs for one row are allocated here. */
    public SampleCheck(Parser<? super T> parser) {
        this.parser = Objects.requireNonNull(parser, "parser");
        this.arena = Arena.ofShared();
        try {
            this.row = new Slot(DataReader.checkedOutputs(parser, 1), arena);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Parses {@code sample} alone.
     *
     * @throws CorruptDataException if the parser finds it malformed
     * @throws IllegalStateException if the check is closed
     */
    public void check(T sample) {
        if (closed) {
            throw new IllegalStateException("sample check by " + parser + " is closed");
        }
        List<T> one = List.of(sample);
        parser.parse(one, new SlotView(row, 1, 1, null), ParallelLoop.sequential());
    }

    /** Frees the row's memory. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }
}
