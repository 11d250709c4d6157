package org.dataloader4j.benchmarks;

import org.dataloader4j.api.Batch;
import org.dataloader4j.api.Tensor;

/**
 * Where the consumers put what they read, so that no reading is optimised away: each consumer
 * sums the first value of every row of every output of every batch.
 */
final class Sink {
    private static volatile double sink;

    private Sink() {
    }

    /** Keeps {@code value} observable. */
    static void consume(double value) {
        sink += value;
    }

    /** The first value of every row of every output of {@code batch}, added up. */
    static double touch(Batch batch, String[] names) {
        double sum = 0;
        int rows = batch.size();
        for (String name : names) {
            Tensor t = batch.tensor(name);
            long width = t.elementCount() / Math.max(1, rows);
            for (int row = 0; row < rows; row++) {
                long i = row * width;
                sum += switch (t.dataType()) {
                    case FLOAT32 -> t.getFloat(i);
                    case FLOAT64 -> t.getDouble(i);
                    case INT64 -> t.getLong(i);
                    case INT32 -> t.getInt(i);
                    case INT8, UINT8 -> t.getByte(i);
                };
            }
        }
        return sum;
    }
}
