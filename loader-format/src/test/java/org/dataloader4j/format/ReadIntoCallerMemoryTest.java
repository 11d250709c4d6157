package org.dataloader4j.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link RecordReader#nextLength()} with {@link RecordReader#readPayload(byte[], int)}: the same
 * records, positions and failures as {@link RecordReader#next()}, with the payload in memory the
 * caller gives.
 */
class ReadIntoCallerMemoryTest {
    private static final byte[] FIRST = {10, 20, 30, 40, 50};
    private static final byte[] SECOND = {1, 2, 3, 4, 5, 6, 7, 8, 9};

    private static List<byte[]> payloads(Framing framing) {
        Random random = new Random(7);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            // TFRecord frames may be empty; an OFRecord frame never is.
            byte[] p = new byte[(framing == Framing.TFRECORD ? 0 : 1) + random.nextInt(i % 7 == 0 ? 70_000 : 300)];
            random.nextBytes(p);
            out.add(p);
        }
        return out;
    }

    private static RecordReader reader(byte[] framed, Framing framing, Compression compression, boolean verifyCrc)
            throws IOException {
        byte[] bytes = HandFraming.compress(compression, framed);
        return RecordReader.of(new ByteArrayInputStream(bytes), "stream", framing, compression, verifyCrc);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"OFRECORD,NONE", "OFRECORD,GZIP", "TFRECORD,NONE", "TFRECORD,GZIP", "TFRECORD,ZLIB"})
    void readsWhatNextReadsIntoTheCallersArray(Framing framing, Compression compression) throws IOException {
        List<byte[]> payloads = payloads(framing);
        byte[] framed = HandFraming.frame(framing, payloads);
        List<RawRecord> expected = new ArrayList<>();
        try (RecordReader r = reader(framed, framing, compression, true)) {
            for (RawRecord rec = r.next(); rec != null; rec = r.next()) {
                expected.add(rec);
            }
        }
        assertEquals(payloads.size(), expected.size());

        byte[] into = new byte[100_000];
        try (RecordReader r = reader(framed, framing, compression, true)) {
            for (RawRecord want : expected) {
                assertEquals(want.index(), r.recordsRead());
                assertEquals(want.offset(), r.offset());
                int length = r.nextLength();
                assertEquals(want.payload().length, length);
                // Off the array's start, with other bytes around it: the CRC covers just the payload.
                Arrays.fill(into, (byte) 0x5a);
                r.readPayload(into, 13);
                assertArrayEquals(want.payload(), Arrays.copyOfRange(into, 13, 13 + length), "record " + want.index());
            }
            assertEquals(-1, r.nextLength());
            assertEquals(-1, r.nextLength(), "the end stays the end");
            assertEquals(framed.length, r.offset());
        }
    }

    @Test
    void aDataCrcMismatchIsFoundInTheCallersArrayAndSticks() throws IOException {
        byte[] framed = HandFraming.frame(Framing.TFRECORD, List.of(FIRST, SECOND));
        byte[] bad = HandFraming.flip(framed, 16 + FIRST.length + 12 + 4, 0x01);
        try (RecordReader r = reader(bad, Framing.TFRECORD, Compression.GZIP, true)) {
            byte[] into = new byte[64];
            assertEquals(FIRST.length, r.nextLength());
            r.readPayload(into, 3);
            int length = r.nextLength();
            assertEquals(SECOND.length, length);

            CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> r.readPayload(into, 3));
            assertEquals("corrupted record at offset " + (16 + FIRST.length) + " in stream (data CRC mismatch); record 1",
                    e.getMessage());
            assertSame(e, assertThrows(CorruptRecordException.class, r::nextLength), "the failure is sticky");
            assertSame(e, assertThrows(CorruptRecordException.class, r::next));
        }
        try (RecordReader r = reader(bad, Framing.TFRECORD, Compression.GZIP, false)) {
            assertEquals(FIRST.length, r.nextLength());
            r.readPayload(new byte[FIRST.length], 0);
            byte[] into = new byte[SECOND.length];
            assertEquals(SECOND.length, r.nextLength());
            r.readPayload(into, 0);
            assertEquals(SECOND[4] ^ 0x01, into[4], "unchecked, the damaged byte is read as it is");
        }
    }

    @Test
    void aPayloadCutShortIsATruncatedRecord() throws IOException {
        byte[] framed = HandFraming.frame(Framing.TFRECORD, List.of(FIRST, SECOND));
        byte[] cut = Arrays.copyOf(framed, framed.length - 8);
        try (RecordReader r = reader(cut, Framing.TFRECORD, Compression.NONE, true)) {
            assertEquals(FIRST.length, r.nextLength());
            r.readPayload(new byte[8], 0);
            assertEquals(SECOND.length, r.nextLength());
            CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> r.readPayload(new byte[16], 0));
            assertTrue(e.getMessage().startsWith("truncated record at offset " + (16 + FIRST.length) + " in stream (data: 5 of 9 bytes)"),
                    e.getMessage());
        }
    }

    @Test
    void theTwoStepsGoInTurn() throws IOException {
        byte[] framed = HandFraming.frame(Framing.OFRECORD, List.of(FIRST, SECOND));
        try (RecordReader r = reader(framed, Framing.OFRECORD, Compression.NONE, true)) {
            assertThrows(IllegalStateException.class, () -> r.readPayload(new byte[8], 0), "no header read yet");
            assertThrows(IllegalStateException.class, r::readPayload, "no header read yet");
            assertEquals(FIRST.length, r.nextLength());
            assertThrows(IllegalStateException.class, r::nextLength, "the payload comes first");
            assertThrows(IllegalStateException.class, r::next, "the payload comes first");
            assertThrows(IndexOutOfBoundsException.class, () -> r.readPayload(new byte[8], 4));

            byte[] into = new byte[8];
            r.readPayload(into, 3);
            assertArrayEquals(FIRST, Arrays.copyOfRange(into, 3, 8), "a payload that did not fit is still there to read");
            assertEquals(SECOND.length, r.nextLength());
            assertArrayEquals(SECOND, r.readPayload(), "or into an array of its own");
            assertNull(r.next());
            assertEquals(2, r.recordsRead());
        }
        RecordReader closed = reader(framed, Framing.OFRECORD, Compression.NONE, true);
        closed.close();
        assertThrows(IllegalStateException.class, closed::nextLength);
    }
}
