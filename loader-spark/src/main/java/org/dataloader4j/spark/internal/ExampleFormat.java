package org.dataloader4j.spark.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.List;
import java.util.Map;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.tf.BytesList;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.format.tf.Feature;
import org.dataloader4j.format.tf.Features;
import org.dataloader4j.format.tf.FloatList;
import org.dataloader4j.format.tf.Int64List;

/**
 * TFRecord files of tf.Examples: three list kinds, so ints are written as {@code int64_list} and
 * doubles as {@code float_list}, rounded to float as TensorFlow itself stores them.
 */
final class ExampleFormat extends RecordFormat<Feature> {
    private static final long serialVersionUID = 1L;

    @Override
    public String shortName() {
        return "tfrecord";
    }

    @Override
    Framing framing() {
        return Framing.TFRECORD;
    }

    @Override
    String messageName() {
        return "tf.Example";
    }

    @Override
    Map<String, Feature> features(byte[] payload) throws InvalidProtocolBufferException {
        return Example.parseFrom(payload).getFeatures().getFeatureMap();
    }

    @Override
    FeatureKind kind(Feature f) {
        return switch (f.getKindCase()) {
            case BYTES_LIST -> FeatureKind.BYTES;
            case FLOAT_LIST -> FeatureKind.FLOAT;
            case INT64_LIST -> FeatureKind.INT64;
            case KIND_NOT_SET -> FeatureKind.NONE;
        };
    }

    @Override
    int count(Feature f) {
        return switch (f.getKindCase()) {
            case BYTES_LIST -> f.getBytesList().getValueCount();
            case FLOAT_LIST -> f.getFloatList().getValueCount();
            case INT64_LIST -> f.getInt64List().getValueCount();
            case KIND_NOT_SET -> 0;
        };
    }

    @Override
    long[] longs(Feature f) {
        Int64List list = f.getInt64List();
        long[] out = new long[list.getValueCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.getValue(i);
        }
        return out;
    }

    @Override
    float[] floats(Feature f) {
        FloatList list = f.getFloatList();
        float[] out = new float[list.getValueCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.getValue(i);
        }
        return out;
    }

    @Override
    double[] doubles(Feature f) {
        FloatList list = f.getFloatList();
        double[] out = new double[list.getValueCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.getValue(i);
        }
        return out;
    }

    @Override
    List<ByteString> bytes(Feature f) {
        return f.getBytesList().getValueList();
    }

    @Override
    RecordBuilder newRecord() {
        Features.Builder features = Features.newBuilder();
        return new RecordBuilder() {
            @Override
            public void putInts(String name, int[] values) {
                Int64List.Builder list = Int64List.newBuilder();
                for (int v : values) {
                    list.addValue(v);
                }
                features.putFeature(name, Feature.newBuilder().setInt64List(list).build());
            }

            @Override
            public void putLongs(String name, long[] values) {
                Int64List.Builder list = Int64List.newBuilder();
                for (long v : values) {
                    list.addValue(v);
                }
                features.putFeature(name, Feature.newBuilder().setInt64List(list).build());
            }

            @Override
            public void putFloats(String name, float[] values) {
                FloatList.Builder list = FloatList.newBuilder();
                for (float v : values) {
                    list.addValue(v);
                }
                features.putFeature(name, Feature.newBuilder().setFloatList(list).build());
            }

            @Override
            public void putDoubles(String name, double[] values) {
                FloatList.Builder list = FloatList.newBuilder();
                for (double v : values) {
                    list.addValue((float) v);
                }
                features.putFeature(name, Feature.newBuilder().setFloatList(list).build());
            }

            @Override
            public void putBytes(String name, List<ByteString> values) {
                features.putFeature(name, Feature.newBuilder().setBytesList(BytesList.newBuilder().addAllValue(values)).build());
            }

            @Override
            public byte[] toPayload() {
                return Example.newBuilder().setFeatures(features).build().toByteArray();
            }
        };
    }

    private Object readResolve() {
        return TFRECORD;
    }
}
