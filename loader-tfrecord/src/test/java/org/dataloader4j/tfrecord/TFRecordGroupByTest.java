package org.dataloader4j.tfrecord;

import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.testing.GroupByContract;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.format.tf.Feature;
import org.dataloader4j.format.tf.Features;
import org.dataloader4j.format.tf.Int64List;

/** {@code TFRecordReader.Builder.groupBy} over TFRecord files of tf.Examples: the whole {@link GroupByContract}. */
class TFRecordGroupByTest extends GroupByContract<TFRecordReader.Builder> {

    @Override
    protected TFRecordReader.Builder builder(String name) {
        return TFRecordReader.builder().reader(o -> o.name(name).parseThreads(2).ringSize(4))
                .feature(FixedLenFeature.of("id", Shape.of(1), DataType.INT64));
    }

    @Override
    protected Framing framing() {
        return Framing.TFRECORD;
    }

    @Override
    protected byte[] record(long id, int tokens, long lang) {
        Int64List.Builder values = Int64List.newBuilder();
        for (int i = 0; i < tokens; i++) {
            values.addValue(id * 100 + i);
        }
        return Example.newBuilder().setFeatures(Features.newBuilder()
                .putFeature("id", int64(Int64List.newBuilder().addValue(id)))
                .putFeature("tokens", int64(values))
                .putFeature("lang", int64(Int64List.newBuilder().addValue(lang)))
                .putFeature("pair", int64(Int64List.newBuilder().addValue(id).addValue(id)))).build().toByteArray();
    }

    private static Feature int64(Int64List.Builder values) {
        return Feature.newBuilder().setInt64List(values).build();
    }
}
