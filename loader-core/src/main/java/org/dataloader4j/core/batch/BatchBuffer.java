package org.dataloader4j.core.batch;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.Lease;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.api.TensorSpec;

/**
 * A preallocated batch that the caller owns: the memory one slot of a reader holds, without the
 * reader and its threads. With it a parser is tested, or run, on samples in hand:
 *
 * <pre>{@code
 * try (BatchBuffer batch = BatchBuffer.of(parser, 4)) {
 *     batch.parse(parser, samples);
 *     long[] labels = batch.tensor("labels").toLongArray();
 * }
 * }</pre>
 *
 * <p>Its outputs are allocated once, from a shared arena it owns and frees in {@link #close()};
 * parsing into it again reuses the memory, as a reader reuses its slots, so what a parser leaves
 * unwritten still holds the earlier batch's bytes ({@link #fill} makes that visible). It holds
 * {@link #capacity()} rows; {@link #size()} is the number of samples last parsed, or the capacity
 * before any parse. Tensors taken from it are valid until it is closed. One thread at a time, but
 * a parse may split its rows over a {@link ParallelLoop}'s threads.
 */
public final class BatchBuffer implements Batch {
    private final Arena arena;
    private final OutputSet outputs;
    private final int capacity;
    private final Lease lease = this::check;
    private int size;
    private boolean closed;

    private BatchBuffer(List<TensorSpec> specs, int capacity) {
        this.capacity = capacity;
        this.size = capacity;
        this.arena = Arena.ofShared();
        try {
            this.outputs = OutputSet.allocate(specs, arena);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /**
     * A batch of {@code parser}'s outputs for up to {@code capacity} rows.
     *
     * @throws IllegalArgumentException if {@code capacity < 1} or the parser's outputs do not fit
     *                                  it (see {@link OutputSet#specsOf})
     */
    public static BatchBuffer of(Parser<?> parser, int capacity) {
        return new BatchBuffer(OutputSet.specsOf(Objects.requireNonNull(parser, "parser"), capacity), capacity);
    }

    /**
     * A batch of {@code outputs}, each of {@code capacity} rows.
     *
     * @throws IllegalArgumentException if {@code capacity < 1} or an output has another number of rows
     */
    public static BatchBuffer of(List<TensorSpec> outputs, int capacity) {
        return new BatchBuffer(OutputSet.checked(outputs, capacity), capacity);
    }

    /**
     * Parses {@code samples} into rows {@code [0, samples.size())} over {@code loop}; the batch's
     * size becomes {@code samples.size()}. Returns this batch.
     *
     * @throws IllegalArgumentException if there are more samples than rows
     * @throws IllegalStateException    if the batch is closed
     * @throws org.dataloader4j.api.CorruptDataException as the parser throws it
     */
    public <T> BatchBuffer parse(Parser<? super T> parser, List<? extends T> samples, ParallelLoop loop) {
        check();
        if (samples.size() > capacity) {
            throw new IllegalArgumentException("a batch of capacity=" + capacity + " cannot hold " + samples.size()
                    + " samples");
        }
        size = samples.size();
        parser.parse(samples, this, loop);
        return this;
    }

    /** {@link #parse(Parser, List, ParallelLoop)} on the calling thread alone. */
    public <T> BatchBuffer parse(Parser<? super T> parser, List<? extends T> samples) {
        return parse(parser, samples, ParallelLoop.sequential());
    }

    /**
     * Sets every byte of every output to {@code b}, as a batch parsed earlier may have left them:
     * a parser must write all of each row it is given. Returns this batch.
     */
    public BatchBuffer fill(int b) {
        check();
        outputs.fill((byte) b);
        return this;
    }

    @Override
    public int size() {
        check();
        return size;
    }

    @Override
    public int capacity() {
        check();
        return capacity;
    }

    /** Always 0: a batch in hand was read in no epoch. */
    @Override
    public long epoch() {
        check();
        return 0;
    }

    /** Always 0, for every row in {@code [0, size())}: a batch in hand was read in no epoch. */
    @Override
    public long epoch(int row) {
        check();
        Objects.checkIndex(row, size);
        return 0;
    }

    /** Always 0: a batch in hand is no reader's output. */
    @Override
    public long index() {
        check();
        return 0;
    }

    @Override
    public List<String> names() {
        check();
        return outputs.names();
    }

    @Override
    public Tensor tensor(String name) {
        check();
        return outputs.tensor(outputs.indexOf(name, false), size, lease);
    }

    @Override
    public RaggedTensor ragged(String name) {
        check();
        return outputs.ragged(outputs.indexOf(name, true), size, lease);
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException("batch buffer " + outputs.names() + " is closed");
        }
    }

    /** Frees the memory; tensors taken from the batch fail from then on. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }

    @Override
    public String toString() {
        return "BatchBuffer[size=" + size + ", capacity=" + capacity + ", outputs=" + outputs.names() + "]";
    }
}
