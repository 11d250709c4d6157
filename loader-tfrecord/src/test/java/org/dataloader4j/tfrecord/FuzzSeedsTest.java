package org.dataloader4j.tfrecord;

import static org.dataloader4j.core.testing.FuzzSeeds.file;
import static org.dataloader4j.core.testing.FuzzSeeds.randomBytes;
import static org.dataloader4j.tfrecord.Proto.entry;
import static org.dataloader4j.tfrecord.Proto.featureList;
import static org.dataloader4j.tfrecord.Proto.floats;
import static org.dataloader4j.tfrecord.Proto.int64s;
import static org.dataloader4j.tfrecord.Proto.map;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.core.testing.FramingChecks;
import org.dataloader4j.core.testing.FuzzSeeds;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.TFRecordCrc;
import org.junit.jupiter.api.Test;

/**
 * The seed inputs of this module's fuzz tests, generated from a fixed seed: the committed files
 * must be what this writes ({@link FuzzSeeds}); {@code -Dfuzz.seeds.write=true} rewrites them.
 */
class FuzzSeedsTest {
    private static final long SEED = 0x5EED_7F2EL;

    @Test
    void parserSeeds() {
        Random random = new Random(SEED);
        byte[] example = ExampleParserFuzzTest.EXAMPLE_REFERENCE;
        byte[] sequence = ExampleParserFuzzTest.SEQUENCE_REFERENCE;
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        seeds.put("seed-valid-example", example);
        seeds.put("seed-valid-sequence-example", sequence);
        seeds.put("seed-required-only", Proto.example(entry("b", Proto.strings("x"))));
        seeds.put("seed-features-twice-and-unknown-fields", Proto.message()
                .bytes(1, map(entry("v", int64s(1)), entry("v", int64s(2, 3)).varint(7, 1)))
                .bytes(1, map(entry("f", floats(1f, 2f).fixed32(9, 0))))
                .fixed64(5, -1).toByteArray());
        seeds.put("seed-wrong-kinds", Proto.sequenceExample(map(entry("i", floats(1f))),
                map(entry("t", featureList(floats(1f, 2f))), entry("q", featureList(int64s(1))))));
        seeds.put("seed-too-many-steps", Proto.sequenceExample(map(),
                map(entry("t", featureList(int64s(1, 2), int64s(3, 4), int64s(5, 6), int64s(7, 8))))));
        FuzzSeeds.putDamaged(seeds, random, example, sequence);
        FuzzSeeds.writeOrCheck(ExampleParserFuzzTest.class, "parseOneRecord", seeds);
    }

    @Test
    void framingSeeds() {
        Random random = new Random(SEED + 1);
        byte[] file = file(Framing.TFRECORD, ExampleParserFuzzTest.EXAMPLE_REFERENCE, new byte[0], randomBytes(random, 40));
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        seeds.put("seed-valid", file);
        seeds.put("seed-truncated-payload", Arrays.copyOf(file, file.length - 7));
        seeds.put("seed-truncated-header", Arrays.copyOf(file(Framing.TFRECORD, randomBytes(random, 4)), 20 + 7));
        seeds.put("seed-length-past-end", frame(1000, randomBytes(random, 10), 0));
        seeds.put("seed-negative-length", frame(-1, randomBytes(random, 10), 0));
        seeds.put("seed-huge-length", frame(Long.MAX_VALUE, randomBytes(random, 10), 0));
        seeds.put("seed-bad-length-crc", flip(file(Framing.TFRECORD, randomBytes(random, 6)), 9));
        seeds.put("seed-bad-data-crc", frame(3, randomBytes(random, 3), 1));
        seeds.put("seed-gzip", FramingChecks.compress(file, Compression.GZIP));
        seeds.put("seed-zlib", FramingChecks.compress(file, Compression.ZLIB));
        byte[] gzip = FramingChecks.compress(file, Compression.GZIP);
        seeds.put("seed-gzip-truncated", Arrays.copyOf(gzip, gzip.length - 6));
        seeds.put("seed-garbage", randomBytes(random, 64));
        FuzzSeeds.writeOrCheck(TFRecordFramingFuzzTest.class, "readFrames", seeds);
    }

    /**
     * A frame claiming {@code length} bytes with a matching length CRC, then {@code payload} and
     * its CRC plus {@code crcError}: no writer makes it unless {@code length} is the payload's
     * length and {@code crcError} is 0.
     */
    private static byte[] frame(long length, byte[] payload, int crcError) {
        ByteBuffer b = ByteBuffer.allocate(16 + payload.length).order(ByteOrder.LITTLE_ENDIAN).putLong(length);
        b.putInt(TFRecordCrc.maskedCrc32c(b.array(), 0, 8));
        return b.put(payload).putInt(TFRecordCrc.maskedCrc32c(payload, 0, payload.length) + crcError).array();
    }

    private static byte[] flip(byte[] bytes, int at) {
        byte[] b = bytes.clone();
        b[at] ^= 1;
        return b;
    }
}
