package org.dataloader4j.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link CoinFlip} against libstdc++'s {@code std::bernoulli_distribution} fed the same two
 * 32-bit words (the expected flips are what GCC 12's library returns for them): the words make
 * one double as {@code generate_canonical} does, rounding included, and it is compared with the
 * float probability widened to double.
 */
class CoinFlipTest {

    @ParameterizedTest(name = "p={0} lo={1} hi={2} -> {3}")
    @CsvSource({
        "0.5, 0x00000000, 0x80000000, 0",
        "0.5000001, 0x00000000, 0x80000000, 1",
        // 2^63 - 1 rounds to 2^63 in double: exactly 0.5, not below it.
        "0.5, 0xFFFFFFFF, 0x7FFFFFFF, 0",
        // 2^64 - 1 rounds to 2^64: 1.0 becomes the double below it, still under 1.
        "1.0, 0xFFFFFFFF, 0xFFFFFFFF, 1",
        "0.0, 0x00000000, 0x00000000, 0",
        "1.0, 0x00000000, 0x00000000, 1",
        "0.0, 0xFFFFFFFF, 0xFFFFFFFF, 0",
        // 0.3f is 0.300000011920929 as a double, 0x4CCCCD00 / 2^32 exactly.
        "0.3, 0x00000000, 0x4CCCCD00, 0",
        "0.3, 0xFFFFFFFF, 0x4CCCCCFF, 0",
        "0.3, 0xFFFFF000, 0x4CCCCCFF, 1",
        "0.3, 0x00000000, 0x4CCCCCFF, 1",
        "0.75, 0xFFFFFFFF, 0xBFFFFFFF, 0",
        "0.75, 0xFFFFFBFF, 0xBFFFFFFF, 1",
    })
    void aDrawIsLibstdcxxBernoulliOfTwoWords(float p, String lo, String hi, int flip) {
        CoinFlip coin = new CoinFlip(p, words(Integer.parseUnsignedInt(lo.substring(2), 16),
                Integer.parseUnsignedInt(hi.substring(2), 16)));
        assertEquals(flip == 1, coin.next());
    }

    @Test
    void fillDrawsOneByteARowInOrder() {
        // Words pair up as (lo, hi): hi alone decides here, 0x40000000 -> 0.25, 0xC0000000 -> 0.75.
        CoinFlip coin = new CoinFlip(0.5f, words(0, 0x40000000, 0, 0xC0000000, 0, 0xC0000000, 0, 0x40000000));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(4);
            coin.fill(out, 4);
            assertArrayEquals(new byte[] {1, 0, 0, 1}, out.toArray(ValueLayout.JAVA_BYTE));
            assertThrows(IllegalArgumentException.class, () -> coin.fill(out, 5));
            assertThrows(IllegalArgumentException.class, () -> coin.fill(out, -1));
        }
    }

    @Test
    void probabilitiesOutsideZeroToOneAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new CoinFlip(1.5f, words(0)));
        assertThrows(IllegalArgumentException.class, () -> new CoinFlip(-0.1f, words(0)));
        assertThrows(IllegalArgumentException.class, () -> new CoinFlip(Float.NaN, words(0)));
    }

    /** A source that gives {@code values} in order, then fails. */
    private static IntSupplier words(int... values) {
        int[] next = {0};
        return () -> values[next[0]++];
    }

    /** {@code std::mt19937(1234)} and {@code std::bernoulli_distribution(0.5f)}, 32 draws, as g++ 12 makes them. */
    @Test
    void aSeededCoinFlipsAsOneFlowsDoes() {
        CoinFlip coin = CoinFlip.seeded(0.5f, 1234);
        StringBuilder bits = new StringBuilder();
        for (int i = 0; i < 32; i++) {
            bits.append(coin.next() ? '1' : '0');
        }
        assertEquals("10000110111110111111000111001100", bits.toString());
    }
}
