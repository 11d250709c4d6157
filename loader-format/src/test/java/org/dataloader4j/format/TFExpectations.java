package org.dataloader4j.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.util.List;
import java.util.Map;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.format.tf.Feature;
import org.dataloader4j.format.tf.FeatureList;
import org.dataloader4j.format.tf.SequenceExample;
import org.dataloader4j.testkit.ExpectedBytes;
import org.dataloader4j.testkit.ExpectedFeature;
import org.dataloader4j.testkit.ExpectedRecord;

/**
 * Compares decoded {@code tf.Example} and {@code tf.SequenceExample} messages with the expected
 * JSON, feature by feature: type (a feature with no list set is its own type), count, int64
 * exactly, floats by bit pattern, bytes exactly or by digest.
 */
final class TFExpectations {
    private TFExpectations() {
    }

    /** {@code got} has exactly the features of {@code want}. */
    static void assertExample(ExpectedRecord want, Example got, String where) {
        assertEquals(ExpectedRecord.Kind.FEATURES, want.kind(), where);
        assertFeatures(want.features(), got.getFeatures().getFeatureMap(), where);
    }

    /** {@code got} has exactly the context and the feature lists of {@code want}, step by step. */
    static void assertSequenceExample(ExpectedRecord want, SequenceExample got, String where) {
        assertEquals(ExpectedRecord.Kind.SEQUENCE, want.kind(), where);
        assertFeatures(want.context(), got.getContext().getFeatureMap(), where + ", context");
        Map<String, FeatureList> lists = got.getFeatureLists().getFeatureListMap();
        assertEquals(want.featureLists().keySet(), lists.keySet(), where + ": feature list keys");
        for (Map.Entry<String, List<ExpectedFeature>> e : want.featureLists().entrySet()) {
            List<Feature> steps = lists.get(e.getKey()).getFeatureList();
            String at = where + ", feature list " + e.getKey();
            assertEquals(e.getValue().size(), steps.size(), at + ": steps");
            for (int i = 0; i < steps.size(); i++) {
                assertFeature(e.getValue().get(i), steps.get(i), at + "[" + i + "]");
            }
        }
    }

    static void assertFeatures(Map<String, ExpectedFeature> want, Map<String, Feature> got, String where) {
        assertEquals(want.keySet(), got.keySet(), where + ": feature keys");
        for (Map.Entry<String, ExpectedFeature> e : want.entrySet()) {
            Feature actual = got.get(e.getKey());
            assertNotNull(actual, where + ": feature " + e.getKey());
            assertFeature(e.getValue(), actual, where + ", feature " + e.getKey());
        }
    }

    /** {@code got} holds exactly the float bits {@code want} holds. */
    static void assertFloats(ExpectedFeature want, List<Float> got, String where) {
        int[] bits = new int[got.size()];
        for (int i = 0; i < bits.length; i++) {
            bits[i] = Float.floatToRawIntBits(got.get(i));
        }
        assertArrayEquals(want.floatBits(), bits, where + ": float bits");
    }

    /** {@code got} holds the byte strings {@code want} describes (whole, or by length and hash). */
    static void assertBytes(ExpectedFeature want, List<ByteString> got, String where) {
        assertEquals(want.count(), got.size(), where + ": count");
        for (int i = 0; i < got.size(); i++) {
            ExpectedBytes w = want.bytes().get(i);
            byte[] actual = got.get(i).toByteArray();
            assertTrue(w.matches(actual), where + ": value " + i + " is " + actual.length
                    + " bytes, sha256 " + ExpectedBytes.sha256Hex(actual) + ", expected " + w);
        }
    }

    static void assertFeature(ExpectedFeature want, Feature got, String where) {
        assertEquals(want.type(), typeOf(got), where + ": type");
        switch (want.type()) {
            case INT64 -> assertArrayEquals(want.longs(),
                    got.getInt64List().getValueList().stream().mapToLong(Long::longValue).toArray(), where + ": values");
            case FLOAT -> assertFloats(want, got.getFloatList().getValueList(), where);
            case BYTES -> assertBytes(want, got.getBytesList().getValueList(), where);
            default -> assertEquals(0, want.count(), where); // NONE; DOUBLE and INT32 failed on the type
        }
        assertEquals(want.count(), count(got), where + ": count");
    }

    private static ExpectedFeature.Type typeOf(Feature f) {
        return switch (f.getKindCase()) {
            case BYTES_LIST -> ExpectedFeature.Type.BYTES;
            case FLOAT_LIST -> ExpectedFeature.Type.FLOAT;
            case INT64_LIST -> ExpectedFeature.Type.INT64;
            case KIND_NOT_SET -> ExpectedFeature.Type.NONE;
        };
    }

    private static int count(Feature f) {
        return switch (f.getKindCase()) {
            case BYTES_LIST -> f.getBytesList().getValueCount();
            case FLOAT_LIST -> f.getFloatList().getValueCount();
            case INT64_LIST -> f.getInt64List().getValueCount();
            case KIND_NOT_SET -> 0;
        };
    }
}
