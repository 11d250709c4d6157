package org.dataloader4j.core.reader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.dataloader4j.api.Lease;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.batch.OutputSet;
import org.dataloader4j.core.reader.IntParser;
import org.junit.jupiter.api.Test;

class OutputPoolTest {
    private final IntParser parser = new IntParser();

    @Test
    void handsOutTheSetGivenBackLast() {
        try (Arena arena = Arena.ofConfined()) {
            OutputPool pool = new OutputPool(parser.outputs(4), arena, 3);
            OutputSet a = pool.take();
            OutputSet b = pool.take();

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
            List<TensorSpec> specs = parser.outputs(4);
            for (int i = 0; i < 3; i++) {
                OutputSet set = pool.take();
                assertEquals(specs.stream().map(TensorSpec::name).toList(), set.names());
                for (int o = 0; o < set.size(); o++) {
                    TensorSpec spec = specs.get(o);
                    if (spec.isRagged()) {
                        RaggedTensor t = set.ragged(o, 4, Lease.PERMANENT);
                        assertEquals(spec.valueCapacity() * spec.dataType().byteSize(), t.values().segment().byteSize());
                        assertEquals(5 * Long.BYTES, t.offsets().segment().byteSize());
                        assertNotEquals(t.values().segment().address(), t.offsets().segment().address());
                        addresses.add(t.values().segment().address());
                        addresses.add(t.offsets().segment().address());
                    } else {
                        MemorySegment values = set.tensor(o, 4, Lease.PERMANENT).segment();
                        assertEquals(spec.byteSize(), values.byteSize());
                        addresses.add(values.address());
                    }
                }
            }
            assertEquals(3 * 4, addresses.size(), "3 sets of id, features, token values and token offsets");
        }
    }

    /** Sets are allocated as the ring first needs them: a consumer that keeps pace costs one. */
    @Test
    void allocatesASetOnlyWhenNoneIsFree() {
        try (Arena arena = Arena.ofConfined()) {
            CountingArena counting = new CountingArena(arena);
            OutputPool pool = new OutputPool(parser.outputs(4), counting, 8);
            assertEquals(0, counting.allocations);
            for (int i = 0; i < 100; i++) {
                pool.give(pool.take());
            }
            int oneSet = counting.allocations;
            assertNotEquals(0, oneSet);
            OutputSet a = pool.take();
            OutputSet b = pool.take();
            OutputSet c = pool.take();
            assertEquals(3 * oneSet, counting.allocations);
            pool.give(c);
            pool.give(b);
            pool.give(a);
            for (int i = 0; i < 3; i++) {
                pool.take();
            }
            assertEquals(3 * oneSet, counting.allocations);
        }
    }

    /** An arena that counts the segments allocated from it. */
    private static final class CountingArena implements Arena {
        private final Arena arena;
        int allocations;

        CountingArena(Arena arena) {
            this.arena = arena;
        }

        @Override
        public MemorySegment allocate(long byteSize, long byteAlignment) {
            allocations++;
            return arena.allocate(byteSize, byteAlignment);
        }

        @Override
        public MemorySegment.Scope scope() {
            return arena.scope();
        }

        @Override
        public void close() {
            arena.close();
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
