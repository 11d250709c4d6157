package org.dataloader4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AlternationTest {
    @Test
    void readsNameEqualsTwoValues() {
        assertEquals(new Alternation("d4j.x", "off", "on"), Alternation.parse("d4j.x=off,on"));
        assertEquals(new Alternation("d4j.x", "", "1"), Alternation.parse("d4j.x=,1"));
        for (String bad : List.of("d4j.x", "=a,b", "d4j.x=a", "d4j.x=a,b,c", " =a,b")) {
            assertThrows(IllegalArgumentException.class, () -> Alternation.parse(bad), bad);
        }
    }

    @Test
    void pairsGoABThenBA() {
        List<Boolean> b = IntStream.range(0, 8).mapToObj(Alternation::isB).toList();
        assertEquals(List.of(false, true, true, false, false, true, true, false), b);
    }

    @Test
    void setsThePropertyToTheValueOfEachPassArm() {
        Alternation alt = new Alternation("d4j.alternation.test", "x", "y");
        try {
            alt.set(0);
            assertEquals("x", System.getProperty(alt.property()));
            alt.set(2);
            assertEquals("y", System.getProperty(alt.property()));
        } finally {
            System.clearProperty(alt.property());
        }
    }

    @Test
    void reportsEachArmAndTheirRatioWithinPairs() {
        Alternation alt = new Alternation("p", "off", "on");
        // Passes 0-3 timed, no warm-up: pairs (A, B) and (B, A); B takes 0.9 of A's time in one,
        // 1.2 in the other.
        String line = alt.report("dataloader4j", "bert-ofrecord", 2, 0, new double[] {1.0, 0.9, 1.2, 1.0});
        assertEquals("ALTERNATE dataloader4j bert-ofrecord threads=2 property=p a=off b=on pairs=2 a_median_s=1.0000"
                + " b_median_s=1.0500 b_faster=1/2 b_over_a=1.050 b_over_a_quartiles=0.975,1.125", line);
    }

    @Test
    void aPairBegunInTheWarmUpIsLeftOut() {
        Alternation alt = new Alternation("p", "off", "on");
        // One warm-up pass: timed passes 1-5, so pass 1 ends the pair pass 0 began, and passes
        // 2-5 make two pairs, (B, A) and (A, B).
        String line = alt.report("mmap-copy", "mnist-ofrecord", 1, 1, new double[] {9.0, 0.5, 1.0, 1.0, 0.5});
        assertEquals("ALTERNATE mmap-copy mnist-ofrecord threads=1 property=p a=off b=on pairs=2 a_median_s=1.0000"
                + " b_median_s=0.5000 b_faster=2/2 b_over_a=0.500 b_over_a_quartiles=0.500,0.500", line);
        assertEquals("ALTERNATE mmap-copy mnist-ofrecord threads=1 property=p a=off b=on pairs=0",
                alt.report("mmap-copy", "mnist-ofrecord", 1, 1, new double[] {9.0, 0.5}));
    }

    @Test
    void theOptionGoesToAForkedRunAndIsNoneByDefault() {
        CompareOptions options = CompareOptions.parse("--alternate", "d4j.x=off,on");
        CompareOptions forked = CompareOptions.parse(options.forOne("dataloader4j", CompareDataset.BERT_OFRECORD)
                .toArray(String[]::new));
        assertEquals(new Alternation("d4j.x", "off", "on"), forked.alternate());
        assertNull(CompareOptions.parse().alternate());
    }
}
