package org.dataloader4j.api;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * A dense tensor: an off-heap {@link MemorySegment} holding {@link #shape()} elements of
 * {@link #dataType()}, little-endian, row-major. Dimension 0 is the row.
 *
 * <p>A tensor of a {@link Batch} is a view: it is valid until the batch is released (the next
 * {@code read()} or the batch's {@code close()}), and every accessor throws
 * {@link IllegalStateException} after that. The raw {@link #segment()} cannot be checked on each
 * access: do not keep it past the batch's lifetime.
 *
 * <p>Element accessors take a flat element index ({@code row * rowElements + column}) and check
 * the element type and the lease, each access: a few nanoseconds an element over a batch's
 * memory, where the lease check is a volatile read. To go through every element, copy the
 * tensor out with the {@code to…Array} methods, or read {@link #segment()} (one check) with
 * {@link DataType#layout()} kept in a {@code static final} field, as parsers on a hot path write:
 * the JIT compiles an access inline only through a constant layout.
 */
public final class Tensor {
    // The accessors' layouts as constants: a layout read from a field (DataType.layout()) is not
    // one to the JIT, and a segment access through it is not compiled inline (5.4-6.0 ns an
    // element against 1.7-2.4 ns over a batch, TensorAccessBenchmark).
    private static final ValueLayout.OfInt I32 = (ValueLayout.OfInt) DataType.INT32.layout();
    private static final ValueLayout.OfLong I64 = (ValueLayout.OfLong) DataType.INT64.layout();
    private static final ValueLayout.OfFloat F32 = (ValueLayout.OfFloat) DataType.FLOAT32.layout();
    private static final ValueLayout.OfDouble F64 = (ValueLayout.OfDouble) DataType.FLOAT64.layout();

    private final String name;
    private final MemorySegment segment;
    private final Shape shape;
    private final DataType dataType;
    private final Lease lease;

    private Tensor(String name, MemorySegment segment, Shape shape, DataType dataType, Lease lease) {
        this.name = Objects.requireNonNull(name, "name");
        this.shape = Objects.requireNonNull(shape, "shape");
        this.dataType = Objects.requireNonNull(dataType, "dataType");
        this.lease = Objects.requireNonNull(lease, "lease");
        long bytes = Math.multiplyExact(shape.elementCount(), (long) dataType.byteSize());
        if (segment.byteSize() < bytes) {
            throw new IllegalArgumentException("segment too small for " + dataType + shape + ": needs "
                    + bytes + " bytes, segment.byteSize=" + segment.byteSize());
        }
        this.segment = segment.byteSize() == bytes ? segment : segment.asSlice(0, bytes);
    }

    /** A tensor over memory the caller owns and keeps valid. */
    public static Tensor of(String name, MemorySegment segment, Shape shape, DataType dataType) {
        return new Tensor(name, segment, shape, dataType, Lease.PERMANENT);
    }

    /** A tensor whose accessors check {@code lease} first. */
    public static Tensor of(String name, MemorySegment segment, Shape shape, DataType dataType, Lease lease) {
        return new Tensor(name, segment, shape, dataType, lease);
    }

    /** The name the parser gave this output. */
    public String name() {
        return name;
    }

    /** The shape; dimension 0 is the number of rows. */
    public Shape shape() {
        return shape;
    }

    /** The element type. */
    public DataType dataType() {
        return dataType;
    }

    /** The number of elements. */
    public long elementCount() {
        return shape.elementCount();
    }

    /**
     * The memory, exactly {@code elementCount() * dataType().byteSize()} bytes, for zero-copy
     * hand-off to native code. Valid only as long as this tensor is.
     */
    public MemorySegment segment() {
        lease.check();
        return segment;
    }

    /** Rows {@code [from, from + count)} as a tensor over the same memory and lease. */
    public Tensor rows(long from, long count) {
        lease.check();
        long rows = shape.dim(0);
        if (from < 0 || count < 0 || from + count > rows) {
            throw new IndexOutOfBoundsException("rows [" + from + ", " + (from + count) + ") of " + name + shape);
        }
        long rowBytes = shape.rowElements() * dataType.byteSize();
        return new Tensor(name, segment.asSlice(from * rowBytes, count * rowBytes), shape.withRows(count), dataType, lease);
    }

    /** The element at flat index {@code i} of an INT8 or UINT8 tensor (UINT8 as 0..255). */
    public int getByte(long i) {
        byte b = segment(DataType.INT8, DataType.UINT8).getAtIndex(ValueLayout.JAVA_BYTE, i);
        return dataType == DataType.UINT8 ? Byte.toUnsignedInt(b) : b;
    }

    /** The element at flat index {@code i} of an INT32 tensor. */
    public int getInt(long i) {
        return segment(DataType.INT32).getAtIndex(I32, i);
    }

    /** The element at flat index {@code i} of an INT64 tensor. */
    public long getLong(long i) {
        return segment(DataType.INT64).getAtIndex(I64, i);
    }

    /** The element at flat index {@code i} of a FLOAT32 tensor. */
    public float getFloat(long i) {
        return segment(DataType.FLOAT32).getAtIndex(F32, i);
    }

    /** The element at flat index {@code i} of a FLOAT64 tensor. */
    public double getDouble(long i) {
        return segment(DataType.FLOAT64).getAtIndex(F64, i);
    }

    /** Sets the element at flat index {@code i} of an INT8 or UINT8 tensor to the low 8 bits of {@code v}. */
    public void setByte(long i, int v) {
        segment(DataType.INT8, DataType.UINT8).setAtIndex(ValueLayout.JAVA_BYTE, i, (byte) v);
    }

    /** Sets the element at flat index {@code i} of an INT32 tensor. */
    public void setInt(long i, int v) {
        segment(DataType.INT32).setAtIndex(I32, i, v);
    }

    /** Sets the element at flat index {@code i} of an INT64 tensor. */
    public void setLong(long i, long v) {
        segment(DataType.INT64).setAtIndex(I64, i, v);
    }

    /** Sets the element at flat index {@code i} of a FLOAT32 tensor. */
    public void setFloat(long i, float v) {
        segment(DataType.FLOAT32).setAtIndex(F32, i, v);
    }

    /** Sets the element at flat index {@code i} of a FLOAT64 tensor. */
    public void setDouble(long i, double v) {
        segment(DataType.FLOAT64).setAtIndex(F64, i, v);
    }

    /** A heap copy of an INT8 or UINT8 tensor's bytes. */
    public byte[] toByteArray() {
        return segment(DataType.INT8, DataType.UINT8).toArray(ValueLayout.JAVA_BYTE);
    }

    /** A heap copy of an INT32 tensor. */
    public int[] toIntArray() {
        return segment(DataType.INT32).toArray(I32);
    }

    /** A heap copy of an INT64 tensor. */
    public long[] toLongArray() {
        return segment(DataType.INT64).toArray(I64);
    }

    /** A heap copy of a FLOAT32 tensor. */
    public float[] toFloatArray() {
        return segment(DataType.FLOAT32).toArray(F32);
    }

    /** A heap copy of a FLOAT64 tensor. */
    public double[] toDoubleArray() {
        return segment(DataType.FLOAT64).toArray(F64);
    }

    private MemorySegment segment(DataType expected) {
        if (dataType != expected) {
            throw new IllegalStateException(name + " is " + dataType + ", not " + expected);
        }
        return segment();
    }

    private MemorySegment segment(DataType expected, DataType alsoAccepted) {
        return segment(dataType == alsoAccepted ? alsoAccepted : expected);
    }

    /** The name, type and shape, e.g. {@code images FLOAT32(256, 784)}. */
    @Override
    public String toString() {
        return name + " " + dataType + shape;
    }
}
