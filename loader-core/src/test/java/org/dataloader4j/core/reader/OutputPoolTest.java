package org.dataloader4j.core.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OutputPoolTest {
    private final IntParser parser = new IntParser();

    @Test
    void handsOutTheSetGivenBackLast() {
        try (Arena arena = Arena.ofConfined()) {
            OutputPool pool = new OutputPool(parser.outputs(4), arena, 3);
            Slot.Output[] a = pool.take();
            Slot.Output[] b = pool.take();

            pool.give(a);
            assertSame(a, pool.take());
            pool.give(b);
            pool.give(a);
            assertSame(a, pool.take());
            assertSame(b, pool.take());
        }
    }

    @Test
    void everySetHasMemoryOfItsOwnAndTheSpecsOfTheParser() {
        try (Arena arena = Arena.ofConfined()) {
            OutputPool pool = new OutputPool(parser.outputs(4), arena, 3);
            Set<Long> addresses = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                Slot.Output[] set = pool.take();
                assertEquals(parser.outputs(4), List.of(set).stream().map(Slot.Output::spec).toList());
                for (Slot.Output o : set) {
                    assertEquals(o.spec().isRagged() ? o.spec().valueCapacity() * o.spec().dataType().byteSize() : o.spec().byteSize(), o.values().byteSize());
                    addresses.add(o.values().address());
                    if (o.offsets() != null) {
                        assertNotEquals(o.values().address(), o.offsets().address());
                        addresses.add(o.offsets().address());
                    }
                }
            }
            assertEquals(3 * 4, addresses.size(), "3 sets of id, features, token values and token offsets");
        }
    }

    @Test
    void takingMoreSetsThanTheRingHoldsIsABug() {
        try (Arena arena = Arena.ofConfined()) {
            OutputPool pool = new OutputPool(parser.outputs(4), arena, 1);
            pool.take();
            assertThrows(IllegalStateException.class, pool::take);
        }
    }
}
