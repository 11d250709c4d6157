package org.dataloader4j.ofrecord;

import static org.dataloader4j.core.testing.FuzzSeeds.file;
import static org.dataloader4j.core.testing.FuzzSeeds.randomBytes;
import static org.dataloader4j.ofrecord.Proto.entry;
import static org.dataloader4j.ofrecord.Proto.feature;
import static org.dataloader4j.ofrecord.Proto.packedFloats;

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
import org.junit.jupiter.api.Test;

/**
 * The seed inputs of this module's fuzz tests, generated from a fixed seed: the committed files
 * must be what this writes ({@link FuzzSeeds}); {@code -Dfuzz.seeds.write=true} rewrites them.
 */
class FuzzSeedsTest {
    private static final long SEED = 0x5EED_0F2EL;

    @Test
    void parserSeeds() {
        Random random = new Random(SEED);
        byte[] reference = OFRecordParserFuzzTest.REFERENCE;
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        seeds.put("seed-valid", reference);
        seeds.put("seed-required-feature-only", Proto.record(entry("b", feature(1, Proto.message().bytes(1, new byte[3])))));
        seeds.put("seed-unpacked-repeated-and-unknown-fields", Proto.record(
                entry("r", feature(2, Proto.message().fixed32(1, 1).fixed32(1, 2).varint(9, 5))),
                entry("b", feature(1, Proto.message().bytes(1, new byte[] {9}))),
                entry("b", feature(1, Proto.message().bytes(1, new byte[] {8, 7}))),
                entry("t", feature(4, Proto.message().varint(1, -5).varint(1, 6)))));
        seeds.put("seed-wrong-kinds", Proto.record(
                entry("f", feature(1, Proto.message().bytes(1, new byte[4]))),
                entry("u", feature(2, packedFloats(300f, -1f, Float.NaN, 2.5f))),
                entry("b", feature(5, Proto.packedVarints(1)))));
        FuzzSeeds.putDamaged(seeds, random, reference);
        FuzzSeeds.writeOrCheck(OFRecordParserFuzzTest.class, "parseOneRecord", seeds);
    }

    @Test
    void framingSeeds() {
        Random random = new Random(SEED + 1);
        byte[] file = file(Framing.OFRECORD, OFRecordParserFuzzTest.REFERENCE, randomBytes(random, 5), randomBytes(random, 40));
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        seeds.put("seed-valid", file);
        seeds.put("seed-truncated-payload", Arrays.copyOf(file, file.length - 3));
        seeds.put("seed-truncated-length", Arrays.copyOf(file(Framing.OFRECORD, randomBytes(random, 4)), 12 + 5));
        seeds.put("seed-length-past-end", frame(1000, randomBytes(random, 10)));
        seeds.put("seed-negative-length", frame(-1, randomBytes(random, 10)));
        seeds.put("seed-zero-length", concat(file(Framing.OFRECORD, randomBytes(random, 3)), frame(0, new byte[0])));
        seeds.put("seed-huge-length", frame(Long.MAX_VALUE, randomBytes(random, 10)));
        seeds.put("seed-gzip", FramingChecks.compress(file, Compression.GZIP));
        seeds.put("seed-zlib", FramingChecks.compress(file, Compression.ZLIB));
        seeds.put("seed-gzip-two-members", concat(FramingChecks.compress(file, Compression.GZIP),
                FramingChecks.compress(file(Framing.OFRECORD, randomBytes(random, 7)), Compression.GZIP)));
        byte[] gzip = FramingChecks.compress(file, Compression.GZIP);
        seeds.put("seed-gzip-truncated", Arrays.copyOf(gzip, gzip.length - 6));
        seeds.put("seed-garbage", randomBytes(random, 64));
        FuzzSeeds.writeOrCheck(OFRecordFramingFuzzTest.class, "readFrames", seeds);
    }

    /** A frame claiming {@code length} bytes, followed by {@code bytes}, as no writer would make it. */
    private static byte[] frame(long length, byte[] bytes) {
        return ByteBuffer.allocate(8 + bytes.length).order(ByteOrder.LITTLE_ENDIAN).putLong(length).put(bytes).array();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
