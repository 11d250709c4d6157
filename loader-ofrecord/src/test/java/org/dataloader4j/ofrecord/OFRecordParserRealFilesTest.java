package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.core.testing.TestRecords;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.RecordReader;
import org.dataloader4j.format.proto.Feature;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files written by OneFlow itself (its tutorial's MNIST sample, BERT-style records whose
 * {@code logits} are -1, written as 10-byte varints), parsed with a decoder per feature and
 * compared with protobuf-java. Skipped where the shared test data is not beside the checkout.
 */
class OFRecordParserRealFilesTest {

    /** The real OneFlow files, under {@code shared/testdata/real}. */
    static Stream<String> files() {
        return Stream.of(
                "oneflow-documentation/dataset/part-0",
                "oneflow-benchmark-metafinetuning/SST-2/train/train.of_record-0",
                "oneflow-benchmark-metafinetuning/SST-2/dev/dev.of_record-0",
                "oneflow-benchmark-metafinetuning/SST-2/eval/eval.of_record-0",
                "oneflow-benchmark-metafinetuning/k-shot-cross-g1/train/train.of_record-0");
    }

    /** The payloads of {@code file}'s records; skips the calling test where the file is absent. */
    static List<byte[]> payloads(String file) throws IOException {
        Path path = SharedTestData.file(file);
        List<byte[]> payloads = new ArrayList<>();
        try (RecordReader in = RecordReader.open(path)) {
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                payloads.add(r.payload());
            }
        }
        return payloads;
    }

    /**
     * A decoder for each feature of {@code first}, the first record of a file: each feature as
     * its own stored type, its length the first record's, as the files' rows are fixed.
     */
    static List<OFRecordDecoder> decoders(byte[] first) throws IOException {
        List<OFRecordDecoder> decoders = new ArrayList<>();
        for (Map.Entry<String, Feature> e : OFRecord.parseFrom(first).getFeatureMap().entrySet()) {
            decoders.add(OFRecordRawDecoder.of(e.getKey(), Shape.of(count(e.getValue())), storedType(e.getValue())));
        }
        return decoders;
    }

    @ParameterizedTest
    @MethodSource("files")
    @Timeout(30)
    void decodesEveryFeatureOfEveryRecordAsProtobufJavaDoes(String file) throws IOException {
        List<byte[]> payloads = payloads(file);
        List<OFRecordDecoder> decoders = decoders(payloads.get(0));
        OFRecordParser parser = new OFRecordParser(decoders);
        try (MultiThreadLoop loop = new MultiThreadLoop("real-files", 3);
             BatchBuffer batch = BatchBuffer.of(parser, payloads.size())) {
            batch.parse(parser, TestRecords.slices(payloads), loop);
            for (int row = 0; row < payloads.size(); row++) {
                OFRecord expected = OFRecord.parseFrom(payloads.get(row));
                for (OFRecordDecoder d : decoders) {
                    byte[] want = Oracle.row(d, expected);
                    assertNotNull(want, d.name() + " of record " + row);
                    assertArrayEquals(want, OFRecordParserDifferentialTest.rowBytes(batch, d, row), d.name() + " of record " + row);
                }
            }
        }
    }

    private static int count(Feature f) {
        return switch (f.getKindCase()) {
            case FLOAT_LIST -> f.getFloatList().getValueCount();
            case DOUBLE_LIST -> f.getDoubleList().getValueCount();
            case INT32_LIST -> f.getInt32List().getValueCount();
            case INT64_LIST -> f.getInt64List().getValueCount();
            case BYTES_LIST -> f.getBytesList().getValue(0).size();
            case KIND_NOT_SET -> throw new AssertionError("no list");
        };
    }

    private static DataType storedType(Feature f) {
        return switch (f.getKindCase()) {
            case FLOAT_LIST -> DataType.FLOAT32;
            case DOUBLE_LIST -> DataType.FLOAT64;
            case INT32_LIST -> DataType.INT32;
            case INT64_LIST -> DataType.INT64;
            default -> DataType.UINT8;
        };
    }
}
