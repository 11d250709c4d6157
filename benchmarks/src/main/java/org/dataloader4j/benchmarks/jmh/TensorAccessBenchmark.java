package org.dataloader4j.benchmarks.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A tensor element by element, as a training loop reads a batch and a user's parser may fill one:
 * every element of a 256 × 784 tensor summed, or written, through {@link Tensor}'s accessors
 * ({@code getFloat}/{@code setFloat}, {@code getInt}/{@code setInt}, {@code getLong}/{@code setLong}),
 * against the same done on {@link Tensor#segment()} with a constant layout. The accessors check
 * the tensor's lease on each access: one like a batch's, or the permanent one of a tensor over
 * the caller's own memory. ns per operation is for the whole tensor: divide by 200,704 for one
 * element.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TensorAccessBenchmark {
    private static final int ROWS = 256;
    private static final int WIDTH = 784;
    private static final ValueLayout.OfFloat F32 = (ValueLayout.OfFloat) DataType.FLOAT32.layout();
    private static final ValueLayout.OfInt I32 = (ValueLayout.OfInt) DataType.INT32.layout();
    private static final ValueLayout.OfLong I64 = (ValueLayout.OfLong) DataType.INT64.layout();

    /** The element type. */
    @Param({"FLOAT32", "INT32", "INT64"})
    public DataType type;

    /**
     * {@code BATCH}: a lease that reads a volatile field, as a batch's tensors check theirs;
     * {@code PERMANENT}: {@link org.dataloader4j.api.Lease#PERMANENT}, a tensor over memory the caller owns.
     */
    @Param({"BATCH", "PERMANENT"})
    public String lease;

    private Arena arena;
    private Tensor tensor;
    private volatile boolean released;

    /** A tensor of known values with the lease asked for. */
    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        Shape shape = Shape.of(ROWS, WIDTH);
        MemorySegment segment = arena.allocate(shape.elementCount() * type.byteSize(), 64);
        tensor = lease.equals("PERMANENT") ? Tensor.of("values", segment, shape, type)
                : Tensor.of("values", segment, shape, type, () -> {
                    if (released) {
                        throw new IllegalStateException("released");
                    }
                });
        for (long i = 0; i < shape.elementCount(); i++) {
            switch (type) {
                case FLOAT32 -> tensor.setFloat(i, i % 255);
                case INT32 -> tensor.setInt(i, (int) (i % 30_522));
                case INT64 -> tensor.setLong(i, i % 10);
                default -> throw new IllegalStateException(type.name());
            }
        }
    }

    /** Frees the tensor's memory. */
    @TearDown(Level.Trial)
    public void tearDown() {
        released = true;
        arena.close();
    }

    /** Every element through the tensor's accessor for its type. */
    @Benchmark
    public double getters() {
        Tensor t = tensor;
        long n = t.elementCount();
        double sum = 0;
        switch (type) {
            case FLOAT32 -> {
                for (long i = 0; i < n; i++) {
                    sum += t.getFloat(i);
                }
            }
            case INT32 -> {
                for (long i = 0; i < n; i++) {
                    sum += t.getInt(i);
                }
            }
            case INT64 -> {
                for (long i = 0; i < n; i++) {
                    sum += t.getLong(i);
                }
            }
            default -> throw new IllegalStateException(type.name());
        }
        return sum;
    }

    /** Every element written through the tensor's setter for its type. */
    @Benchmark
    public Tensor setters() {
        Tensor t = tensor;
        long n = t.elementCount();
        switch (type) {
            case FLOAT32 -> {
                for (long i = 0; i < n; i++) {
                    t.setFloat(i, i);
                }
            }
            case INT32 -> {
                for (long i = 0; i < n; i++) {
                    t.setInt(i, (int) i);
                }
            }
            case INT64 -> {
                for (long i = 0; i < n; i++) {
                    t.setLong(i, i);
                }
            }
            default -> throw new IllegalStateException(type.name());
        }
        return t;
    }

    /** Every element read from the segment with a constant layout: what the getters should cost. */
    @Benchmark
    public double segmentReads() {
        MemorySegment s = tensor.segment();
        long n = tensor.elementCount();
        double sum = 0;
        switch (type) {
            case FLOAT32 -> {
                for (long i = 0; i < n; i++) {
                    sum += s.getAtIndex(F32, i);
                }
            }
            case INT32 -> {
                for (long i = 0; i < n; i++) {
                    sum += s.getAtIndex(I32, i);
                }
            }
            case INT64 -> {
                for (long i = 0; i < n; i++) {
                    sum += s.getAtIndex(I64, i);
                }
            }
            default -> throw new IllegalStateException(type.name());
        }
        return sum;
    }

    /** Every element written to the segment with a constant layout: what the setters should cost. */
    @Benchmark
    public Tensor segmentWrites() {
        MemorySegment s = tensor.segment();
        long n = tensor.elementCount();
        switch (type) {
            case FLOAT32 -> {
                for (long i = 0; i < n; i++) {
                    s.setAtIndex(F32, i, i);
                }
            }
            case INT32 -> {
                for (long i = 0; i < n; i++) {
                    s.setAtIndex(I32, i, (int) i);
                }
            }
            case INT64 -> {
                for (long i = 0; i < n; i++) {
                    s.setAtIndex(I64, i, i);
                }
            }
            default -> throw new IllegalStateException(type.name());
        }
        return tensor;
    }
}
