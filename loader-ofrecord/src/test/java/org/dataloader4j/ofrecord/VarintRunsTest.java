package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.testing.TestRecords;
import org.junit.jupiter.api.Test;

/**
 * Packed varint lists whose values are one byte long in runs of every length, among values of
 * every other length: runs of eight and more are copied eight at a time, varints of up to four
 * bytes without a loop, longer ones byte by byte, and every type and truncation gets the same
 * values either way.
 */
class VarintRunsTest {
    private static final int N = 64;

    /** {@code N} values: seeded runs of 0 to 127 (one byte each), broken by values of 1 to 10 bytes. */
    private static long[] values(long seed) {
        Random random = new Random(seed);
        long[] v = new long[N];
        for (int i = 0; i < N; i++) {
            v[i] = random.nextInt(4) == 0 ? switch (random.nextInt(4)) {
                case 0 -> 128 + random.nextInt(30_000);
                case 1 -> random.nextInt(1 << 28);
                case 2 -> -1 - random.nextInt(1000);
                default -> random.nextLong() >>> random.nextInt(64);
            } : random.nextInt(128);
        }
        return v;
    }

    @Test
    void everyTypeAndTruncationGetsTheValuesOfEveryRun() {
        for (long seed = 0; seed < 50; seed++) {
            long[] v = values(seed);
            for (int kind : new int[] {4, 5}) {
                byte[] record = Proto.record(Proto.entry("ids", Proto.feature(kind, Proto.packedVarints(v))),
                        Proto.entry("ints", Proto.feature(kind, Proto.packedVarints(v))),
                        Proto.entry("head", Proto.feature(kind, Proto.packedVarints(v))));
                long[] expected = Arrays.stream(v).map(x -> kind == 4 ? (int) x : x).toArray();
                int keep = 5 + (int) (seed % 50);
                OFRecordParser parser = OFRecordParser.of(
                        OFRecordRawDecoder.of("ids", Shape.of(N), DataType.INT64),
                        OFRecordRawDecoder.of("ints", Shape.of(N), DataType.INT32),
                        OFRecordRawDecoder.of("head", Shape.of(keep), DataType.INT64).withTruncate());
                try (BatchBuffer b = TestRecords.parse(parser, record)) {
                    String where = "seed " + seed + " kind " + kind;
                    assertArrayEquals(expected, b.tensor("ids").toLongArray(), where);
                    assertArrayEquals(Arrays.stream(expected).mapToInt(x -> (int) x).toArray(), b.tensor("ints").toIntArray(), where);
                    assertArrayEquals(Arrays.copyOf(expected, keep), b.tensor("head").toLongArray(), where);
                }
            }
        }
    }
}
