package org.dataloader4j.tfrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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
import org.dataloader4j.testkit.ExpectedRecords;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parser's plain path against its fast path (layouts learned and rows copied first, records
 * read ahead, SIMD varints where this JVM runs them fast), byte for byte and error for error, on
 * one and on three threads: random tf.Examples and SequenceExamples, MNIST-like Examples (copied
 * first), BERT-like ones (packed int64 varints into INT32), damaged copies of each, records that
 * do not fit their specs, and the real TensorFlow files where they are present. A failure names
 * the seed that replays it.
 */
@Timeout(180)
class ExampleFastPathsTest {
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

    /** {@code parser}'s plain and fast paths, batch after batch, on one and three threads; returns how many parses failed. */
    private static int compare(ExampleParser parser, List<List<byte[]>> batches, String where) {
        return ParserChecks.samePathBytesOrErrors(new ExampleParser(parser, DecodeMode.PLAIN),
                new ExampleParser(parser, DecodeMode.FAST), batches, List.of(ParallelLoop.sequential(), threads), where);
    }

    private static List<List<byte[]>> batches(Random random, int batches, Function<Random, byte[]> draw) {
        return ByteMutations.batchesWithDamage(random, batches, ROWS, draw);
    }

    @Test
    void randomExamplesAndSequenceExamplesReadAlikeOnBothPaths() {
        long seed = 0xFA57E8L;
        Random seeds = new Random(seed);
        int failed = 0;
        for (int round = 0; round < 40; round++) {
            boolean sequence = round % 2 == 1;
            RandomExamples gen = new RandomExamples(new Random(seeds.nextLong()));
            ExampleParser parser = ExampleParserDifferentialTest.parser(gen, sequence);
            NoisyEncoder noisy = new NoisyEncoder(gen);
            // Records that fit, but for the damaged ones: most batches are read.
            List<List<byte[]>> batches = batches(gen.random(), 3, random -> {
                while (true) {
                    byte[] bytes = ExampleParserDifferentialTest.encode(gen, noisy,
                            gen.record(parser.features(), parser.featureLists()), sequence);
                    if (ExampleParserDifferentialTest.fits(parser, bytes)) {
                        return bytes;
                    }
                }
            });
            failed += compare(parser, batches, "round " + round + "; seed " + seed);
        }
        // Only a damaged batch can fail: one in three, on two loops.
        assertTrue(failed > 5 && failed <= 40 * 2, "batches that failed: " + failed + "; seed " + seed);
    }

    @Test
    void recordsThatDoNotFitTheirSpecsFailAlikeOnBothPaths() {
        long seed = 0x0D15F17L;
        Random seeds = new Random(seed);
        int failed = 0;
        for (int round = 0; round < 200; round++) {
            boolean sequence = round % 2 == 1;
            RandomExamples gen = new RandomExamples(new Random(seeds.nextLong()));
            ExampleParser parser = ExampleParserDifferentialTest.parser(gen, sequence);
            NoisyEncoder noisy = new NoisyEncoder(gen);
            List<byte[]> records = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                records.add(ExampleParserDifferentialTest.encode(gen, noisy, gen.record(parser.features(),
                        parser.featureLists()), sequence));
            }
            // Two at a time, the parser keeping what it learned from the pairs before: the error is
            // the first bad row's.
            for (int i = 0; i < records.size(); i += 2) {
                String where = "round " + round + ", pair " + i / 2 + "; seed " + seed;
                failed += compare(parser, List.of(records.subList(i, i + 2)), where) > 0 ? 1 : 0;
            }
        }
        assertTrue(failed > 300 && failed < 1700, "pairs that failed, of 2000: " + failed + "; seed " + seed);
    }

    /** A MNIST-like Example: 784 floats, four fifths of them zero, and a label. */
    private static byte[] mnist(Random random) {
        return Proto.example(Proto.entry("image_floats", Proto.floats(LikeRealValues.mnistPixels(random))),
                Proto.entry("image_class", Proto.int64s(random.nextInt(10))));
    }

    @Test
    void mnistLikeExamplesCopiedFirstReadAlikeOnBothPaths() {
        long seed = 0x3A157E8L;
        ExampleParser parser = ExampleParser.forExample(FixedLenFeature.of("image_floats", Shape.of(28, 28), DataType.FLOAT32),
                FixedLenFeature.of("image_class", Shape.of(), DataType.INT32));
        int failed = compare(parser, batches(new Random(seed), 12, ExampleFastPathsTest::mnist), "seed " + seed);
        assertTrue(failed > 0 && failed <= 4 * 2, "batches that failed: " + failed + "; seed " + seed);
    }

    /** A BERT-like Example: 128 token ids, mask and segment ids of a sentence of 5 to 128 tokens, and a label. */
    private static byte[] bert(Random random) {
        long[][] rows = LikeRealValues.bertRows(random);
        return Proto.example(Proto.entry("input_ids", Proto.int64s(rows[0])), Proto.entry("input_mask", Proto.int64s(rows[1])),
                Proto.entry("segment_ids", Proto.int64s(rows[2])), Proto.entry("label", Proto.int64s(random.nextInt(2))));
    }

    @Test
    void bertLikeExamplesOfPackedVarintsReadAlikeOnBothPaths() {
        long seed = 0xBE27E8L;
        int failed = 0;
        for (DataType type : List.of(DataType.INT32, DataType.INT64)) {
            ExampleParser parser = ExampleParser.forExample(FixedLenFeature.of("input_ids", Shape.of(128), type),
                    FixedLenFeature.of("input_mask", Shape.of(128), type), FixedLenFeature.of("segment_ids", Shape.of(128), type),
                    FixedLenFeature.of("label", Shape.of(), type));
            failed += compare(parser, batches(new Random(seed), 9, ExampleFastPathsTest::bert), type + "; seed " + seed);
        }
        assertTrue(failed > 0 && failed <= 2 * 3 * 2, "batches that failed: " + failed + "; seed " + seed);
    }

    @ParameterizedTest
    @MethodSource("org.dataloader4j.tfrecord.ExampleParserRealFilesTest#examples")
    void realExamplesReadAlikeOnBothPaths(String file, List<ExampleFeature> specs) throws IOException {
        List<byte[]> payloads = TestFrames.payloads(SharedTestData.file(file), ExpectedRecords.load(file).summary().compression());
        assertEquals(0, compare(ExampleParser.forExample(specs), List.of(payloads), file), file + " reads");
    }

    @Test
    void realSequenceExamplesReadAlikeOnBothPaths() throws IOException {
        String file = "tensorflow-tfx/tfrecord_sequence/Split-eval/data_tfrecord_eval.gz";
        List<byte[]> payloads = TestFrames.payloads(SharedTestData.file(file), ExpectedRecords.load(file).summary().compression());
        List<ExampleFeature> context = List.of(VarLenFeature.of("f", DataType.FLOAT32, 1),
                FixedLenFeature.of("i", Shape.of(), DataType.INT64).withDefault(-1L));
        for (SequenceFeature s : List.of(FixedLenSequenceFeature.of("s", Shape.of(5), DataType.UINT8, 2),
                BytesSequenceFeature.of("s", 2, 2, 16))) {
            ExampleParser parser = ExampleParser.forSequenceExample(context, List.of(s));
            assertEquals(0, compare(parser, List.of(payloads), file), file + " reads with " + s);
        }
    }
}
