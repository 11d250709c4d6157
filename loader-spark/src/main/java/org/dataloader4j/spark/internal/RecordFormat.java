package org.dataloader4j.spark.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import org.dataloader4j.format.Framing;

/**
 * One record file format, seen as features by name: parses a payload into its features, reads a
 * feature's values as primitive arrays, and builds a payload from values. Stateless.
 *
 * @param <F> the format's feature message
 */
public abstract class RecordFormat<F> implements Serializable {
    private static final long serialVersionUID = 1L;

    /** OneFlow's OFRecord files of {@code OFRecord}s. */
    public static final RecordFormat<?> OFRECORD = new OFRecordFormat();
    /** TensorFlow's TFRecord files of {@code tf.Example}s. */
    public static final RecordFormat<?> TFRECORD = new ExampleFormat();

    /** The data source's short name: {@code ofrecord} or {@code tfrecord}. */
    public abstract String shortName();

    /** How records are framed in this format's files. */
    abstract Framing framing();

    /** The message each record holds, for errors: {@code OFRecord} or {@code tf.Example}. */
    abstract String messageName();

    /** The features of the record {@code payload}, by name. */
    abstract Map<String, F> features(byte[] payload) throws InvalidProtocolBufferException;

    abstract FeatureKind kind(F feature);

    /** The number of values; 0 for a feature with no list. */
    abstract int count(F feature);

    /** The values of an {@link FeatureKind#INT64} or {@link FeatureKind#INT32} feature. */
    abstract long[] longs(F feature);

    /** The values of an {@link FeatureKind#FLOAT} feature. */
    abstract float[] floats(F feature);

    /** The values of a {@link FeatureKind#DOUBLE} feature; a {@link FeatureKind#FLOAT} one widened. */
    abstract double[] doubles(F feature);

    /** The values of a {@link FeatureKind#BYTES} feature. */
    abstract List<ByteString> bytes(F feature);

    /** A builder of one record. */
    abstract RecordBuilder newRecord();

    /** Builds one record's payload, one feature at a time. Not thread-safe. */
    interface RecordBuilder {
        void putInts(String name, int[] values);

        void putLongs(String name, long[] values);

        void putFloats(String name, float[] values);

        void putDoubles(String name, double[] values);

        void putBytes(String name, List<ByteString> values);

        /** The serialized record. */
        byte[] toPayload();
    }
}
