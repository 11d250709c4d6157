package org.dataloader4j.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DatasetStateTest {

    @Test
    void encodesAndDecodesANestedState() {
        DatasetState inner = DatasetState.of("mini", null).with("epoch", 2).with("offset", -7);
        DatasetState outer = DatasetState.of("batch", DatasetState.of("shuffle", inner).with("seed", Long.MIN_VALUE));

        String text = outer.encode();
        DatasetState back = DatasetState.decode(text);

        assertEquals("batch{}/shuffle{seed=-9223372036854775808}/mini{epoch=2,offset=-7}", text);
        assertEquals(outer, back);
        assertEquals(2, back.requireUpstream().requireUpstream().field("epoch"));
        assertNull(back.requireUpstream().requireUpstream().upstream());
    }

    @Test
    void roundTripsThroughBytesAndJson() {
        DatasetState state = DatasetState.of("batch", DatasetState.of("shuffle",
                DatasetState.of("mini", null).with("epoch", 2).with("offset", Long.MAX_VALUE))
                .with("seed", Long.MIN_VALUE).with("steps", 40)).with("ended", 0);

        assertEquals(state, DatasetState.fromBytes(state.toBytes()));
        String json = state.toJson();
        assertEquals(state, DatasetState.fromJson(json));
        assertEquals(state, DatasetState.fromJson(json.replace(",", " ,\n ").replace(":", " : ")));
        assertEquals("{\"kind\":\"mini\",\"fields\":{},\"upstream\":null}", DatasetState.of("mini", null).toJson());
    }

    @Test
    void listsRoundTripThroughTextBytesAndJson() {
        long[] locations = {3, Long.MIN_VALUE, -1, Long.MAX_VALUE};
        DatasetState state = DatasetState.of("batch", DatasetState.of("shuffle", DatasetState.of("mini", null).with("epoch", 1))
                .with("seed", 9).withList("locations", locations, 0, 4).withList("none", locations, 2, 2)).with("ended", 0);

        assertEquals("batch{ended=0}/shuffle{seed=9,locations=[3 -9223372036854775808 -1 9223372036854775807],none=[]}/mini{epoch=1}",
                state.encode());
        assertEquals(state, DatasetState.decode(state.encode()));
        assertEquals(state, DatasetState.fromBytes(state.toBytes()));
        assertEquals(state, DatasetState.fromJson(state.toJson()));
        assertEquals(state, DatasetState.fromJson(state.toJson().replace(",", " ,\n ").replace("[", "[ ")));
        assertTrue(state.toJson().contains("\"lists\":{\"locations\":[3,-9223372036854775808,-1,9223372036854775807],\"none\":[]}"),
                state.toJson());
        assertArrayEquals(locations, state.requireUpstream().list("locations"));
    }

    @Test
    void listsAreCopiedInAndOut() {
        long[] values = {1, 2, 3};
        DatasetState state = DatasetState.of("shuffle", null).withList("locations", values, 0, 3);
        values[0] = 99;
        state.list("locations")[1] = 99;
        state.lists().get("locations")[2] = 99;

        assertArrayEquals(new long[] {1, 2, 3}, state.list("locations"));
        assertEquals(state, DatasetState.of("shuffle", null).withList("locations", new long[] {1, 2, 3}, 0, 3));
        assertNotEquals(state, DatasetState.of("shuffle", null).withList("locations", new long[] {1, 2, 4}, 0, 3));
        assertThrows(IllegalArgumentException.class, () -> state.list("epochs"));
        assertThrows(IllegalArgumentException.class, () -> state.with("locations", 1));
    }

    @Test
    void readsBytesOfTheFirstVersionWithoutLists() {
        byte[] v1 = {0x44, 0x53, 0x53, 0x54, 0, 0, 0, 1, 0, 4, 'l', 'i', 's', 't', 0, 0, 0, 1, 0, 1, 'i',
                0, 0, 0, 0, 0, 0, 0, 3, 0};

        assertEquals(DatasetState.of("list", null).with("i", 3), DatasetState.fromBytes(v1));
    }

    @Test
    void rejectsBytesAndJsonThatAreNotAState() {
        byte[] bytes = DatasetState.of("list", null).with("index", 3).toBytes();
        assertThrows(IllegalArgumentException.class, () -> DatasetState.fromBytes(java.util.Arrays.copyOf(bytes, bytes.length - 1)));
        byte[] wrongMagic = bytes.clone();
        wrongMagic[0] ^= 1;
        assertThrows(IllegalArgumentException.class, () -> DatasetState.fromBytes(wrongMagic));
        assertThrows(IllegalArgumentException.class, () -> DatasetState.fromJson("{\"kind\":\"list\"}"));
        assertThrows(IllegalArgumentException.class, () -> DatasetState.fromJson("{\"kind\":\"list\",\"fields\":{\"i\":x},\"upstream\":null}"));
        assertThrows(IllegalArgumentException.class, () -> DatasetState.fromJson("{\"kind\":\"list\",\"fields\":{},\"upstream\":null} extra"));
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
        }
    }

    @Test
    void namesAMissingField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DatasetState.of("list", null).field("epoch"));
        assertTrue(e.getMessage().contains("epoch"), e.getMessage());
    }

    @Test
    void rejectsText()  {
        assertThrows(IllegalArgumentException.class, () -> DatasetState.decode("batch"));
        assertThrows(IllegalArgumentException.class, () -> DatasetState.decode("batch{a=x}"));
        assertThrows(IllegalArgumentException.class, () -> DatasetState.decode("{a=1}"));
        assertThrows(IllegalArgumentException.class, () -> DatasetState.of("has space", null));
    }
}
