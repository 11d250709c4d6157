package org.dataloader4j.core.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SplitMix64Test {

    @Test
    void aGeneratorBuiltFromAnotherOnesStateContinuesItsSequence() {
        SplitMix64 a = new SplitMix64(42);
        for (int i = 0; i < 17; i++) {
            a.nextInt(1000);
        }
        SplitMix64 b = new SplitMix64(a.state());
        for (int i = 0; i < 100; i++) {
            assertEquals(a.nextInt(7 + i), b.nextInt(7 + i));
        }
    }

    @Test
    void boundedIntegersStayInRangeAndAreEvenlySpread() {
        SplitMix64 random = new SplitMix64(7);
        for (int bound : new int[] {1, 2, 3, 10, 1000, Integer.MAX_VALUE}) {
            for (int i = 0; i < 1000; i++) {
                int v = random.nextInt(bound);
                assertTrue(v >= 0 && v < bound, "bound=" + bound + " v=" + v);
            }
        }
        int bins = 10;
        int draws = 100_000;
        int[] counts = new int[bins];
        for (int i = 0; i < draws; i++) {
            counts[random.nextInt(bins)]++;
        }
        double chiSquare = 0;
        for (int c : counts) {
            double expected = (double) draws / bins;
            chiSquare += (c - expected) * (c - expected) / expected;
        }
        // 9 degrees of freedom: 27.9 is the 0.1 % tail, so a fair generator almost never exceeds it.
        assertTrue(chiSquare < 27.9, "chi-square " + chiSquare);
    }
}
