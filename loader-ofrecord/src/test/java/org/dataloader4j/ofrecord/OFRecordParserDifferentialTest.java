package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.InvalidProtocolBufferException;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.parallel.MultiThreadLoop;
import org.dataloader4j.core.testing.BatchBytes;
import org.dataloader4j.core.testing.ByteMutations;
import org.dataloader4j.core.testing.ParserChecks;
import org.dataloader4j.core.testing.ProtobufInput;
import org.dataloader4j.core.testing.TestRecords;
import org.dataloader4j.format.proto.Feature;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.ofrecord.RandomRecords.Column;
import org.dataloader4j.ofrecord.RandomRecords.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The parser against protobuf-java, on seeded random records in canonical and hand-written
 * non-canonical encodings, and the parallel parse against the sequential one, byte for byte.
 * A failure names the seed that replays its batch.
 */
@Timeout(120)
class OFRecordParserDifferentialTest {
    private static final long SEED = 0x0F2EC0D5L;
    private static final int BATCHES = 30;
    private static final int ROWS = 100;

    @Test
    void agreesWithProtobufJavaOnEveryThreadCount() {
        Random seeds = new Random(SEED);
        try (MultiThreadLoop one = new MultiThreadLoop("diff1", 1);
             MultiThreadLoop two = new MultiThreadLoop("diff2", 2);
             MultiThreadLoop four = new MultiThreadLoop("diff4", 4)) {
            for (int b = 0; b < BATCHES; b++) {
                long seed = seeds.nextLong();
                try {
                    checkBatch(seed, List.of(one, two, four));
                } catch (AssertionError | RuntimeException e) {
                    throw new AssertionError("batch " + b + " failed: replay with checkBatch(" + seed + "L)", e);
                }
            }
        }
    }

    private static void checkBatch(long seed, List<ParallelLoop> loops) {
        Random random = new Random(seed);
        RandomRecords gen = new RandomRecords(random);
        List<Column> columns = gen.schema();
        List<byte[]> records = new ArrayList<>();
        List<Map<String, Values>> written = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            Map<String, Values> features = gen.features(columns);
            written.add(features);
            records.add(random.nextInt(3) == 0 ? RandomRecords.canonical(features) : gen.noisy(features));
        }
        OFRecordParser parser = new OFRecordParser(columns.stream().map(Column::decoder).toList());
        try (BatchBuffer sequential = BatchBuffer.of(parser, ROWS).fill(0xA5)) {
            TestRecords.parse(sequential, parser, ParallelLoop.sequential(), records);
            for (int row = 0; row < ROWS; row++) {
                OFRecord expected = protobuf(records.get(row));
                assertNotNull(expected, "protobuf-java rejects row " + row);
                checkGenerator(written.get(row), expected, row);
                for (Column c : columns) {
                    byte[] want = Oracle.row(c.decoder(), expected);
                    assertNotNull(want, "row " + row + " was made to fit " + c.decoder());
                    assertArrayEquals(want, rowBytes(sequential, c.decoder(), row), "row " + row + " of " + c.decoder());
                }
            }
            byte[] memory = BatchBytes.memory(sequential);
            for (ParallelLoop loop : loops) {
                try (BatchBuffer parallel = BatchBuffer.of(parser, ROWS).fill(0xA5)) {
                    parallel.parse(parser, TestRecords.slices(records), loop);
                    assertArrayEquals(memory, BatchBytes.memory(parallel), "parallelism " + loop.parallelism());
                }
            }
        }
    }

    /** The hand-written encodings must mean what they were written from, or this test proves little. */
    private static void checkGenerator(Map<String, Values> written, OFRecord parsed, int row) {
        assertEquals(written.keySet(), parsed.getFeatureMap().keySet(), "row " + row);
        written.forEach((key, v) -> {
            Feature f = parsed.getFeatureMap().get(key);
            assertEquals(v.kind(), f.getKindCase().getNumber(), "kind of " + key + " in row " + row);
            int size = switch (f.getKindCase()) {
                case BYTES_LIST -> f.getBytesList().getValueCount();
                case FLOAT_LIST -> f.getFloatList().getValueCount();
                case DOUBLE_LIST -> f.getDoubleList().getValueCount();
                case INT32_LIST -> f.getInt32List().getValueCount();
                case INT64_LIST -> f.getInt64List().getValueCount();
                case KIND_NOT_SET -> -1;
            };
            assertEquals(v.size(), size, "size of " + key + " in row " + row);
        });
    }

    @Test
    void mutatedRecordsFailOnlyAsCorruptDataAndOnlyWhenProtobufJavaDoesToo() {
        long seed = 0xBADC0DEL;
        Random random = new Random(seed);
        int accepted = 0;
        int rejected = 0;
        for (int round = 0; round < 4000; round++) {
            RandomRecords gen = new RandomRecords(random);
            List<Column> columns = gen.schema();
            Map<String, Values> features = gen.features(columns);
            byte[] bytes = ByteMutations.mutate(random, random.nextBoolean() ? RandomRecords.canonical(features) : gen.noisy(features));
            OFRecordParser parser = new OFRecordParser(columns.stream().map(Column::decoder).toList());
            try {
                if (parsesAsProtobufJavaDoes(parser, bytes)) {
                    accepted++;
                } else {
                    rejected++;
                }
            } catch (AssertionError e) {
                throw new AssertionError("round " + round + "; seed " + seed, e);
            }
        }
        assertTrue(accepted > 100 && rejected > 100, "accepted " + accepted + ", rejected " + rejected + "; seed " + seed);
    }

    /**
     * A parser that has read a record learns its layout and takes the next records of that
     * layout (the same length and the same bytes around the lists) from it without a scan. Every
     * copy of the record with one bit flipped, in its lists or around them, must still read as
     * protobuf-java reads it.
     */
    @Test
    void aParserThatLearnedARecordsLayoutReadsItsFlippedCopiesAsProtobufJavaDoes() {
        int[] verdicts = readFlippedCopies(0x1A7007L, 1000, random -> {
            RandomRecords gen = new RandomRecords(random);
            List<Column> columns = gen.schema();
            Map<String, Values> features = gen.features(columns);
            byte[] original = random.nextInt(4) == 0 ? gen.noisy(features) : RandomRecords.canonical(features);
            return new Drawn(new OFRecordParser(columns.stream().map(Column::decoder).toList()), original);
        }, ByteMutations::flipBit);
        assertTrue(verdicts[0] > 1000 && verdicts[1] > 1000, "read " + verdicts[0] + ", refused " + verdicts[1]);
    }

    /**
     * A layout of 300 floats into FLOAT32 (and, in some rounds, 130 doubles into FLOAT64) and a
     * label is copied first: a record of its length has its lists copied to their rows before its
     * frame is compared. Every copy with one bit flipped, half of them in the frame around the
     * lists, must still read as protobuf-java reads it: the copied rows must be those of a scan
     * wherever the frame differs.
     */
    @Test
    void aParserThatCopiesALayoutsListsFirstReadsItsFlippedCopiesAsProtobufJavaDoes() {
        int[] verdicts = readFlippedCopies(0xC0F1E57L, 300, random -> {
            RandomRecords gen = new RandomRecords(random);
            List<Column> columns = new ArrayList<>(List.of(
                    new Column(OFRecordRawDecoder.of("images", Shape.of(300), DataType.FLOAT32), RandomRecords.FLOAT, true, 300),
                    new Column(OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT64), RandomRecords.INT64, true, 1)));
            if (random.nextBoolean()) {
                columns.add(new Column(OFRecordRawDecoder.of("x", Shape.of(130), DataType.FLOAT64), RandomRecords.DOUBLE,
                        true, 130));
            }
            Map<String, Values> features = gen.features(columns);
            byte[] original = random.nextInt(4) == 0 ? gen.noisy(features) : RandomRecords.canonical(features);
            return new Drawn(new OFRecordParser(columns.stream().map(Column::decoder).toList()), original);
        }, (random, original) -> ByteMutations.flipBitMostlyAtTheEdges(random, original, 40));
        assertTrue(verdicts[0] > 1000 && verdicts[1] > 200, "read " + verdicts[0] + ", refused " + verdicts[1]);
    }

    /** A parser and a record for it. */
    private record Drawn(OFRecordParser parser, byte[] record) {
    }

    /**
     * Round after round, a parser and a record from {@code draw}, which the parser must read, and
     * eight copies of the record each changed by {@code flip}, which it must read as protobuf-java
     * does, after the record and with the layout it may have learned from it. Returns how many
     * copies it read and how many it refused.
     */
    private static int[] readFlippedCopies(long seed, int rounds, Function<Random, Drawn> draw,
                                           BiFunction<Random, byte[], byte[]> flip) {
        Random random = new Random(seed);
        int[] verdicts = new int[2];
        for (int round = 0; round < rounds; round++) {
            Drawn drawn = draw.apply(random);
            try {
                assertTrue(parsesAsProtobufJavaDoes(drawn.parser(), drawn.record()), "the original must read");
                for (int i = 0; i < 8 && drawn.record().length > 0; i++) {
                    verdicts[parsesAsProtobufJavaDoes(drawn.parser(), flip.apply(random, drawn.record())) ? 0 : 1]++;
                }
            } catch (AssertionError e) {
                throw new AssertionError("round " + round + "; seed " + seed, e);
            }
        }
        return verdicts;
    }

    /** {@link ParserChecks#agreesWithOracle} with protobuf-java's reading of an OFRecord and the decoders' oracle. */
    static boolean parsesAsProtobufJavaDoes(OFRecordParser parser, byte[] bytes) {
        OFRecord expected = protobuf(bytes);
        boolean fits = expected != null && parser.decoders().stream().allMatch(d -> Oracle.row(d, expected) != null);
        return ParserChecks.agreesWithOracle(parser, bytes, expected != null, fits, batch -> {
            for (OFRecordDecoder d : parser.decoders()) {
                assertArrayEquals(Oracle.row(d, expected), rowBytes(batch, d, 0), d.toString());
            }
        });
    }

    private static OFRecord protobuf(byte[] bytes) {
        try {
            return ProtobufInput.parse(OFRecord.getDefaultInstance(), bytes);
        } catch (InvalidProtocolBufferException e) {
            return null;
        }
    }

    /** A dense row's bytes, or a ragged row's values' bytes. */
    static byte[] rowBytes(BatchBuffer batch, OFRecordDecoder decoder, int row) {
        boolean ragged = decoder.spec(1).isRagged();
        return (ragged ? BatchBytes.raggedRow(batch, decoder.name(), row) : batch.tensor(decoder.name()).rows(row, 1))
                .segment().toArray(ValueLayout.JAVA_BYTE);
    }
}
