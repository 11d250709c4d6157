package org.dataloader4j.ofrecord;

import java.util.Map;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.testing.GroupByContract;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.Framing;

/** {@code OFRecordReader.Builder.groupBy} over OFRecord part files: the whole {@link GroupByContract}. */
class OFRecordGroupByTest extends GroupByContract<OFRecordReader.Builder> {

    @Override
    protected OFRecordReader.Builder builder(String name) {
        return OFRecordReader.builder().reader(o -> o.name(name).parseThreads(2).ringSize(4))
                .decoder(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64));
    }

    @Override
    protected Framing framing() {
        return Framing.OFRECORD;
    }

    @Override
    protected byte[] record(long id, int tokens, long lang) {
        long[] values = new long[tokens];
        for (int i = 0; i < tokens; i++) {
            values[i] = id * 100 + i;
        }
        return Features.record(Map.of("id", Features.int64Feature(id), "tokens", Features.int64Feature(values),
                "lang", Features.int64Feature(lang), "pair", Features.int64Feature(id, id))).toByteArray();
    }
}
