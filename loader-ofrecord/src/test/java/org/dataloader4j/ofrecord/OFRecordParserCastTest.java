package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Map;
import java.util.function.Function;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.testing.TestRecords;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.proto.Feature;
import org.junit.jupiter.api.Test;

/**
 * Values stored as one list type and read as another: C++'s {@code static_cast}, except that
 * floating values saturate at an integer type's range and NaN becomes 0.
 */
class OFRecordParserCastTest {

    /** Feature {@code x} read into a row of {@code n} elements of {@code type}, copied out by {@code copy}. */
    private static <T> T read(Feature feature, DataType type, int n, Function<Tensor, T> copy) {
        OFRecordParser parser = OFRecordParser.of(OFRecordRawDecoder.of("x", Shape.of(n), type));
        try (BatchBuffer b = TestRecords.parse(parser, OFRecordParserTest.canonical(Map.of("x", feature)))) {
            return copy.apply(b.tensor("x"));
        }
    }

    @Test
    void floatsSaturateIntoIntegersAndNanIsZero() {
        Feature f = Features.floatFeature(300.7f, -300f, Float.NaN, 1.9f, -1.9f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY);
        assertArrayEquals(new byte[] {127, -128, 0, 1, -1, 127, -128}, read(f, DataType.INT8, 7, Tensor::toByteArray));
        assertArrayEquals(new byte[] {(byte) 255, 0, 0, 1, 0, (byte) 255, 0}, read(f, DataType.UINT8, 7, Tensor::toByteArray));
        assertArrayEquals(new int[] {300, -300, 0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE}, read(f, DataType.INT32, 7, Tensor::toIntArray));
        assertArrayEquals(new long[] {300, -300, 0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE}, read(f, DataType.INT64, 7, Tensor::toLongArray));
    }

    @Test
    void doublesSaturateToo() {
        Feature f = Features.doubleFeature(1e300, -1e300, Double.NaN, 255.99, 3e9);
        assertArrayEquals(new byte[] {(byte) 255, 0, 0, (byte) 255, (byte) 255}, read(f, DataType.UINT8, 5, Tensor::toByteArray));
        assertArrayEquals(new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE, 0, 255, Integer.MAX_VALUE}, read(f, DataType.INT32, 5, Tensor::toIntArray));
        assertArrayEquals(new long[] {Long.MAX_VALUE, Long.MIN_VALUE, 0, 255, 3_000_000_000L}, read(f, DataType.INT64, 5, Tensor::toLongArray));
    }

    @Test
    void floatingTypesRoundToNearest() {
        float[] narrowed = read(Features.doubleFeature(1e300, 0.1, -0.0, 1e-50), DataType.FLOAT32, 4, Tensor::toFloatArray);
        assertArrayEquals(new float[] {Float.POSITIVE_INFINITY, 0.1f, -0.0f, 0.0f}, narrowed);
        double[] widened = read(Features.floatFeature(0.1f, -0.0f), DataType.FLOAT64, 2, Tensor::toDoubleArray);
        assertArrayEquals(new double[] {0.1f, -0.0}, widened);
    }

    @Test
    void integersKeepTheirLowBitsInNarrowerIntegers() {
        Feature f = Features.int64Feature((1L << 32) + 5, -1, Long.MIN_VALUE, 300, 200);
        assertArrayEquals(new int[] {5, -1, 0, 300, 200}, read(f, DataType.INT32, 5, Tensor::toIntArray));
        assertArrayEquals(new byte[] {5, (byte) 255, 0, 44, (byte) 200}, read(f, DataType.UINT8, 5, Tensor::toByteArray));
        assertArrayEquals(new byte[] {5, -1, 0, 44, -56}, read(f, DataType.INT8, 5, Tensor::toByteArray));
    }

    @Test
    void integersBecomeTheNearestFloatingValue() {
        Feature f = Features.int64Feature((1L << 24) + 1, Long.MAX_VALUE, -3);
        assertArrayEquals(new float[] {16_777_216f, 9.223372e18f, -3f}, read(f, DataType.FLOAT32, 3, Tensor::toFloatArray));
        assertArrayEquals(new double[] {16_777_217.0, 9.223372036854775807E18, -3.0}, read(f, DataType.FLOAT64, 3, Tensor::toDoubleArray));
    }

    @Test
    void negativeInt32sAreSignExtended() {
        Feature f = Features.int32Feature(-5, Integer.MIN_VALUE, -1);
        assertArrayEquals(new long[] {-5, Integer.MIN_VALUE, -1}, read(f, DataType.INT64, 3, Tensor::toLongArray));
        assertArrayEquals(new byte[] {(byte) 251, 0, (byte) 255}, read(f, DataType.UINT8, 3, Tensor::toByteArray));
        assertArrayEquals(new double[] {-5, Integer.MIN_VALUE, -1}, read(f, DataType.FLOAT64, 3, Tensor::toDoubleArray));
    }

    @Test
    void defaultsAreCastLikeValues() {
        OFRecordParser parser = OFRecordParser.of(
                OFRecordRawDecoder.of("u", Shape.of(2), DataType.UINT8).withDefault(300.5),
                OFRecordRawDecoder.of("i", Shape.of(2), DataType.INT32).withDefault(-7.9),
                OFRecordRawDecoder.of("n", Shape.of(1), DataType.INT64).withDefault(Double.NaN),
                OFRecordRawDecoder.of("f", Shape.of(1), DataType.FLOAT32).withDefault(0.1));
        try (BatchBuffer b = TestRecords.parse(parser, Proto.record())) {
            assertArrayEquals(new byte[] {(byte) 255, (byte) 255}, b.tensor("u").toByteArray());
            assertArrayEquals(new int[] {-7, -7}, b.tensor("i").toIntArray());
            assertArrayEquals(new long[] {0}, b.tensor("n").toLongArray());
            assertArrayEquals(new float[] {0.1f}, b.tensor("f").toFloatArray());
        }
    }
}
