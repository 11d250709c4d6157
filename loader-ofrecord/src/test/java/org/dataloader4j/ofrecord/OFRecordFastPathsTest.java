package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.decode.DecodeMode;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.core.testing.ByteMutations;
import org.dataloader4j.core.testing.LikeRealValues;
import org.dataloader4j.core.testing.ParserChecks;
import org.dataloader4j.ofrecord.RandomRecords.Column;
import org.dataloader4j.ofrecord.RandomRecords.Values;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parser's plain path against its fast path (layouts learned and rows copied first, records
 * read ahead, SIMD varints where this JVM runs them fast), byte for byte and error for error, on
 * one and on three threads: random records, MNIST-like records (copied first), BERT-like ones
 * (packed int32 varints), damaged copies of each, and the real OneFlow files where they are
 * present. A failure names the seed that replays it.
 */
@Timeout(120)
class OFRecordFastPathsTest {
    private static final int ROWS = 100;
    private static MultiThreadLoop threads;

    @BeforeAll
    static void startThreads() {
        threads = new MultiThreadLoop("fast-paths", 3);
    }

    @AfterAll
    static void stopThreads() {
        threads.close();
    }

    /** Plain and fast, batch after batch, on one and three threads; returns how many parses failed. */
    private static int compare(List<? extends OFRecordDecoder> decoders, List<List<byte[]>> batches, String where) {
        return ParserChecks.samePathBytesOrErrors(new OFRecordParser(decoders, DecodeMode.PLAIN),
                new OFRecordParser(decoders, DecodeMode.FAST), batches, List.of(ParallelLoop.sequential(), threads), where);
    }

    private static List<List<byte[]>> batches(Random random, int batches, Function<Random, byte[]> draw) {
        return ByteMutations.batchesWithDamage(random, batches, ROWS, draw);
    }

    @Test
    void randomRecordsReadAlikeOnBothPaths() {
        long seed = 0xFA57L;
        Random random = new Random(seed);
        int failed = 0;
        for (int round = 0; round < 20; round++) {
            RandomRecords gen = new RandomRecords(random);
            List<Column> columns = gen.schema();
            List<List<byte[]>> batches = batches(random, 3, r -> {
                Map<String, Values> features = gen.features(columns);
                return r.nextInt(3) == 0 ? RandomRecords.canonical(features) : gen.noisy(features);
            });
            failed += compare(columns.stream().map(Column::decoder).toList(), batches, "round " + round + "; seed " + seed);
        }
        // Only a damaged batch can fail: one in three, on two loops.
        assertTrue(failed > 5 && failed <= 20 * 2, "batches that failed: " + failed + "; seed " + seed);
    }

    /** A MNIST-like record: 784 floats, four fifths of them zero, and a label. */
    private static byte[] mnist(Random random) {
        float[] pixels = LikeRealValues.mnistPixels(random);
        return Proto.record(Proto.entry("images", Proto.feature(RandomRecords.FLOAT, Proto.packedFloats(pixels))),
                Proto.entry("labels", Proto.feature(RandomRecords.INT64, Proto.packedVarints(random.nextInt(10)))));
    }

    @Test
    void mnistLikeRecordsCopiedFirstReadAlikeOnBothPaths() {
        long seed = 0x3A157L;
        List<OFRecordDecoder> decoders = List.of(OFRecordRawDecoder.of("images", Shape.of(28, 28), DataType.FLOAT32),
                OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT64));
        int failed = compare(decoders, batches(new Random(seed), 12, OFRecordFastPathsTest::mnist), "seed " + seed);
        assertTrue(failed > 0 && failed <= 4 * 2, "batches that failed: " + failed + "; seed " + seed);
    }

    /** A BERT-like record: 128 token ids, mask and segment ids of a sentence of 5 to 128 tokens, and a label. */
    private static byte[] bert(Random random) {
        long[][] rows = LikeRealValues.bertRows(random);
        return Proto.record(Proto.entry("input_ids", Proto.feature(RandomRecords.INT32, Proto.packedVarints(rows[0]))),
                Proto.entry("input_mask", Proto.feature(RandomRecords.INT32, Proto.packedVarints(rows[1]))),
                Proto.entry("segment_ids", Proto.feature(RandomRecords.INT32, Proto.packedVarints(rows[2]))),
                Proto.entry("label", Proto.feature(RandomRecords.INT32, Proto.packedVarints(random.nextInt(2)))));
    }

    @Test
    void bertLikeRecordsOfPackedVarintsReadAlikeOnBothPaths() {
        long seed = 0xBE27L;
        int failed = compare(bertDecoders(DataType.INT32), batches(new Random(seed), 12, OFRecordFastPathsTest::bert),
                "seed " + seed);
        // Into INT64 outputs, which the vector steps widen to.
        failed += compare(bertDecoders(DataType.INT64), batches(new Random(seed + 1), 6, OFRecordFastPathsTest::bert),
                "INT64; seed " + seed);
        assertTrue(failed > 0 && failed <= (4 + 2) * 2, "batches that failed: " + failed + "; seed " + seed);
    }

    private static List<OFRecordDecoder> bertDecoders(DataType type) {
        List<OFRecordDecoder> decoders = new ArrayList<>();
        for (String name : List.of("input_ids", "input_mask", "segment_ids")) {
            decoders.add(OFRecordRawDecoder.of(name, Shape.of(128), type));
        }
        decoders.add(OFRecordRawDecoder.of("label", Shape.of(1), type));
        return decoders;
    }

    @ParameterizedTest
    @MethodSource("org.dataloader4j.ofrecord.OFRecordParserRealFilesTest#files")
    void realFilesReadAlikeOnBothPaths(String file) throws IOException {
        List<byte[]> payloads = OFRecordParserRealFilesTest.payloads(file);
        List<OFRecordDecoder> decoders = OFRecordParserRealFilesTest.decoders(payloads.get(0));
        assertEquals(0, compare(decoders, List.of(payloads), file), file + " reads");
    }
}
