package org.dataloader4j.ofrecord;

import static org.dataloader4j.ofrecord.Proto.entry;
import static org.dataloader4j.ofrecord.Proto.feature;
import static org.dataloader4j.ofrecord.Proto.packedFloats;
import static org.dataloader4j.ofrecord.Proto.packedVarints;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.testing.ParserChecks;

/**
 * Fuzzes {@link OFRecordParser} with one record of arbitrary bytes, read by decoders of every
 * kind (dense float, double, int64 and uint8 rows, truncating or not, ragged rows, byte strings;
 * defaults and a required feature). Only a {@code CorruptDataException} may escape; a record the
 * parser reads agrees with protobuf-java's reading of it, and stays in its own row of a batch.
 * Regression inputs are in {@code OFRecordParserFuzzTestInputs}; see docs/fuzzing.md.
 */
class OFRecordParserFuzzTest {
    /** Defaults first and the required bytes last, so that a record without them still reaches every decoder. */
    static final OFRecordParser PARSER = OFRecordParser.of(
            OFRecordRawDecoder.of("f", Shape.of(2, 2), DataType.FLOAT32).withDefault(0.5),
            OFRecordRawDecoder.of("i", Shape.of(3), DataType.INT64).withTruncate().withDefault(-1),
            OFRecordRawDecoder.of("d", Shape.of(2), DataType.FLOAT64).withTruncate().withDefault(2),
            OFRecordRawDecoder.of("u", Shape.of(4), DataType.UINT8).withDefault(7),
            OFRecordRawDecoder.of("r", Shape.of(8), DataType.FLOAT32).withDim1VaryingLength().withDefault(0),
            OFRecordRawDecoder.of("t", Shape.of(4), DataType.INT32).withDim1VaryingLength().withTruncate().withDefault(0),
            OFRecordBytesDecoder.of("b", 16));

    /** A record that fits every decoder, every feature present. */
    static final byte[] REFERENCE = Proto.record(
            entry("f", feature(2, packedFloats(1.5f, -2f, Float.NaN, 1e30f))),
            entry("i", feature(5, packedVarints(-1, Long.MAX_VALUE, 3, 4))),
            entry("d", feature(3, Proto.message().fixed64(1, Double.doubleToRawLongBits(-0.25)))),
            entry("u", feature(1, Proto.message().bytes(1, new byte[] {1, 2, (byte) 200, 4}))),
            entry("r", feature(2, packedFloats(0.5f, 0.25f, 0.125f))),
            entry("t", feature(4, packedVarints(Integer.MIN_VALUE, 7, 8, 9, 10, 11))),
            entry("b", feature(1, Proto.message().bytes(1, "bytes".getBytes(StandardCharsets.UTF_8)))));

    @FuzzTest(maxDuration = "10m")
    void parseOneRecord(byte[] record) {
        if (OFRecordParserDifferentialTest.parsesAsProtobufJavaDoes(PARSER, record)) {
            ParserChecks.eachRowIsItsRecordAlone(PARSER, List.of(record, REFERENCE, record));
        }
    }
}
