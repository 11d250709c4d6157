package org.dataloader4j.core.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reads of the usual shape of a field in place, without a {@link WireReader}: a length of one to
 * three bytes and the bytes it covers. The {@link MapScanner} and the {@link FeatureView} take a
 * field this way when it has that shape, and read it with a reader otherwise; the two ways agree
 * on every field. Stateless.
 */
final class ShortFields {
    private ShortFields() {
    }

    /**
     * The varint at {@code at} of {@code segment} if it is one to three bytes long in its
     * shortest form (below 2^21) and ends before {@code end}; otherwise -1, and the caller reads
     * it with a reader instead. Its length is {@link #shortVarintBytes} of the value. For parsers
     * that read the usual shape of a message in place (a length, then the bytes it covers) and
     * fall back on a {@link WireReader} for anything else.
     */
    static int peekShortVarint(MemorySegment segment, long at, long end) {
        if (at >= end) {
            return -1;
        }
        int b0 = segment.get(ValueLayout.JAVA_BYTE, at);
        if (b0 >= 0) {
            return b0;
        }
        if (at + 1 >= end) {
            return -1;
        }
        int b1 = segment.get(ValueLayout.JAVA_BYTE, at + 1);
        if (b1 > 0) {
            return b0 & 0x7F | b1 << 7;
        }
        // A second byte of 0 is a longer form than needed, whose length the value does not tell.
        if (b1 == 0 || at + 2 >= end) {
            return -1;
        }
        int b2 = segment.get(ValueLayout.JAVA_BYTE, at + 2);
        return b2 > 0 ? b0 & 0x7F | (b1 & 0x7F) << 7 | b2 << 14 : -1;
    }

    /** The bytes of a value {@link #peekShortVarint} returned (0 to 2^21 − 1), as it was read. */
    static int shortVarintBytes(int value) {
        return value < 1 << 7 ? 1 : value < 1 << 14 ? 2 : 3;
    }

    /**
     * Where the bytes of a length-delimited field start, if its length at {@code lengthAt} is one
     * {@link #peekShortVarint} takes and the bytes it covers end exactly at {@code end}; otherwise
     * -1. A field of the usual shape that fills what holds it.
     */
    static long bodyEndingAt(MemorySegment segment, long lengthAt, long end) {
        int length = peekShortVarint(segment, lengthAt, end);
        long body = lengthAt + shortVarintBytes(length);
        return length >= 0 && body + length == end ? body : -1;
    }
}
