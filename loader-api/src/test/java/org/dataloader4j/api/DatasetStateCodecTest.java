package org.dataloader4j.api;

import static org.dataloader4j.api.DatasetStateCodec.fromBytes;
import static org.dataloader4j.api.DatasetStateCodec.fromText;
import static org.dataloader4j.api.DatasetStateCodec.toBytes;
import static org.dataloader4j.api.DatasetStateCodec.toText;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DatasetStateCodecTest {

    @Test
    void encodesAndDecodesANestedState() {
        DatasetState inner = DatasetState.of("mini", null).with("epoch", 2).with("offset", -7);
        DatasetState outer = DatasetState.of("batch", DatasetState.of("shuffle", inner).with("seed", Long.MIN_VALUE));

        String text = toText(outer);
        DatasetState back = fromText(text);

        assertEquals("batch{}/shuffle{seed=-9223372036854775808}/mini{epoch=2,offset=-7}", text);
        assertEquals(outer, back);
        assertEquals(2, back.requireUpstream().requireUpstream().field("epoch"));
        assertEquals(outer, fromText("  " + text + "\n"), "white space around the line");
    }

    @Test
    void roundTripsThroughBytes() {
        DatasetState state = DatasetState.of("batch", DatasetState.of("shuffle",
                DatasetState.of("mini", null).with("epoch", 2).with("offset", Long.MAX_VALUE))
                .with("seed", Long.MIN_VALUE).with("steps", 40)).with("ended", 0);

        assertEquals(state, fromBytes(toBytes(state)));
        assertTrue(DatasetStateCodec.looksLikeBytes(toBytes(state)));
    }

    @Test
    void listsRoundTripThroughTextAndBytes() {
        long[] locations = {3, Long.MIN_VALUE, -1, Long.MAX_VALUE};
        DatasetState state = DatasetState.of("batch", DatasetState.of("shuffle", DatasetState.of("mini", null).with("epoch", 1))
                .with("seed", 9).withList("locations", locations, 0, 4).withList("none", locations, 2, 2)).with("ended", 0);

        assertEquals("batch{ended=0}/shuffle{seed=9,locations=[3 -9223372036854775808 -1 9223372036854775807],none=[]}/mini{epoch=1}",
                toText(state));
        assertEquals(state, fromText(toText(state)));
        assertEquals(state, fromBytes(toBytes(state)));
        assertArrayEquals(locations, fromBytes(toBytes(state)).requireUpstream().list("locations"));
    }

    /** Checkpoints written before stay readable: the layout of version 2, byte for byte. */
    @Test
    void writesTheSecondVersionsLayout() {
        byte[] v2 = {0x44, 0x53, 0x53, 0x54, 0, 0, 0, 2,
            0, 5, 'b', 'a', 't', 'c', 'h', 0, 0, 0, 0, 0, 0, 0, 0, 1,
            0, 4, 'l', 'i', 's', 't', 0, 0, 0, 1, 0, 1, 'i', 0, 0, 0, 0, 0, 0, 0, 3,
            0, 0, 0, 1, 0, 1, 'l', 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 5, -1, -1, -1, -1, -1, -1, -1, -1, 0};
        DatasetState state = DatasetState.of("batch", DatasetState.of("list", null).with("i", 3)
                .withList("l", new long[] {5, -1}, 0, 2));

        assertArrayEquals(v2, toBytes(state));
        assertEquals(state, fromBytes(v2));
    }

    @Test
    void readsBytesOfTheFirstVersionWithoutLists() {
        byte[] v1 = {0x44, 0x53, 0x53, 0x54, 0, 0, 0, 1, 0, 4, 'l', 'i', 's', 't', 0, 0, 0, 1, 0, 1, 'i',
                0, 0, 0, 0, 0, 0, 0, 3, 0};

        assertEquals(DatasetState.of("list", null).with("i", 3), fromBytes(v1));
    }

    @Test
    void rejectsBytesThatAreNotAState() {
        byte[] bytes = toBytes(DatasetState.of("list", null).with("index", 3));
        assertNotAState(() -> fromBytes(Arrays.copyOf(bytes, bytes.length - 1)));
        assertNotAState(() -> fromBytes(Arrays.copyOf(bytes, bytes.length + 1)));
        byte[] wrongMagic = bytes.clone();
        wrongMagic[0] ^= 1;
        assertNotAState(() -> fromBytes(wrongMagic));
        assertFalse(DatasetStateCodec.looksLikeBytes(wrongMagic));
        byte[] nextVersion = bytes.clone();
        nextVersion[7] = 3;
        assertNotAState(() -> fromBytes(nextVersion));
        byte[] badName = bytes.clone();
        badName[10] = ' ';
        assertNotAState(() -> fromBytes(badName));
    }

    @ParameterizedTest
    @ValueSource(strings = {"batch", "batch{a=x}", "{a=1}", "batch{a}", "batch{=1}", "batch{a=[1 x]}", "batch{a=1,a=[2]}",
        "batch{}/", "batch{a=99999999999999999999}"})
    void rejectsTextThatIsNotAState(String text) {
        assertNotAState(() -> fromText(text));
    }

    @Test
    void theTextOfAStateIsNotItsBytes() {
        byte[] text = "DSST{a=1}".getBytes(StandardCharsets.US_ASCII);
        assertFalse(DatasetStateCodec.looksLikeBytes(text), "a state of kind DSST in text");
        assertEquals(DatasetState.of("DSST", null).with("a", 1), fromText(new String(text, StandardCharsets.US_ASCII)));
    }

    private static void assertNotAState(org.junit.jupiter.api.function.Executable read) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, read);
        assertTrue(e.getMessage().startsWith("not a dataset state"), e::getMessage);
    }
}
