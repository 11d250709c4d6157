package org.dataloader4j.core.batch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Lease;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.api.TensorSpec;

/**
 * The memory of one batch of a parser's outputs: for each {@link TensorSpec}, its values, and for
 * a ragged output its row offsets, allocated together from an arena that the caller owns and
 * frees. A reader's slots and a {@link BatchBuffer} hold one each; the tensors handed out are
 * views of it, checked against a {@link Lease} on every access.
 *
 * <p>Immutable; the memory itself is written by whoever fills the batch.
 */
public final class OutputSet {
    /** Alignment of every output's memory: a cache line. */
    private static final long ALIGNMENT = 64;

    private final TensorSpec[] specs;
    private final MemorySegment[] values;
    private final MemorySegment[] offsets;

    private OutputSet(TensorSpec[] specs, MemorySegment[] values, MemorySegment[] offsets) {
        this.specs = specs;
        this.values = values;
        this.offsets = offsets;
    }

    /**
     * The outputs {@code parser} declares for batches of {@code capacity} rows, {@linkplain
     * #checked checked}.
     *
     * @throws IllegalArgumentException naming the output that breaks a rule
     */
    public static List<TensorSpec> specsOf(Parser<?> parser, int capacity) {
        checkCapacity(capacity);
        return checked(parser.outputs(capacity), capacity);
    }

    /**
     * {@code outputs} (copied), checked as outputs of batches of {@code capacity} rows: capacity
     * at least 1, each name once, each output with {@code capacity} rows.
     *
     * @throws IllegalArgumentException naming the output that breaks a rule
     */
    public static List<TensorSpec> checked(List<TensorSpec> outputs, int capacity) {
        checkCapacity(capacity);
        List<TensorSpec> specs = List.copyOf(outputs);
        Set<String> names = new HashSet<>();
        for (TensorSpec spec : specs) {
            if (!names.add(spec.name())) {
                throw new IllegalArgumentException("parser declares output " + spec.name() + " twice");
            }
            if (spec.shape().dim(0) != capacity) {
                throw new IllegalArgumentException("output " + spec.name() + " must have batchSize=" + capacity
                        + " rows, has shape " + spec.shape());
            }
        }
        return specs;
    }

    private static void checkCapacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be > 0: capacity=" + capacity);
        }
    }

    /** One set of {@code specs}' memory from {@code arena}, each output 64-byte aligned. */
    public static OutputSet allocate(List<TensorSpec> specs, Arena arena) {
        int n = specs.size();
        TensorSpec[] s = specs.toArray(TensorSpec[]::new);
        MemorySegment[] values = new MemorySegment[n];
        MemorySegment[] offsets = new MemorySegment[n];
        for (int i = 0; i < n; i++) {
            TensorSpec spec = s[i];
            if (spec.isRagged()) {
                values[i] = arena.allocate(spec.valueCapacity() * spec.dataType().byteSize(), ALIGNMENT);
                offsets[i] = arena.allocate((spec.shape().dim(0) + 1) * DataType.INT64.byteSize(), ALIGNMENT);
            } else {
                values[i] = arena.allocate(spec.byteSize(), ALIGNMENT);
            }
        }
        return new OutputSet(s, values, offsets);
    }

    /** The number of outputs. */
    public int size() {
        return specs.length;
    }

    /** The outputs' names, in the order the parser declared them. */
    public List<String> names() {
        List<String> names = new ArrayList<>(specs.length);
        for (TensorSpec spec : specs) {
            names.add(spec.name());
        }
        return Collections.unmodifiableList(names);
    }

    /**
     * The position of output {@code name}, which must be ragged if {@code ragged}, else dense.
     *
     * @throws IllegalArgumentException if there is no such output, or it is of the other kind
     */
    public int indexOf(String name, boolean ragged) {
        for (int i = 0; i < specs.length; i++) {
            if (specs[i].name().equals(name)) {
                if (specs[i].isRagged() != ragged) {
                    throw new IllegalArgumentException(name + " is " + (ragged ? "dense: use tensor()" : "ragged: use ragged()"));
                }
                return i;
            }
        }
        throw new IllegalArgumentException("no output named " + name + "; outputs: " + names());
    }

    /** Dense output {@code i} as a tensor of {@code rows} rows, checked against {@code lease}. */
    public Tensor tensor(int i, int rows, Lease lease) {
        TensorSpec spec = specs[i];
        return Tensor.of(spec.name(), values[i], spec.shape().withRows(rows), spec.dataType(), lease);
    }

    /** Ragged output {@code i} with {@code rows} rows: all its values' memory, and its rows' offsets. */
    public RaggedTensor ragged(int i, int rows, Lease lease) {
        TensorSpec spec = specs[i];
        Tensor v = Tensor.of(spec.name(), values[i], Shape.of(spec.valueCapacity()), spec.dataType(), lease);
        Tensor o = Tensor.of(spec.name() + ".offsets", offsets[i], Shape.of(rows + 1L), DataType.INT64, lease);
        return new RaggedTensor(spec.name(), v, o);
    }

    /** Sets every byte of every output, values and offsets, to {@code b}. */
    public void fill(byte b) {
        for (int i = 0; i < specs.length; i++) {
            values[i].fill(b);
            if (offsets[i] != null) {
                offsets[i].fill(b);
            }
        }
    }
}
