package org.dataloader4j.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.core.testing.BatchBytes;
import org.dataloader4j.core.testing.ByteMutations;
import org.dataloader4j.core.testing.ParserChecks;
import org.dataloader4j.core.testing.ProtobufInput;
import org.dataloader4j.core.testing.TestRecords;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.format.tf.Feature;
import org.dataloader4j.format.tf.FeatureList;
import org.dataloader4j.format.tf.SequenceExample;
import org.dataloader4j.tfrecord.RandomExamples.Record;
import org.dataloader4j.tfrecord.RandomExamples.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The parser against protobuf-java on seeded random tf.Examples and SequenceExamples, in canonical
 * and hand-written non-canonical encodings: every row a spec accepts holds exactly the oracle's
 * bytes (floats by bit pattern), every record the oracle rejects is a {@link CorruptDataException},
 * and 1, 2 and 4 parse threads write byte for byte what the sequential parse writes. A failure
 * names the seed that replays it.
 */
@Timeout(300)
class ExampleParserDifferentialTest {
    private static final long SEED = 0x7F_E8A3_9L;
    private static final int BATCHES = 40;
    private static final int ROWS = 100;
    private static final int SINGLE_RECORDS = 4000;

    /** A schema, the parser of it, and records that protobuf-java parses. */
    private record Case(ExampleParser parser, List<byte[]> records) {
    }

    @Test
    void examplesAgreeWithProtobufJavaOnEveryThreadCount() {
        batches(false);
    }

    @Test
    void sequenceExamplesAgreeWithProtobufJavaOnEveryThreadCount() {
        batches(true);
    }

    private static void batches(boolean sequence) {
        Random seeds = new Random(SEED + (sequence ? 1 : 0));
        try (MultiThreadLoop one = new MultiThreadLoop("diff1", 1);
             MultiThreadLoop two = new MultiThreadLoop("diff2", 2);
             MultiThreadLoop four = new MultiThreadLoop("diff4", 4)) {
            for (int b = 0; b < BATCHES; b++) {
                long seed = seeds.nextLong();
                try {
                    checkBatch(seed, sequence, List.of(one, two, four));
                } catch (AssertionError | RuntimeException e) {
                    throw new AssertionError("batch " + b + " failed: replay with checkBatch(" + seed + "L, " + sequence + ")", e);
                }
            }
        }
    }

    /** A batch of records that all fit: each row against the oracle, then every thread count against the sequential parse. */
    private static void checkBatch(long seed, boolean sequence, List<ParallelLoop> loops) {
        RandomExamples gen = new RandomExamples(new Random(seed));
        ExampleParser parser = parser(gen, sequence);
        NoisyEncoder noisy = new NoisyEncoder(gen);
        List<byte[]> records = new ArrayList<>();
        while (records.size() < ROWS) {
            Record r = gen.record(parser.features(), parser.featureLists());
            byte[] bytes = encode(gen, noisy, r, sequence);
            checkIntent(r, bytes, sequence);
            if (fits(parser, bytes)) {
                records.add(bytes);
            }
        }
        try (BatchBuffer sequential = BatchBuffer.of(parser, ROWS).fill(0xA5)) {
            TestRecords.parse(sequential, parser, ParallelLoop.sequential(), records);
            for (int row = 0; row < ROWS; row++) {
                checkRow(parser, records.get(row), sequential, row);
            }
            byte[] written = BatchBytes.written(sequential);
            for (ParallelLoop loop : loops) {
                try (BatchBuffer parallel = BatchBuffer.of(parser, ROWS).fill(0x5A)) {
                    parallel.parse(parser, TestRecords.slices(records), loop);
                    assertArrayEquals(written, BatchBytes.written(parallel), "parallelism " + loop.parallelism());
                }
            }
        }
    }

    @Test
    void singleRecordsFitOrFailExactlyAsTheOracleSays() {
        Random seeds = new Random(SEED ^ 0x5151);
        int accepted = 0;
        int rejected = 0;
        for (int round = 0; round < SINGLE_RECORDS; round++) {
            long seed = seeds.nextLong();
            boolean sequence = round % 2 == 1;
            RandomExamples gen = new RandomExamples(new Random(seed));
            ExampleParser parser = parser(gen, sequence);
            byte[] bytes = encode(gen, new NoisyEncoder(gen), gen.record(parser.features(), parser.featureLists()), sequence);
            boolean fits = fits(parser, bytes);
            try (BatchBuffer batch = BatchBuffer.of(parser, 1).fill(0xA5)) {
                TestRecords.parse(batch, parser, ParallelLoop.sequential(), List.of(bytes));
                assertTrue(fits, "round " + round + ": parsed a record the oracle rejects; seed " + seed);
                checkRow(parser, bytes, batch, 0);
                accepted++;
            } catch (CorruptDataException e) {
                if (fits) {
                    fail("round " + round + ": the oracle accepts the record, but: " + e.getMessage() + "; seed " + seed, e);
                }
                rejected++;
            }
        }
        assertTrue(accepted > 1000 && rejected > 500, "accepted " + accepted + ", rejected " + rejected);
    }

    @Test
    void mutatedRecordsFailOnlyAsCorruptDataAndOnlyWhenProtobufJavaRejectsThemOrTheyDoNotFit() {
        Random seeds = new Random(SEED ^ 0xBAD);
        int accepted = 0;
        int rejected = 0;
        for (int round = 0; round < SINGLE_RECORDS; round++) {
            long seed = seeds.nextLong();
            boolean sequence = round % 2 == 1;
            RandomExamples gen = new RandomExamples(new Random(seed));
            ExampleParser parser = parser(gen, sequence);
            byte[] bytes = ByteMutations.mutate(gen.random(), encode(gen, new NoisyEncoder(gen),
                    gen.record(parser.features(), parser.featureLists()), sequence));
            try {
                if (parsesAsTheOracleSays(parser, bytes)) {
                    accepted++;
                } else {
                    rejected++;
                }
            } catch (AssertionError e) {
                throw new AssertionError("round " + round + "; seed " + seed, e);
            }
        }
        assertTrue(accepted > 500 && rejected > 500, "accepted " + accepted + ", rejected " + rejected);
    }

    /**
     * A parser that has read an Example learns its layout and takes the next records of that
     * layout (the same length and the same bytes around the lists) from it without a scan. Every
     * copy of the record with one bit flipped, in its lists or around them, must still read as
     * protobuf-java reads it.
     */
    @Test
    void aParserThatLearnedARecordsLayoutReadsItsFlippedCopiesAsProtobufJavaDoes() {
        int[] verdicts = readFlippedCopies(new Random(SEED ^ 0x1A7), SINGLE_RECORDS / 2,
                gen -> parser(gen, false), ByteMutations::flipBit);
        assertTrue(verdicts[0] > 1000 && verdicts[1] > 1000, "read " + verdicts[0] + ", refused " + verdicts[1]);
    }

    /**
     * A layout of 300 floats into FLOAT32 and a label is copied first: an Example of its length
     * has its float list copied to its row before its frame is compared. Every copy with one bit
     * flipped, half of them in the frame around the list, must still read as the oracle says: the
     * copied row must be that of a scan wherever the frame differs.
     */
    @Test
    void aParserThatCopiesALayoutsListsFirstReadsItsFlippedCopiesAsProtobufJavaDoes() {
        int[] verdicts = readFlippedCopies(new Random(SEED ^ 0xC0F1), 300,
                gen -> ExampleParser.forExample(FixedLenFeature.of("images", Shape.of(300), DataType.FLOAT32),
                        FixedLenFeature.of("labels", Shape.of(1), DataType.INT64)),
                (random, original) -> ByteMutations.flipBitMostlyAtTheEdges(random, original, 40));
        assertTrue(verdicts[0] > 1000 && verdicts[1] > 200, "read " + verdicts[0] + ", refused " + verdicts[1]);
    }

    /**
     * Round after round, a parser from {@code parsers} and a record for its specs, and eight copies
     * of the record each changed by {@code flip}, which the parser must read as the oracle says,
     * after the record and with the layout it may have learned from it. Returns how many copies it
     * read and how many it refused.
     */
    private static int[] readFlippedCopies(Random seeds, int rounds, Function<RandomExamples, ExampleParser> parsers,
                                           BiFunction<Random, byte[], byte[]> flip) {
        int[] verdicts = new int[2];
        for (int round = 0; round < rounds; round++) {
            long seed = seeds.nextLong();
            RandomExamples gen = new RandomExamples(new Random(seed));
            ExampleParser parser = parsers.apply(gen);
            Record r = gen.record(parser.features(), parser.featureLists());
            byte[] original = gen.random().nextInt(4) == 0 ? new NoisyEncoder(gen).example(r) : RandomExamples.canonicalExample(r);
            try {
                parsesAsTheOracleSays(parser, original);
                for (int i = 0; i < 8 && original.length > 0; i++) {
                    verdicts[parsesAsTheOracleSays(parser, flip.apply(gen.random(), original)) ? 0 : 1]++;
                }
            } catch (AssertionError e) {
                throw new AssertionError("round " + round + "; seed " + seed, e);
            }
        }
        return verdicts;
    }

    /** {@link ParserChecks#agreesWithOracle} with protobuf-java's reading of the record and the specs' oracle. */
    static boolean parsesAsTheOracleSays(ExampleParser parser, byte[] bytes) {
        boolean parses = protobuf(bytes, parser.isSequenceExample()) != null;
        return ParserChecks.agreesWithOracle(parser, bytes, parses, parses && fits(parser, bytes),
                batch -> checkRow(parser, bytes, batch, 0));
    }

    /** A parser of a random schema of {@code gen}'s: of tf.Examples, or of SequenceExamples. */
    static ExampleParser parser(RandomExamples gen, boolean sequence) {
        Set<String> names = new HashSet<>();
        List<ExampleFeature> features = gen.features(1 + gen.random().nextInt(4), names);
        if (!sequence) {
            return ExampleParser.forExample(features);
        }
        return ExampleParser.forSequenceExample(gen.random().nextInt(4) == 0 ? List.of() : features,
                gen.featureLists(1 + gen.random().nextInt(3), names));
    }

    /** {@code r} encoded canonically one time in three, else by {@code noisy}. */
    static byte[] encode(RandomExamples gen, NoisyEncoder noisy, Record r, boolean sequence) {
        if (gen.random().nextInt(3) == 0) {
            return sequence ? RandomExamples.canonicalSequenceExample(r) : RandomExamples.canonicalExample(r);
        }
        return sequence ? noisy.sequenceExample(r) : noisy.example(r);
    }

    /** The record's features and feature lists as protobuf-java reads them, or null if it rejects the record. */
    private static Parsed protobuf(byte[] bytes, boolean sequence) {
        try {
            if (sequence) {
                SequenceExample s = ProtobufInput.parse(SequenceExample.getDefaultInstance(), bytes);
                return new Parsed(s.getContext().getFeatureMap(), s.getFeatureLists().getFeatureListMap());
            }
            return new Parsed(ProtobufInput.parse(Example.getDefaultInstance(), bytes).getFeatures().getFeatureMap(), Map.of());
        } catch (InvalidProtocolBufferException e) {
            return null;
        }
    }

    private record Parsed(Map<String, Feature> features, Map<String, FeatureList> lists) {
    }

    /** Whether protobuf-java reads the record and every spec of {@code parser} accepts it. */
    static boolean fits(ExampleParser parser, byte[] bytes) {
        Parsed p = protobuf(bytes, parser.isSequenceExample());
        return p != null && parser.features().stream().allMatch(f -> Oracle.rows(f, p.features()) != null)
                && parser.featureLists().stream().allMatch(f -> Oracle.rows(f, p.lists()) != null);
    }

    private static void checkRow(ExampleParser parser, byte[] bytes, BatchBuffer batch, int row) {
        Parsed p = protobuf(bytes, parser.isSequenceExample());
        assertNotNull(p, "protobuf-java rejects row " + row);
        for (ExampleFeature f : parser.features()) {
            checkOutputs(f.outputs(1), Oracle.rows(f, p.features()), batch, row);
        }
        for (SequenceFeature f : parser.featureLists()) {
            checkOutputs(f.outputs(1), Oracle.rows(f, p.lists()), batch, row);
        }
    }

    /** Each output's row against the oracle's; a spec with companions has one row per output. */
    private static void checkOutputs(List<TensorSpec> outputs, List<byte[]> want, BatchBuffer batch, int row) {
        assertNotNull(want, "the oracle rejects row " + row + " of " + outputs);
        assertEquals(outputs.size(), want.size());
        for (int i = 0; i < outputs.size(); i++) {
            String name = outputs.get(i).name();
            assertArrayEquals(want.get(i), BatchBytes.rowBytes(batch, name, row), "row " + row + " of " + name);
        }
    }

    /** The hand-written encodings must mean what they were written from, or this test proves little. */
    private static void checkIntent(Record r, byte[] bytes, boolean sequence) {
        Parsed p = protobuf(bytes, sequence);
        assertNotNull(p, "protobuf-java rejects a generated record");
        assertEquals(r.features().keySet(), p.features().keySet());
        r.features().forEach((k, v) -> checkIntent(v, p.features().get(k), k));
        assertEquals(r.lists().keySet(), p.lists().keySet());
        r.lists().forEach((k, steps) -> {
            List<Feature> parsed = p.lists().get(k).getFeatureList();
            assertEquals(steps.size(), parsed.size(), "steps of " + k);
            for (int i = 0; i < steps.size(); i++) {
                checkIntent(steps.get(i), parsed.get(i), k + "[" + i + "]");
            }
        });
    }

    private static void checkIntent(Values v, Feature f, String key) {
        if (v.kind() == null) {
            assertEquals(Feature.KindCase.KIND_NOT_SET, f.getKindCase(), key);
            return;
        }
        switch (v.kind()) {
            case FLOAT -> {
                assertEquals(Feature.KindCase.FLOAT_LIST, f.getKindCase(), key);
                int[] bits = new int[v.floats().length];
                for (int i = 0; i < bits.length; i++) {
                    bits[i] = Float.floatToRawIntBits(v.floats()[i]);
                }
                assertArrayEquals(bits, f.getFloatList().getValueList().stream().mapToInt(Float::floatToRawIntBits).toArray(), key);
            }
            case INT64 -> {
                assertEquals(Feature.KindCase.INT64_LIST, f.getKindCase(), key);
                assertArrayEquals(v.longs(), f.getInt64List().getValueList().stream().mapToLong(Long::longValue).toArray(), key);
            }
            default -> {
                assertEquals(ListKind.BYTES, v.kind());
                assertEquals(Feature.KindCase.BYTES_LIST, f.getKindCase(), key);
                assertEquals(v.strings().length, f.getBytesList().getValueCount(), key);
                for (int i = 0; i < v.strings().length; i++) {
                    assertArrayEquals(v.strings()[i], f.getBytesList().getValue(i).toByteArray(), key);
                }
            }
        }
    }
}
