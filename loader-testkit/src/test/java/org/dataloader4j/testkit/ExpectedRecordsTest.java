package org.dataloader4j.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dataloader4j.testkit.ExpectedFeature.Type;
import org.dataloader4j.testkit.ExpectedRecord.Kind;
import org.junit.jupiter.api.Test;

class ExpectedRecordsTest {
    private static final String SUMMARY = "{\"file\": \"f\", \"size\": 100, \"sha256\": \"00\", \"format\": \"ofrecord\","
            + " \"compression\": \"none\", \"decompressed_size\": 100, \"payload\": \"ofrecord\", \"records\": 5,"
            + " \"payload_bytes\": {\"min\": 1, \"max\": 9, \"total\": 20}}";
    private static final String SHA_OF_ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    private static ExpectedRecords of(String body) {
        return ExpectedRecords.of(StrictJson.parse("{\"summary\": " + SUMMARY + ", " + body + "}"), "inline");
    }

    @Test
    void everyFeatureTypeInItsExactForm() {
        ExpectedRecords e = of("\"frames\": [{\"offset\": 0, \"length\": 3, \"sha256\": \"" + SHA_OF_ABC + "\"}],"
                + " \"records\": [{\"features\": {"
                + "\"i64\": {\"type\": \"int64\", \"count\": 2, \"values\": [-6519408338692630574, 17031080100]},"
                + "\"i32\": {\"type\": \"int32\", \"count\": 1, \"values\": [-1]},"
                + "\"f\": {\"type\": \"float\", \"count\": 2, \"values\": [\"NaN\", -0.0], \"bits\": [\"7fc00001\", \"80000000\"]},"
                + "\"d\": {\"type\": \"double\", \"count\": 1, \"values\": [1.0], \"bits\": [\"3ff0000000000000\"]},"
                + "\"s\": {\"type\": \"bytes\", \"count\": 2, \"values_b64\": [\"SGVsbG8=\", \"\"], \"values_utf8\": [\"Hello\", \"\"]},"
                + "\"big\": {\"type\": \"bytes\", \"count\": 1, \"values_digest\": [{\"length\": 3, \"sha256\": \"" + SHA_OF_ABC
                + "\", \"head_hex\": \"6162\"}]},"
                + "\"none\": {\"type\": null, \"count\": 0},"
                + "\"empty\": {\"type\": \"float\", \"count\": 0, \"values\": [], \"bits\": []}}}]");

        assertEquals(5, e.summary().records());
        assertEquals("ofrecord", e.summary().format());
        assertEquals(new ExpectedRecords.PayloadBytes(1, 9, 20), e.summary().payloadBytes());
        assertTrue(e.complete());
        assertEquals(List.of(new ExpectedRecords.Frame(0, 0, 3, SHA_OF_ABC)), e.frames());
        assertTrue(e.frames().get(0).matches("abc".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(e.frames().get(0).matches("abd".getBytes(StandardCharsets.US_ASCII)));

        ExpectedRecord r = e.records().get(0L);
        assertEquals(Kind.FEATURES, r.kind());
        Map<String, ExpectedFeature> f = r.features();
        assertArrayEquals(new long[] {-6519408338692630574L, 17031080100L}, f.get("i64").longs());
        assertEquals(Type.INT32, f.get("i32").type());
        assertArrayEquals(new long[] {-1}, f.get("i32").longs());
        assertArrayEquals(new int[] {0x7fc00001, 0x80000000}, f.get("f").floatBits());
        assertArrayEquals(new long[] {0x3ff0000000000000L}, f.get("d").doubleBits());
        assertArrayEquals("Hello".getBytes(StandardCharsets.US_ASCII), f.get("s").bytes().get(0).bytes());
        assertEquals(0, f.get("s").bytes().get(1).length());
        assertEquals(List.of("Hello", ""), f.get("s").utf8());

        ExpectedBytes big = f.get("big").bytes().get(0);
        assertFalse(big.isExact());
        assertTrue(big.matches("abc".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(big.matches("abcd".getBytes(StandardCharsets.US_ASCII)));
        assertThrows(IllegalStateException.class, big::bytes);
        assertNull(f.get("big").utf8());

        assertEquals(Type.NONE, f.get("none").type());
        assertEquals(Type.FLOAT, f.get("empty").type());
        assertEquals(0, f.get("empty").floatBits().length);
        assertThrows(IllegalStateException.class, () -> f.get("f").longs());
        assertThrows(IllegalStateException.class, () -> f.get("i64").floatBits());
        assertThrows(IllegalStateException.class, () -> f.get("none").bytes());
        assertThrows(IllegalStateException.class, r::context);
    }

    @Test
    void sampleRecordsAreKeyedByIndex() {
        ExpectedRecords e = of("\"sample_records\": {\"0\": {\"features\": {}}, \"4\": {\"features\": {}}}");
        assertFalse(e.complete());
        assertFalse(e.hasFrames());
        assertThrows(IllegalStateException.class, e::frames);
        assertEquals(List.of(0L, 4L), List.copyOf(e.records().keySet()));
        assertEquals(4L, e.records().get(4L).index());
    }

    @Test
    void sequenceExamplesAndRawRecords() {
        ExpectedRecords e = of("\"records\": [{\"context\": {\"c\": {\"type\": null, \"count\": 0}},"
                + " \"feature_lists\": {\"s\": [{\"type\": \"int64\", \"count\": 1, \"values\": [3]},"
                + " {\"type\": \"bytes\", \"count\": 0, \"values_b64\": []}]}},"
                + " {\"offset\": 40, \"length\": 608695}]");
        ExpectedRecord seq = e.records().get(0L);
        assertEquals(Kind.SEQUENCE, seq.kind());
        assertEquals(Type.NONE, seq.context().get("c").type());
        List<ExpectedFeature> steps = seq.featureLists().get("s");
        assertEquals(2, steps.size());
        assertArrayEquals(new long[] {3}, steps.get(0).longs());
        assertEquals(Type.BYTES, steps.get(1).type());
        assertEquals(0, steps.get(1).count());
        assertThrows(IllegalStateException.class, seq::features);

        ExpectedRecord raw = e.records().get(1L);
        assertEquals(Kind.RAW, raw.kind());
        assertEquals(40, raw.offset());
        assertEquals(608695, raw.length());
    }

    @Test
    void malformedExpectationsFailWithTheirPath() {
        IllegalArgumentException count = assertThrows(IllegalArgumentException.class, () -> of(
                "\"records\": [{\"features\": {\"x\": {\"type\": \"int64\", \"count\": 2, \"values\": [1]}}}]"));
        assertTrue(count.getMessage().contains("inline: records[0].features.x.values: 1 values but count 2"),
                count::getMessage);

        IllegalArgumentException bits = assertThrows(IllegalArgumentException.class, () -> of(
                "\"records\": [{\"features\": {\"x\": {\"type\": \"float\", \"count\": 1, \"values\": [1.0], \"bits\": [\"3f80\"]}}}]"));
        assertTrue(bits.getMessage().contains("records[0].features.x.bits[0]"), bits::getMessage);

        IllegalArgumentException int32 = assertThrows(IllegalArgumentException.class, () -> of(
                "\"records\": [{\"features\": {\"x\": {\"type\": \"int32\", \"count\": 1, \"values\": [2147483648]}}}]"));
        assertTrue(int32.getMessage().contains("is not an int32"), int32::getMessage);

        IllegalArgumentException huge = assertThrows(IllegalArgumentException.class, () -> of(
                "\"records\": [{\"features\": {\"x\": {\"type\": \"int64\", \"count\": 1, \"values\": [9223372036854775808]}}}]"));
        assertTrue(huge.getMessage().contains("expected an integer in the range of a long"), huge::getMessage);

        IllegalArgumentException type = assertThrows(IllegalArgumentException.class, () -> of(
                "\"records\": [{\"features\": {\"x\": {\"type\": \"uint8\", \"count\": 0}}}]"));
        assertTrue(type.getMessage().contains("unknown type \"uint8\""), type::getMessage);

        assertThrows(IllegalArgumentException.class, () -> of("\"frames\": []"));
    }

    /**
     * Every expected file beside the project loads, and agrees with itself: the record count, the
     * frames (contiguous, summing to the payload total), float and double values against their bit
     * patterns, and text against base64: 1.6 MB of real JSON read with exact numbers.
     */
    @Test
    void everyRealExpectedFileLoadsAndIsConsistent() throws IOException {
        Path root = SharedTestData.root().orElse(null);
        assumeTrue(root != null, "shared/testdata/real is not beside this checkout");
        Path dir = root.resolve("expected");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(files.size() >= 19, "expected files: " + files);
        for (Path file : files) {
            String relative = dir.relativize(file).toString().replace('\\', '/');
            relative = relative.substring(0, relative.length() - ".json".length());
            Object json = StrictJson.parse(file);
            ExpectedRecords e = ExpectedRecords.load(relative);
            ExpectedRecords.Summary s = e.summary();
            assertTrue(Files.exists(root.resolve(relative)), relative);
            assertEquals(Files.size(root.resolve(relative)), s.size(), relative);
            if (e.complete()) {
                assertEquals(s.records(), e.records().size(), relative + ": records");
            } else {
                assertEquals(List.of(0L, 1L, 2L, s.records() - 1), List.copyOf(e.records().keySet()), relative);
            }
            if (e.hasFrames()) {
                assertEquals(s.records(), e.frames().size(), relative + ": frames");
                int overhead = s.format().equals("ofrecord") ? 8 : 16;
                long next = 0;
                long total = 0;
                for (ExpectedRecords.Frame f : e.frames()) {
                    assertEquals(next, f.offset(), relative + ": frame " + f.index());
                    next = f.offset() + overhead + f.length();
                    total += f.length();
                }
                assertEquals(s.decompressedSize(), next, relative + ": frames cover the stream");
                if (s.payloadBytes() != null) {
                    assertEquals(s.payloadBytes().total(), total, relative + ": payload total");
                }
            }
            checkValuesAgainstBits(json, relative);
            for (ExpectedRecord r : e.records().values()) {
                for (ExpectedFeature f : allFeatures(r)) {
                    if (f.type() == Type.BYTES && f.utf8() != null) {
                        for (int i = 0; i < f.count(); i++) {
                            assertEquals(f.utf8().get(i), new String(f.bytes().get(i).bytes(), StandardCharsets.UTF_8),
                                    relative + ": " + r);
                        }
                    }
                }
            }
        }
    }

    private static List<ExpectedFeature> allFeatures(ExpectedRecord r) {
        List<ExpectedFeature> out = new ArrayList<>();
        switch (r.kind()) {
            case FEATURES -> out.addAll(r.features().values());
            case SEQUENCE -> {
                out.addAll(r.context().values());
                r.featureLists().values().forEach(out::addAll);
            }
            case RAW -> { }
        }
        return out;
    }

    /** Walks the raw tree: each {@code values} entry of a float or double feature equals its {@code bits}. */
    private static void checkValuesAgainstBits(Object node, String where) {
        if (node instanceof Map<?, ?> m) {
            Object type = m.get("type");
            if (("float".equals(type) || "double".equals(type)) && m.containsKey("bits")) {
                List<?> values = (List<?>) m.get("values");
                List<?> bits = (List<?>) m.get("bits");
                for (int i = 0; i < values.size(); i++) {
                    Object v = values.get(i);
                    double d = v instanceof String str ? Double.parseDouble(str) : ((Number) v).doubleValue();
                    if ("float".equals(type)) {
                        float expected = Float.intBitsToFloat(Integer.parseUnsignedInt((String) bits.get(i), 16));
                        assertEquals(expected, (float) d, where + ": " + v + " vs " + bits.get(i));
                    } else {
                        double expected = Double.longBitsToDouble(Long.parseUnsignedLong((String) bits.get(i), 16));
                        assertEquals(expected, d, where + ": " + v + " vs " + bits.get(i));
                    }
                }
            }
            m.values().forEach(child -> checkValuesAgainstBits(child, where));
        } else if (node instanceof List<?> l) {
            l.forEach(child -> checkValuesAgainstBits(child, where));
        }
    }
}
