package org.dataloader4j.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dataloader4j.testkit.StrictJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RandomCrop} against the golden windows of OneFlow's released builds in
 * {@code shared/testdata/oneflow-crop/crop_windows.json} (its README gives the algorithm and how
 * the file was made and checked), and its contract without them: argument checks, and that a slot
 * restored from its draw count goes on as the slot it was saved from.
 *
 * <p>The golden tests are skipped where the shared test data is not beside the checkout. They
 * check the {@code legacy} variant only, the one this class implements.
 */
class RandomCropTest {
    private static final String GOLDEN = "shared/testdata/oneflow-crop/crop_windows.json";
    private static final String LEGACY = "legacy";

    private static Map<?, ?> golden;

    @Test
    void mt19937GivesTheStandardsTenThousandthOutput() {
        // C++ [rand.predef]: the 10000th output of a default-constructed mt19937 (seed 5489).
        Mt19937 g = new Mt19937(5489);
        for (int i = 1; i < 10000; i++) {
            g.next();
        }
        assertEquals(4123659995L, Integer.toUnsignedLong(g.next()));
        assertEquals(10000, g.draws());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 623, 624, 625, 1247, 1248, 5000})
    void mt19937AdvanceEqualsThatManyDraws(long count) {
        Mt19937 drawn = new Mt19937(12345);
        Mt19937 skipped = new Mt19937(12345);
        drawn.next();
        skipped.next();
        for (long i = 0; i < count; i++) {
            drawn.next();
        }
        skipped.advance(count);
        assertEquals(drawn.draws(), skipped.draws());
        for (int i = 0; i < 700; i++) {
            assertEquals(drawn.next(), skipped.next(), "output " + i + " after skipping " + count);
        }
    }

    @Test
    void defaultsAreOneFlowsAndTheParameterSetsAreTheirFloat32BitPatterns() throws IOException {
        for (Object o : list(golden().get("params"))) {
            Map<?, ?> p = map(o);
            String id = (String) p.get("id");
            float[] area = floats(p, "area");
            float[] aspect = floats(p, "aspect");
            RandomCrop crop = RandomCrop.builder().randomArea(area[0], area[1]).randomAspectRatio(aspect[0], aspect[1])
                    .seed(0).build();
            assertBits(p.get("area_bits"), crop.randomArea(), "params " + id + " area");
            assertBits(p.get("aspect_bits"), crop.randomAspectRatio(), "params " + id + " aspect");
            assertBits(p.get("log_aspect_bits"), new float[] {crop.logAspectMin(), crop.logAspectMax()},
                    "params " + id + " log of the aspect bounds");
            if (id.equals("A")) {
                RandomCrop defaults = RandomCrop.builder().build();
                assertBits(p.get("area_bits"), defaults.randomArea(), "default randomArea");
                assertBits(p.get("aspect_bits"), defaults.randomAspectRatio(), "default randomAspectRatio");
                assertEquals(10, defaults.numAttempts(), "default numAttempts");
            }
        }
    }

    @Test
    void seedSequenceGivesTheLegacySlotSeeds() throws IOException {
        int checked = 0;
        for (Object o : list(golden().get("slot_seeds"))) {
            Map<?, ?> e = map(o);
            checked += assertSeeds(e, number(e.get("seed")), (int) number(e.get("slots")));
        }
        for (Object o : list(golden().get("seed_seq_by_count"))) {
            Map<?, ?> e = map(o);
            checked += assertSeeds(e, number(e.get("seed")), (int) number(e.get("count")));
        }
        assertEquals(18, checked, "slot_seeds and seed_seq_by_count entries");
    }

    @Test
    void everyLegacyCaseGivesOneFlowsWindowsAndDrawCounts() throws IOException {
        Map<String, Map<?, ?>> params = params();
        int windows = 0;
        for (Object o : list(golden().get("cases"))) {
            Map<?, ?> c = map(o);
            if (!LEGACY.equals(c.get("variant"))) {
                continue;
            }
            int width = (int) number(c.get("width"));
            int height = (int) number(c.get("height"));
            String where = describe(c) + " " + width + "x" + height;
            List<RandomCrop.Slot> slots = slotsOf(c, params);
            List<?> bySlot = list(c.get("windows"));
            assertEquals(slots.size(), bySlot.size(), where);
            for (int i = 0; i < slots.size(); i++) {
                List<?> calls = list(bySlot.get(i));
                for (int k = 0; k < calls.size(); k++) {
                    assertWindow(list(calls.get(k)), slots.get(i), width, height, where + " slot " + i + " call " + k);
                    windows++;
                }
            }
        }
        // 5 parameter sets x 12 images x 25 slots of 7 seed cases x 8 calls.
        assertEquals(12_000, windows, "legacy windows in the cases");
    }

    @Test
    void everyLegacySequenceCaseGivesOneFlowsWindowsAsTheImageSizeChanges() throws IOException {
        Map<String, Map<?, ?>> params = params();
        int windows = 0;
        for (Object o : list(golden().get("sequence_cases"))) {
            Map<?, ?> c = map(o);
            if (!LEGACY.equals(c.get("variant"))) {
                continue;
            }
            List<?> sizes = list(c.get("sizes"));
            List<RandomCrop.Slot> slots = slotsOf(c, params);
            List<?> bySlot = list(c.get("windows"));
            assertEquals(slots.size(), bySlot.size(), describe(c));
            for (int i = 0; i < slots.size(); i++) {
                List<?> calls = list(bySlot.get(i));
                assertEquals(sizes.size(), calls.size(), describe(c));
                for (int k = 0; k < calls.size(); k++) {
                    List<?> size = list(sizes.get(k));
                    int width = (int) number(size.get(0));
                    int height = (int) number(size.get(1));
                    assertWindow(list(calls.get(k)), slots.get(i), width, height,
                            describe(c) + " slot " + i + " call " + k + " " + width + "x" + height);
                    windows++;
                }
            }
        }
        // 3 parameter sets x 3 slots x 12 sizes.
        assertEquals(108, windows, "legacy windows in the sequence cases");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 3, 50, 400})
    void aSlotAdvancedByTheDrawsOfAnotherGoesOnWithTheSameWindows(int calls) {
        // Params E fails its attempts often, so the draws per window vary; 400 calls pass many twists.
        RandomCrop crop = RandomCrop.builder().randomArea(0.9f, 0.95f).randomAspectRatio(0.5f, 2.0f).seed(42).build();
        int[][] sizes = {{500, 375}, {1, 1000}, {64, 64}, {1000, 300}};
        for (int i = 0; i < 3; i++) {
            RandomCrop.Slot running = crop.slots(3).get(i);
            for (int k = 0; k < calls; k++) {
                int[] size = sizes[k % sizes.length];
                running.next(size[0], size[1]);
            }
            RandomCrop.Slot resumed = crop.slots(3).get(i);
            resumed.advance(running.draws());
            assertEquals(running.draws(), resumed.draws(), "seed 42 slot " + i);
            for (int k = 0; k < 20; k++) {
                int[] size = sizes[k % sizes.length];
                assertEquals(running.next(size[0], size[1]), resumed.next(size[0], size[1]),
                        "seed 42 slot " + i + ": window " + k + " after " + calls + " calls");
            }
        }
    }

    @Test
    void theSeedPicksTheWindowsAndARandomSeedCanBeReadBack() {
        RandomCrop random = RandomCrop.builder().build();
        assertNotEquals(-1, random.seed());
        RandomCrop again = RandomCrop.builder().seed(random.seed()).build();
        assertEquals(random.seed(), again.seed());
        assertEquals(random.slots(2).get(1).next(500, 375), again.slots(2).get(1).next(500, 375),
                "seed " + random.seed());
        // Only the seed modulo 2^32 counts, as in std::seed_seq.
        assertEquals(RandomCrop.builder().seed(7).build().slots(1).getFirst().next(500, 375),
                RandomCrop.builder().seed((1L << 40) + 7).build().slots(1).getFirst().next(500, 375));
    }

    @Test
    void everyWindowFitsItsImage() {
        RandomCrop crop = RandomCrop.builder().seed(2024).build();
        int[][] sizes = {{1, 1}, {1, 1000}, {1000, 1}, {2, 3}, {4000, 3000}, {333, 517}};
        for (RandomCrop.Slot slot : crop.slots(5)) {
            for (int k = 0; k < 200; k++) {
                int[] size = sizes[k % sizes.length];
                CropWindow w = slot.next(size[0], size[1]);
                assertTrue(w.fits(size[0], size[1]), "seed 2024: " + w + " in " + size[0] + "x" + size[1]);
            }
        }
    }

    @Test
    void argumentsAreCheckedWhenGiven() {
        RandomCrop.Builder b = RandomCrop.builder();
        assertMessage("randomArea=[0.0, 1.0]", assertThrows(IllegalArgumentException.class, () -> b.randomArea(0, 1)));
        assertMessage("randomArea=[0.5, 0.25]",
                assertThrows(IllegalArgumentException.class, () -> b.randomArea(0.5f, 0.25f)));
        assertMessage("randomArea=[0.5, 1.5]", assertThrows(IllegalArgumentException.class, () -> b.randomArea(0.5f, 1.5f)));
        assertMessage("randomArea=[NaN, 1.0]",
                assertThrows(IllegalArgumentException.class, () -> b.randomArea(Float.NaN, 1)));
        assertMessage("randomAspectRatio=[-1.0, 2.0]",
                assertThrows(IllegalArgumentException.class, () -> b.randomAspectRatio(-1, 2)));
        assertMessage("randomAspectRatio=[2.0, 1.0]",
                assertThrows(IllegalArgumentException.class, () -> b.randomAspectRatio(2, 1)));
        assertMessage("randomAspectRatio=[0.5, Infinity]",
                assertThrows(IllegalArgumentException.class, () -> b.randomAspectRatio(0.5f, Float.POSITIVE_INFINITY)));
        assertMessage("numAttempts=0", assertThrows(IllegalArgumentException.class, () -> b.numAttempts(0)));

        RandomCrop crop = b.seed(1).build();
        assertArrayEquals(new float[] {0.08f, 1.0f}, crop.randomArea(), "a failed setter leaves the default");
        assertMessage("batchSize=0", assertThrows(IllegalArgumentException.class, () -> crop.slots(0)));
        RandomCrop.Slot slot = crop.slots(1).getFirst();
        assertMessage("imageWidth=0 imageHeight=5", assertThrows(IllegalArgumentException.class, () -> slot.next(0, 5)));
        assertMessage("imageWidth=5 imageHeight=-1", assertThrows(IllegalArgumentException.class, () -> slot.next(5, -1)));
        assertMessage("draws=-1", assertThrows(IllegalArgumentException.class, () -> slot.advance(-1)));
        assertEquals(0, slot.draws(), "a rejected call draws nothing");
    }

    private static void assertMessage(String expected, IllegalArgumentException e) {
        assertTrue(e.getMessage().endsWith(expected), e.getMessage());
    }

    /** Checks one golden window {@code [x, y, w, h, attempts, path, mt19937_draws]} against the next of {@code slot}. */
    private static void assertWindow(List<?> want, RandomCrop.Slot slot, int width, int height, String where) {
        long before = slot.draws();
        CropWindow got = slot.next(width, height);
        CropWindow expected = new CropWindow((int) number(want.get(0)), (int) number(want.get(1)),
                (int) number(want.get(2)), (int) number(want.get(3)));
        assertEquals(expected, got, where + " (path " + want.get(5) + ")");
        assertEquals(number(want.get(6)), slot.draws() - before, where + ": mt19937 draws");
    }

    private static int assertSeeds(Map<?, ?> entry, long seed, int count) {
        List<?> want = list(entry.get(LEGACY));
        int[] got = SeedSequence.legacyIntOutput((int) seed, count);
        assertEquals(want.size(), got.length, "seed " + seed);
        for (int i = 0; i < got.length; i++) {
            assertEquals(number(want.get(i)), Integer.toUnsignedLong(got[i]), "seed " + seed + " count " + count
                    + " value " + i);
        }
        return 1;
    }

    /** The slots of a case: its parameter set, seed and slot count. */
    private static List<RandomCrop.Slot> slotsOf(Map<?, ?> c, Map<String, Map<?, ?>> params) {
        Map<?, ?> p = params.get((String) c.get("params"));
        float[] area = floats(p, "area");
        float[] aspect = floats(p, "aspect");
        long seed = number(c.get("seed"));
        // The file's seed -1 is OneFlow's int64 -1, that is 2^32 - 1 to seed_seq; here -1 asks for a random seed.
        long sameSeed = seed == -1 ? 0xFFFF_FFFFL : seed;
        RandomCrop crop = RandomCrop.builder().randomArea(area[0], area[1]).randomAspectRatio(aspect[0], aspect[1])
                .numAttempts((int) number(golden.get("num_attempts"))).seed(sameSeed).build();
        return crop.slots((int) number(c.get("slots")));
    }

    private static String describe(Map<?, ?> c) {
        return "params " + c.get("params") + " seed " + c.get("seed") + " slots " + c.get("slots");
    }

    /** The parameter sets by id. */
    private static Map<String, Map<?, ?>> params() throws IOException {
        Map<String, Map<?, ?>> byId = new HashMap<>();
        for (Object o : list(golden().get("params"))) {
            byId.put((String) map(o).get("id"), map(o));
        }
        return byId;
    }

    /** The pair {@code key} of a parameter set, from its bit patterns; also checks that its decimals read as the same floats. */
    private static float[] floats(Map<?, ?> p, String key) {
        List<?> bits = list(p.get(key + "_bits"));
        List<?> decimals = list(p.get(key));
        float[] values = new float[2];
        for (int i = 0; i < 2; i++) {
            values[i] = Float.intBitsToFloat(Integer.parseUnsignedInt((String) bits.get(i), 16));
            assertEquals(values[i], decimal(decimals.get(i)).floatValue(), key + " of params " + p.get("id"));
        }
        return values;
    }

    private static void assertBits(Object want, float[] got, String what) {
        List<?> bits = list(want);
        assertEquals(2, bits.size(), what);
        for (int i = 0; i < 2; i++) {
            assertEquals(bits.get(i), String.format("%08x", Float.floatToRawIntBits(got[i])), what + " [" + i + "]");
        }
    }

    /** The golden file, read once; skips the calling test where it is not beside the checkout. */
    private static synchronized Map<?, ?> golden() throws IOException {
        if (golden == null) {
            Path file = null;
            for (Path p = Path.of("").toAbsolutePath(); p != null && file == null; p = p.getParent()) {
                if (Files.isRegularFile(p.resolve(GOLDEN))) {
                    file = p.resolve(GOLDEN);
                }
            }
            assumeTrue(file != null, GOLDEN + " not found at or above " + Path.of("").toAbsolutePath());
            golden = map(StrictJson.parse(file));
        }
        return golden;
    }

    private static Map<?, ?> map(Object value) {
        return (Map<?, ?>) value;
    }

    private static List<?> list(Object value) {
        return (List<?>) value;
    }

    private static long number(Object value) {
        return (Long) value;
    }

    private static BigDecimal decimal(Object value) {
        return value instanceof Long l ? BigDecimal.valueOf(l) : (BigDecimal) value;
    }
}
