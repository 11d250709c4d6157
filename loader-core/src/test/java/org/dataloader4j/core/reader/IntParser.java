package org.dataloader4j.core.reader;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;

/**
 * A parser of integers for tests: {@code id} (INT64, the sample), {@code features} (FLOAT32,
 * three values derived from it) and {@code tokens} (ragged INT32, {@code id % 4} values). Rows
 * are split over the loop one row at a time, so every parse thread gets work.
 */
public final class IntParser implements Parser<Integer> {
    static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** A parser of the test samples. */
    public IntParser() {
    }

    @Override
    public List<TensorSpec> outputs(int batchCapacity) {
        return List.of(
                TensorSpec.dense("id", DataType.INT64, Shape.of(batchCapacity)),
                TensorSpec.dense("features", DataType.FLOAT32, Shape.of(batchCapacity, 3)),
                TensorSpec.ragged("tokens", DataType.INT32, batchCapacity, 3L * batchCapacity));
    }

    @Override
    public void parse(List<? extends Integer> samples, Batch out, ParallelLoop loop) {
        MemorySegment id = out.tensor("id").segment();
        MemorySegment features = out.tensor("features").segment();
        RaggedTensor tokens = out.ragged("tokens");
        MemorySegment offsets = tokens.offsets().segment();
        MemorySegment values = tokens.values().segment();
        // Offsets need every earlier row's length: one sequential pass, then rows in parallel.
        long offset = 0;
        for (int i = 0; i < samples.size(); i++) {
            offsets.setAtIndex(I64, i, offset);
            offset += samples.get(i) % 4;
        }
        offsets.setAtIndex(I64, samples.size(), offset);
        loop.forRanges(samples.size(), 1, (start, end) -> {
            for (int i = start; i < end; i++) {
                int v = samples.get(i);
                id.setAtIndex(I64, i, v);
                for (int c = 0; c < 3; c++) {
                    features.setAtIndex(F32, 3L * i + c, v * 1.5f + c);
                }
                long at = offsets.getAtIndex(I64, i);
                for (int k = 0; k < v % 4; k++) {
                    values.setAtIndex(I32, at + k, v * 10 + k);
                }
            }
        });
    }

    /** What one batch holds, copied to the heap so it outlives the batch. */
    record Rows(long[] id, float[] features, long[] offsets, int[] tokens, long epoch) {
        static Rows of(Batch b) {
            RaggedTensor t = b.ragged("tokens");
            long[] offsets = t.offsets().toLongArray();
            int[] tokens = t.values().rows(0, offsets[offsets.length - 1]).toIntArray();
            return new Rows(b.tensor("id").toLongArray(), b.tensor("features").toFloatArray(), offsets, tokens, b.epoch());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Rows r && java.util.Arrays.equals(id, r.id) && java.util.Arrays.equals(features, r.features)
                    && java.util.Arrays.equals(offsets, r.offsets) && java.util.Arrays.equals(tokens, r.tokens) && epoch == r.epoch;
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(id);
        }

        @Override
        public String toString() {
            return "Rows" + java.util.Arrays.toString(id);
        }
    }
}
