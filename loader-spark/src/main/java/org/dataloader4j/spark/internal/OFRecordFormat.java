package org.dataloader4j.spark.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.List;
import java.util.Map;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.proto.BytesList;
import org.dataloader4j.format.proto.DoubleList;
import org.dataloader4j.format.proto.Feature;
import org.dataloader4j.format.proto.FloatList;
import org.dataloader4j.format.proto.Int32List;
import org.dataloader4j.format.proto.Int64List;
import org.dataloader4j.format.proto.OFRecord;

/** OFRecord files: every OneFlow list kind, int32 and double included. */
final class OFRecordFormat extends RecordFormat<Feature> {
    private static final long serialVersionUID = 1L;

    @Override
    public String shortName() {
        return "ofrecord";
    }

    @Override
    Framing framing() {
        return Framing.OFRECORD;
    }

    @Override
    String messageName() {
        return "OFRecord";
    }

    @Override
    Map<String, Feature> features(byte[] payload) throws InvalidProtocolBufferException {
        return OFRecord.parseFrom(payload).getFeatureMap();
    }

    @Override
    FeatureKind kind(Feature f) {
        return switch (f.getKindCase()) {
            case BYTES_LIST -> FeatureKind.BYTES;
            case FLOAT_LIST -> FeatureKind.FLOAT;
            case DOUBLE_LIST -> FeatureKind.DOUBLE;
            case INT32_LIST -> FeatureKind.INT32;
            case INT64_LIST -> FeatureKind.INT64;
            case KIND_NOT_SET -> FeatureKind.NONE;
        };
    }

    @Override
    int count(Feature f) {
        return switch (f.getKindCase()) {
            case BYTES_LIST -> f.getBytesList().getValueCount();
            case FLOAT_LIST -> f.getFloatList().getValueCount();
            case DOUBLE_LIST -> f.getDoubleList().getValueCount();
            case INT32_LIST -> f.getInt32List().getValueCount();
            case INT64_LIST -> f.getInt64List().getValueCount();
            case KIND_NOT_SET -> 0;
        };
    }

    @Override
    long[] longs(Feature f) {
        if (f.hasInt32List()) {
            Int32List list = f.getInt32List();
            long[] out = new long[list.getValueCount()];
            for (int i = 0; i < out.length; i++) {
                out[i] = list.getValue(i);
            }
            return out;
        }
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
        if (f.hasFloatList()) {
            FloatList list = f.getFloatList();
            double[] out = new double[list.getValueCount()];
            for (int i = 0; i < out.length; i++) {
                out[i] = list.getValue(i);
            }
            return out;
        }
        DoubleList list = f.getDoubleList();
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
        OFRecord.Builder record = OFRecord.newBuilder();
        return new RecordBuilder() {
            @Override
            public void putInts(String name, int[] values) {
                record.putFeature(name, Features.int32Feature(values));
            }

            @Override
            public void putLongs(String name, long[] values) {
                record.putFeature(name, Features.int64Feature(values));
            }

            @Override
            public void putFloats(String name, float[] values) {
                record.putFeature(name, Features.floatFeature(values));
            }

            @Override
            public void putDoubles(String name, double[] values) {
                record.putFeature(name, Features.doubleFeature(values));
            }

            @Override
            public void putBytes(String name, List<ByteString> values) {
                record.putFeature(name, Feature.newBuilder().setBytesList(BytesList.newBuilder().addAllValue(values)).build());
            }

            @Override
            public byte[] toPayload() {
                return record.build().toByteArray();
            }
        };
    }

    private Object readResolve() {
        return OFRECORD;
    }
}
