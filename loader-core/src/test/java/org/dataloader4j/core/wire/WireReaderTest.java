package org.dataloader4j.core.wire;

import static org.dataloader4j.core.wire.WireReader.FIXED32;
import static org.dataloader4j.core.wire.WireReader.FIXED64;
import static org.dataloader4j.core.wire.WireReader.LENGTH_DELIMITED;
import static org.dataloader4j.core.wire.WireReader.VARINT;
import static org.dataloader4j.core.wire.WireReader.tag;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WireReaderTest {

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 127, 128, 300, 16_383, 16_384, Integer.MAX_VALUE, 1L << 32, Long.MAX_VALUE,
            -1, -2, Integer.MIN_VALUE, Long.MIN_VALUE})
    void readsVarintsOfEveryLength(long value) {
        byte[] bytes = varint(value);
        WireReader r = reader(bytes);
        assertEquals(value, r.readVarint64());
        assertEquals(bytes.length, r.position());
        assertFalse(r.hasRemaining());
    }

    @Test
    void negativeInt32IsATenByteVarintWhoseLowBitsAreTheValue() {
        byte[] bytes = varint(-5); // int32 -5 is sign-extended to 64 bits on the wire
        assertEquals(10, bytes.length);
        assertEquals(-5, reader(bytes).readVarint32());
    }

    @Test
    void roundTripsSeededRandomVarints() {
        long seed = 20240601L;
        Random random = new Random(seed);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long[] values = new long[2000];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextLong() >> random.nextInt(64);
            out.writeBytes(varint(values[i]));
        }
        WireReader r = reader(out.toByteArray());
        for (int i = 0; i < values.length; i++) {
            assertEquals(values[i], r.readVarint64(), "value " + i + ", seed " + seed);
        }
        assertFalse(r.hasRemaining());
    }

    @Test
    void aTenthByteWithHighBitsIsTruncatedTo64BitsAsProtobufDoes() {
        byte[] bytes = varint(-1);
        bytes[9] = 0x7F;
        assertEquals(-1L, reader(bytes).readVarint64());
    }

    @Test
    void elevenByteVarintIsMalformedAtItsFirstByte() {
        byte[] bytes = new byte[13];
        bytes[0] = 0x08;
        for (int i = 1; i < 12; i++) {
            bytes[i] = (byte) 0x80;
        }
        bytes[12] = 0x01;
        WireReader r = reader(bytes);
        r.skip(1);
        WireFormatException e = assertThrows(WireFormatException.class, r::readVarint64);
        assertEquals("malformed varint", e.reason());
        assertEquals(1, e.position());
        assertEquals("malformed varint at byte 1", e.getMessage());
    }

    @Test
    void varintCutByTheLimitIsTruncated() {
        WireReader r = reader(new byte[] {(byte) 0x96, (byte) 0x81});
        WireFormatException e = assertThrows(WireFormatException.class, r::readVarint64);
        assertEquals("truncated varint", e.reason());
        assertEquals(0, e.position());
        // The limit cuts it, not the end of the segment.
        WireReader cut = new WireReader().reset(MemorySegment.ofArray(new byte[] {(byte) 0x96, 0x01}), 0, 1);
        assertThrows(WireFormatException.class, cut::readVarint64);
    }

    @Test
    void readsFixedWidthValuesLittleEndian() {
        WireReader r = reader(new byte[] {1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, (byte) 0x88});
        assertEquals(0x04030201, r.readFixed32());
        assertEquals(0x8807060504030201L, r.readFixed64());
        assertFalse(r.hasRemaining());
        WireReader floats = reader(concat(fixed32(Float.floatToRawIntBits(-1.5f)), fixed64(Double.doubleToRawLongBits(Math.PI))));
        assertEquals(-1.5f, Float.intBitsToFloat(floats.readFixed32()));
        assertEquals(Math.PI, Double.longBitsToDouble(floats.readFixed64()));
    }

    @Test
    void truncatedFixedWidthValuesFail() {
        WireFormatException e32 = assertThrows(WireFormatException.class, () -> reader(new byte[3]).readFixed32());
        assertEquals("truncated field", e32.reason());
        WireReader r = reader(new byte[9]);
        r.skip(2);
        WireFormatException e64 = assertThrows(WireFormatException.class, r::readFixed64);
        assertEquals(2, e64.position());
        assertEquals(2, r.position(), "a failed read does not move the cursor");
    }

    @Test
    void readsLengthDelimitedFieldsAsSlices() {
        byte[] bytes = concat(varint(3), new byte[] {7, 8, 9}, new byte[] {42});
        WireReader r = reader(bytes);
        MemorySegment value = r.readLengthDelimited();
        assertArrayEquals(new byte[] {7, 8, 9}, value.toArray(ValueLayout.JAVA_BYTE));
        assertEquals(4, r.position());
        assertEquals(42, r.readVarint64());
    }

    @Test
    void lengthPastTheLimitIsATruncatedField() {
        WireReader r = reader(concat(new byte[] {0}, varint(4), new byte[] {1, 2, 3}));
        r.skip(1);
        WireFormatException e = assertThrows(WireFormatException.class, r::readLengthDelimited);
        assertEquals("truncated field", e.reason());
        assertEquals(1, e.position());
    }

    @Test
    void aLengthOf2To31OrMoreIsInvalidWhateverFollows() {
        WireFormatException huge = assertThrows(WireFormatException.class, () -> reader(varint(Long.MAX_VALUE)).readLength());
        assertEquals("invalid length 9223372036854775807", huge.reason());
        WireFormatException negative = assertThrows(WireFormatException.class, () -> reader(varint(-1)).readLength());
        assertEquals("invalid length 18446744073709551615", negative.reason());
        // protobuf-java reads the low 32 bits (0 here) and would take it for an empty field.
        byte[] lowBitsZero = concat(varint(1L << 32), new byte[8]);
        WireFormatException high = assertThrows(WireFormatException.class, () -> reader(lowBitsZero).readLength());
        assertEquals("invalid length 4294967296", high.reason());
        assertEquals(0, high.position());
        assertEquals("invalid length 2147483648", assertThrows(WireFormatException.class,
                () -> reader(varint(1L << 31)).readLength()).reason());
        assertEquals("truncated field", assertThrows(WireFormatException.class,
                () -> reader(varint(Integer.MAX_VALUE)).readLength()).reason(), "2^31 - 1 is a length, here past the end");
    }

    @Test
    void skipsEverySupportedWireType() {
        byte[] bytes = concat(
                varint(tag(1, VARINT)), varint(-1),
                varint(tag(2, FIXED64)), fixed64(99),
                varint(tag(3, LENGTH_DELIMITED)), varint(2), new byte[] {5, 6},
                varint(tag(4, FIXED32)), fixed32(7),
                varint(tag(536_870_911, VARINT)), varint(1),
                varint(tag(5, VARINT)), varint(150));
        WireReader r = reader(bytes);
        int[] fields = {1, 2, 3, 4, 536_870_911};
        for (int field : fields) {
            int tag = r.readTag();
            assertEquals(field, WireReader.fieldNumber(tag));
            r.skipField(tag);
        }
        int tag = r.readTag();
        assertEquals(5, WireReader.fieldNumber(tag));
        assertEquals(VARINT, WireReader.wireType(tag));
        assertEquals(150, r.readVarint64());
        assertEquals(0, r.readTag(), "0 marks the end");
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 6, 7})
    void groupsAndInvalidWireTypesAreUnsupportedAtTheTag(int wireType) {
        WireReader r = reader(concat(new byte[] {8, 1}, varint(tag(20, wireType)), new byte[8]));
        r.skipField(r.readTag());
        WireFormatException e = assertThrows(WireFormatException.class, () -> r.skipField(r.readTag()));
        assertEquals("unsupported wire type " + wireType, e.reason());
        assertEquals(2, e.position());
    }

    @Test
    void skippingATruncatedValueFails() {
        for (int wireType : new int[] {VARINT, FIXED64, LENGTH_DELIMITED, FIXED32}) {
            WireReader r = reader(concat(varint(tag(1, wireType)), new byte[] {(byte) 0x83}));
            int tag = r.readTag();
            assertThrows(WireFormatException.class, () -> r.skipField(tag), "wire type " + wireType);
        }
    }

    @Test
    void fieldNumberZeroIsAnInvalidTag() {
        WireFormatException e = assertThrows(WireFormatException.class, () -> reader(new byte[] {2, 0}).readTag());
        assertTrue(e.reason().startsWith("invalid tag"), e.reason());
    }

    @Test
    void pushedLimitsBoundNestedMessages() {
        // Field 1: a message holding field 2 = 5; then field 3 = 6.
        byte[] inner = concat(varint(tag(2, VARINT)), varint(5));
        byte[] bytes = concat(varint(tag(1, LENGTH_DELIMITED)), varint(inner.length), inner, varint(tag(3, VARINT)), varint(6));
        WireReader r = reader(bytes);
        r.readTag();
        long old = r.pushLimit(r.readLength());
        assertEquals(tag(2, VARINT), r.readTag());
        assertEquals(5, r.readVarint64());
        assertEquals(0, r.readTag(), "the nested message ends at its limit");
        assertThrows(WireFormatException.class, () -> r.skip(1));
        r.popLimit(old);
        assertEquals(tag(3, VARINT), r.readTag());
        assertEquals(6, r.readVarint64());
        assertThrows(WireFormatException.class, () -> r.pushLimit(1));
    }

    @Test
    void countsPackedVarintsAtEveryAlignmentWithoutMoving() {
        long seed = 77L;
        Random random = new Random(seed);
        for (int round = 0; round < 500; round++) {
            int n = random.nextInt(40);
            int lead = random.nextInt(9);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(new byte[lead]);
            for (int i = 0; i < n; i++) {
                out.writeBytes(varint(random.nextBoolean() ? random.nextInt(300) : random.nextLong() >> random.nextInt(64)));
            }
            byte[] bytes = out.toByteArray();
            WireReader r = reader(bytes);
            r.skip(lead);
            assertEquals(n, r.countVarints(bytes.length - lead), "round " + round + ", seed " + seed);
            assertEquals(lead, r.position());
        }
    }

    @Test
    void countingReportsAnOverlongVarintAtItsStartWhereverItIs() {
        for (int lead = 0; lead < 20; lead++) {
            for (int continuation = 10; continuation < 20; continuation++) {
                byte[] bad = new byte[continuation + 1];
                java.util.Arrays.fill(bad, 0, continuation, (byte) 0xFF);
                byte[] bytes = concat(new byte[lead], bad, varint(-1), new byte[] {1});
                WireReader r = reader(bytes);
                WireFormatException e = assertThrows(WireFormatException.class, () -> r.countVarints(bytes.length));
                assertEquals("malformed varint", e.reason());
                assertEquals(lead, e.position(), "lead " + lead + ", continuation bytes " + continuation);
                assertEquals(0, r.position());
            }
        }
    }

    @Test
    void countingAcceptsTheLongestVarintsAcrossWords() {
        byte[] bytes = concat(new byte[] {1, 2, 3}, varint(-1), varint(Long.MIN_VALUE), varint(-1), new byte[] {0});
        assertEquals(7, reader(bytes).countVarints(bytes.length));
    }

    @Test
    void aPackedRegionEndingInsideAVarintIsTruncated() {
        for (int lead = 0; lead < 12; lead++) {
            byte[] bytes = concat(new byte[lead], new byte[] {(byte) 0x80, (byte) 0x80}, new byte[] {1});
            WireReader r = reader(bytes);
            int length = lead + 2;
            WireFormatException e = assertThrows(WireFormatException.class, () -> r.countVarints(length));
            assertEquals("truncated varint", e.reason());
            assertEquals(lead, e.position());
        }
        WireFormatException past = assertThrows(WireFormatException.class, () -> reader(new byte[4]).countVarints(5));
        assertEquals("truncated field", past.reason());
    }

    @Test
    void randomBytesFailOnlyWithWireFormatExceptions() {
        long seed = 4242L;
        Random random = new Random(seed);
        int failures = 0;
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes = new byte[random.nextInt(40)];
            random.nextBytes(bytes);
            try {
                walk(reader(bytes), 0);
            } catch (WireFormatException e) {
                failures++;
                assertTrue(e.position() >= 0 && e.position() <= bytes.length, "round " + round + ", seed " + seed);
            }
        }
        assertTrue(failures > 0, "seed " + seed);
    }

    @Test
    void peekingAShortVarintGivesWhatReadingItGivesOrRefuses() {
        MemorySegment buffer = MemorySegment.ofArray(new byte[8]);
        for (int value = 0; value < 1 << 21; value++) {
            byte[] encoded = varint(value);
            MemorySegment.copy(MemorySegment.ofArray(encoded), 0, buffer, 1, encoded.length);
            long end = 1 + encoded.length;
            assertEquals(value, ShortFields.peekShortVarint(buffer, 1, end), "value " + value);
            assertEquals(encoded.length, ShortFields.shortVarintBytes(value), "value " + value);
            assertEquals(-1, ShortFields.peekShortVarint(buffer, 1, end - 1), "value " + value + " cut short");
        }
        // Longer than three bytes, or longer than needed: left to a reader, which reads them.
        byte[][] refused = {varint(1 << 21), {(byte) 0x80, 0}, {(byte) 0x81, (byte) 0x80, 0}};
        long[] read = {1 << 21, 0, 1};
        for (int i = 0; i < refused.length; i++) {
            MemorySegment segment = MemorySegment.ofArray(refused[i]);
            assertEquals(-1, ShortFields.peekShortVarint(segment, 0, refused[i].length), "form " + i);
            assertEquals(read[i], new WireReader(segment).readVarint64(), "form " + i);
        }
        assertEquals(-1, ShortFields.peekShortVarint(buffer, 3, 3), "nothing before the end");
    }

    @Test
    void aBodyEndsExactlyWhereItsShortLengthSays() {
        // A length of 2 at offset 1, then two bytes, then a byte of whatever follows.
        MemorySegment s = MemorySegment.ofArray(new byte[] {0x0A, 2, 7, 7, 9});
        assertEquals(2, ShortFields.bodyEndingAt(s, 1, 4));
        assertEquals(-1, ShortFields.bodyEndingAt(s, 1, 5), "a byte past the body");
        assertEquals(-1, ShortFields.bodyEndingAt(s, 1, 3), "the body cut short");
        // 200 in two bytes, with 200 bytes after them; and 2 in two bytes, longer than needed.
        byte[] wide = new byte[202];
        wide[0] = (byte) 0xC8;
        wide[1] = 1;
        assertEquals(2, ShortFields.bodyEndingAt(MemorySegment.ofArray(wide), 0, 202));
        assertEquals(-1, ShortFields.bodyEndingAt(MemorySegment.ofArray(new byte[] {(byte) 0x82, 0, 7, 7}), 0, 4));
    }

    /** Reads every field, descending into length-delimited ones as if they were messages. */
    private static void walk(WireReader r, int depth) {
        for (int tag = r.readTag(); tag != 0; tag = r.readTag()) {
            if (WireReader.wireType(tag) == LENGTH_DELIMITED && depth < 3) {
                long length = r.readLength();
                long start = r.position();
                r.countVarints(length);
                long old = r.pushLimit(length);
                try {
                    walk(r, depth + 1);
                } catch (WireFormatException e) {
                    // Not a message: skipped as bytes below, as a parser of an unknown field would.
                    assertTrue(e.position() >= start && e.position() <= start + length);
                } finally {
                    r.popLimit(old);
                }
                r.position(start + length);
            } else {
                r.skipField(tag);
            }
        }
    }

    private static WireReader reader(byte[] bytes) {
        return new WireReader(MemorySegment.ofArray(bytes));
    }

    /** Protobuf's varint encoding: 7 bits a byte, low bits first. */
    static byte[] varint(long value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while ((value & ~0x7FL) != 0) {
            out.write((int) (value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.write((int) value);
        return out.toByteArray();
    }

    static byte[] fixed32(int v) {
        return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
    }

    static byte[] fixed64(long v) {
        return concat(fixed32((int) v), fixed32((int) (v >>> 32)));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
