package org.dataloader4j.api;

import java.util.Arrays;

/**
 * The dimensions of a tensor, outermost first. Dimension 0 of a batch tensor is the row.
 * Immutable.
 */
public final class Shape {
    private final long[] dims;

    private Shape(long[] dims) {
        this.dims = dims;
    }

    /**
     * A shape with the given dimensions; each must be {@code >= 0}.
     *
     * @throws IllegalArgumentException if a dimension is negative
     */
    public static Shape of(long... dims) {
        long[] copy = dims.clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] < 0) {
                throw new IllegalArgumentException("dimension must be >= 0: dims=" + Arrays.toString(copy));
            }
        }
        return new Shape(copy);
    }

    /** The number of dimensions. */
    public int rank() {
        return dims.length;
    }

    /** Dimension {@code i}. */
    public long dim(int i) {
        return dims[i];
    }

    /** A copy of the dimensions. */
    public long[] dims() {
        return dims.clone();
    }

    /** The product of all dimensions: 1 for a scalar, 0 if any dimension is 0. */
    public long elementCount() {
        long n = 1;
        for (long d : dims) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    /** The elements in one row: the product of every dimension but the first. */
    public long rowElements() {
        if (dims.length == 0) {
            throw new IllegalStateException("a scalar shape has no rows");
        }
        long n = 1;
        for (int i = 1; i < dims.length; i++) {
            n = Math.multiplyExact(n, dims[i]);
        }
        return n;
    }

    /** This shape with dimension 0 replaced by {@code rows}: this shape itself if it has {@code rows} rows. */
    public Shape withRows(long rows) {
        if (dims.length == 0) {
            throw new IllegalStateException("a scalar shape has no rows");
        }
        if (rows == dims[0]) {
            // A batch's views ask for this once per output and batch: no copy for a full batch.
            return this;
        }
        long[] copy = dims.clone();
        copy[0] = rows;
        return of(copy);
    }

    /** This shape with {@code rows} put in front: the shape of a batch of tensors of this shape. */
    public Shape prepend(long rows) {
        long[] copy = new long[dims.length + 1];
        copy[0] = rows;
        System.arraycopy(dims, 0, copy, 1, dims.length);
        return of(copy);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shape s && Arrays.equals(dims, s.dims);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims);
    }

    /** The dimensions in parentheses, as NumPy prints a shape: {@code (256, 784)}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < dims.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(dims[i]);
        }
        return sb.append(dims.length == 1 ? ",)" : ")").toString();
    }
}
