package org.dataloader4j.tfrecord;

import static org.dataloader4j.tfrecord.Proto.entry;
import static org.dataloader4j.tfrecord.Proto.featureList;
import static org.dataloader4j.tfrecord.Proto.floats;
import static org.dataloader4j.tfrecord.Proto.int64s;
import static org.dataloader4j.tfrecord.Proto.map;
import static org.dataloader4j.tfrecord.Proto.strings;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.testing.ParserChecks;

/**
 * Fuzzes {@link ExampleParser} with one record of arbitrary bytes, read both as a tf.Example
 * (fixed-length float, int64 and uint8 rows with defaults, variable-length numbers and strings,
 * a byte string) and as a SequenceExample (a context feature; fixed-length, variable-length and
 * byte-string feature lists). A tf.Example's {@code features} is field 1, as a SequenceExample's
 * {@code context} is, so one input means something to both. Only a {@code CorruptDataException}
 * may escape; a record a parser reads agrees with protobuf-java's reading of it, and stays in its
 * own row of a batch. Regression inputs are in {@code ExampleParserFuzzTestInputs}; see
 * docs/fuzzing.md.
 */
class ExampleParserFuzzTest {
    static final ExampleParser EXAMPLE = ExampleParser.forExample(
            FixedLenFeature.of("f", Shape.of(2), DataType.FLOAT32).withDefault(0.5),
            FixedLenFeature.of("i", Shape.of(), DataType.INT64).withDefault(-1L),
            FixedLenFeature.of("u", Shape.of(4), DataType.UINT8).withDefault(7L),
            VarLenFeature.of("v", DataType.INT64, 4),
            VarLenFeature.of("w", DataType.FLOAT32, 3),
            VarLenBytesFeature.of("s", 3, 16),
            BytesFeature.of("b", 16));
    static final ExampleParser SEQUENCE = ExampleParser.forSequenceExample(
            List.of(FixedLenFeature.of("i", Shape.of(), DataType.INT64).withDefault(-1L),
                    VarLenFeature.of("v", DataType.INT64, 4)),
            List.of(FixedLenSequenceFeature.of("t", Shape.of(2), DataType.INT64, 3),
                    FixedLenSequenceFeature.of("p", Shape.of(2), DataType.UINT8, 2),
                    VarLenSequenceFeature.of("w", DataType.FLOAT32, 3, 4),
                    BytesSequenceFeature.of("q", 2, 3, 16)));

    /** A tf.Example that fits {@link #EXAMPLE}, every feature present. */
    static final byte[] EXAMPLE_REFERENCE = Proto.example(
            entry("f", floats(1.5f, Float.NaN)),
            entry("i", int64s(Long.MIN_VALUE)),
            entry("u", Proto.byteStrings(new byte[] {1, 2, (byte) 200, 4})),
            entry("v", int64s(-1, 0, Long.MAX_VALUE)),
            entry("w", floats(0.25f)),
            entry("s", strings("ab", "", "cde")),
            entry("b", strings("bytes")));

    /** A SequenceExample that fits {@link #SEQUENCE}, every feature and list present. */
    static final byte[] SEQUENCE_REFERENCE = Proto.sequenceExample(
            map(entry("i", int64s(3)), entry("v", int64s(1, 2))),
            map(entry("t", featureList(int64s(1, 2), int64s(3, 4))),
                    entry("p", featureList(strings("ab"), int64s(255, 256))),
                    entry("w", featureList(floats(1f, 2f), floats(), floats(3f))),
                    entry("q", featureList(strings("x", "yz"), strings("")))));

    @FuzzTest(maxDuration = "10m")
    void parseOneRecord(byte[] record) {
        if (ExampleParserDifferentialTest.parsesAsTheOracleSays(EXAMPLE, record)) {
            ParserChecks.eachRowIsItsRecordAlone(EXAMPLE, List.of(record, EXAMPLE_REFERENCE, record));
        }
        if (ExampleParserDifferentialTest.parsesAsTheOracleSays(SEQUENCE, record)) {
            ParserChecks.eachRowIsItsRecordAlone(SEQUENCE, List.of(record, SEQUENCE_REFERENCE, record));
        }
    }
}
