package org.dataloader4j.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DatasetStateTest {

    @Test
    void aNestedStateHoldsItsFieldsAndUpstreams() {
        DatasetState inner = DatasetState.of("mini", null).with("epoch", 2).with("offset", -7);
        DatasetState outer = DatasetState.of("batch", DatasetState.of("shuffle", inner).with("seed", Long.MIN_VALUE));

        assertEquals("batch", outer.kind());
        assertEquals(Map.of("seed", Long.MIN_VALUE), outer.requireUpstream().fields());
        assertEquals(2, outer.requireUpstream().requireUpstream().field("epoch"));
        assertNull(outer.requireUpstream().requireUpstream().upstream());
        assertEquals("batch{}/shuffle{seed=-9223372036854775808}/mini{epoch=2,offset=-7}", outer.toString());
    }

    @Test
    void listsAreCopiedInAndOut() {
        long[] values = {1, 2, 3};
        DatasetState state = DatasetState.of("shuffle", null).withList("locations", values, 0, 3);
        values[0] = 99;
        state.list("locations")[1] = 99;
        state.lists().get("locations")[2] = 99;

        assertArrayEquals(new long[] {1, 2, 3}, state.list("locations"));
        assertTrue(state.hasList("locations"));
        assertEquals(state, DatasetState.of("shuffle", null).withList("locations", new long[] {1, 2, 3}, 0, 3));
        assertEquals(state.hashCode(), DatasetState.of("shuffle", null).withList("locations", new long[] {1, 2, 3}, 0, 3).hashCode());
        assertNotEquals(state, DatasetState.of("shuffle", null).withList("locations", new long[] {1, 2, 4}, 0, 3));
        assertThrows(IllegalArgumentException.class, () -> state.list("epochs"));
        assertThrows(IllegalArgumentException.class, () -> state.with("locations", 1));
    }

    @Test
    void fieldsAreCopiedIn() {
        Map<String, Long> fields = new java.util.LinkedHashMap<>(Map.of("epoch", 1L));
        DatasetState state = new DatasetState("mini", fields, null);
        fields.put("epoch", 2L);

        assertEquals(1, state.field("epoch"));
        assertThrows(UnsupportedOperationException.class, () -> state.fields().put("epoch", 3L));
    }

    @Test
    void rejectsTheStateOfAnotherKind() {
        DatasetState state = DatasetState.of("list", null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> state.expect("mini"));
        assertTrue(e.getMessage().contains("list") && e.getMessage().contains("mini"), e.getMessage());
    }

    @Test
    void namesStartWithALetterAndHoldLettersDigitsAndUnderscoreDotOrDash() {
        DatasetState ok = DatasetState.of("skip-corrupt", null).with("a_b.c-9", 1).with("Z", 2);
        assertEquals(List.of("a_b.c-9", "Z"), List.copyOf(ok.fields().keySet()));
        for (String bad : new String[] {"", "9a", "_a", "a b", "a=b", "a{", "é", "a\n"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ok.with(bad, 1), bad);
            assertTrue(e.getMessage().contains("name must match"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> DatasetState.of(bad, null), bad);
            assertThrows(IllegalArgumentException.class, () -> ok.withList(bad, new long[0], 0, 0), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> DatasetState.of("has space", null));
    }

    @Test
    void namesAMissingField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DatasetState.of("list", null).field("epoch"));
        assertTrue(e.getMessage().contains("epoch"), e.getMessage());
    }

    @Test
    void namesAMissingUpstream() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DatasetState.of("shuffle", null).requireUpstream());
        assertTrue(e.getMessage().contains("shuffle has no upstream state"), e.getMessage());
    }
}
