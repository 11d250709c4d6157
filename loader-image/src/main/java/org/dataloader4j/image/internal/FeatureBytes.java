package org.dataloader4j.image.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * Finds, in a record's protobuf bytes, the single value of one {@code bytes_list} feature (an
 * encoded image), without copying it: OneFlow's {@code OFRecord} (field 1, {@code map<string,
 * Feature>}) and TensorFlow's {@code tf.Example} (field 1, {@code Features}, whose field 1 is that
 * map); in both, a {@code Feature}'s field 1 is a {@code BytesList} whose field 1 holds the values.
 * The last map entry of a key wins, as protobuf merges maps. One per thread: it keeps the
 * position of the varint it read last.
 */
public final class FeatureBytes {
    private static final int LENGTH_DELIMITED = 2;

    private final int nesting;
    private final byte[] key;

    private FeatureBytes(int nesting, String key) {
        this.nesting = nesting;
        this.key = key.getBytes(StandardCharsets.UTF_8);
    }

    /** The locator of feature {@code key} in an OFRecord. */
    public static FeatureBytes ofRecord(String key) {
        return new FeatureBytes(0, key);
    }

    /** The locator of feature {@code key} in a tf.Example. */
    public static FeatureBytes example(String key) {
        return new FeatureBytes(1, key);
    }

    /**
     * Sets {@code range} to the {@code [start, end)} of the feature's value in {@code source};
     * false if the record has no such feature.
     *
     * @throws IllegalArgumentException saying what is wrong, if the bytes are not such a record,
     *                                  or the feature is not a bytes_list of exactly one value
     */
    public boolean locate(MemorySegment source, long start, long end, long[] range) {
        long mapStart = start;
        long mapEnd = end;
        for (int level = 0; level < nesting; level++) {
            // tf.Example: the last field 1 holds the Features message.
            if (!lastField(source, mapStart, mapEnd, 1, range)) {
                return false;
            }
            mapStart = range[0];
            mapEnd = range[1];
        }
        if (!entry(source, mapStart, mapEnd, range)) {
            return false;
        }
        long featureStart = range[0];
        long featureEnd = range[1];
        if (!lastField(source, featureStart, featureEnd, 1, range)) {
            throw new IllegalArgumentException("feature " + keyString() + " is not a bytes_list");
        }
        long listStart = range[0];
        long listEnd = range[1];
        int values = 0;
        long p = listStart;
        long valueStart = -1;
        long valueEnd = -1;
        while (p < listEnd) {
            long tag = varint(source, p, listEnd);
            p = next;
            if (tag >>> 3 == 1 && (tag & 7) == LENGTH_DELIMITED) {
                long length = varint(source, p, listEnd);
                p = next;
                checkLength(length, p, listEnd);
                valueStart = p;
                valueEnd = p + length;
                values++;
                p = valueEnd;
            } else {
                p = skip(source, tag, p, listEnd);
            }
        }
        if (values != 1) {
            throw new IllegalArgumentException("feature " + keyString() + " has " + values + " bytes_list values, expected exactly 1");
        }
        range[0] = valueStart;
        range[1] = valueEnd;
        return true;
    }

    /** The feature's key. */
    public String keyString() {
        return new String(key, StandardCharsets.UTF_8);
    }

    /** The value of the map entry (field 1 of [start, end)) whose key is ours: its Feature's range. */
    private boolean entry(MemorySegment s, long start, long end, long[] range) {
        boolean found = false;
        long p = start;
        while (p < end) {
            long tag = varint(s, p, end);
            p = next;
            if (tag >>> 3 != 1 || (tag & 7) != LENGTH_DELIMITED) {
                p = skip(s, tag, p, end);
                continue;
            }
            long length = varint(s, p, end);
            p = next;
            checkLength(length, p, end);
            long entryEnd = p + length;
            long keyStart = -1;
            long keyEnd = -1;
            long valueStart = -1;
            long valueEnd = -1;
            long q = p;
            while (q < entryEnd) {
                long t = varint(s, q, entryEnd);
                q = next;
                if ((t & 7) == LENGTH_DELIMITED && (t >>> 3 == 1 || t >>> 3 == 2)) {
                    long n = varint(s, q, entryEnd);
                    q = next;
                    checkLength(n, q, entryEnd);
                    if (t >>> 3 == 1) {
                        keyStart = q;
                        keyEnd = q + n;
                    } else {
                        valueStart = q;
                        valueEnd = q + n;
                    }
                    q += n;
                } else {
                    q = skip(s, t, q, entryEnd);
                }
            }
            if (keyStart >= 0 && keyMatches(s, keyStart, keyEnd)) {
                // An entry without a value holds an empty Feature.
                range[0] = valueStart >= 0 ? valueStart : entryEnd;
                range[1] = valueStart >= 0 ? valueEnd : entryEnd;
                found = true;
            }
            p = entryEnd;
        }
        return found;
    }

    private boolean keyMatches(MemorySegment s, long from, long to) {
        if (to - from != key.length) {
            return false;
        }
        for (int i = 0; i < key.length; i++) {
            if (s.get(ValueLayout.JAVA_BYTE, from + i) != key[i]) {
                return false;
            }
        }
        return true;
    }

    /** The last length-delimited field {@code field} of [start, end). */
    private boolean lastField(MemorySegment s, long start, long end, int field, long[] range) {
        boolean found = false;
        long p = start;
        while (p < end) {
            long tag = varint(s, p, end);
            p = next;
            if (tag >>> 3 == field && (tag & 7) == LENGTH_DELIMITED) {
                long length = varint(s, p, end);
                p = next;
                checkLength(length, p, end);
                range[0] = p;
                range[1] = p + length;
                found = true;
                p += length;
            } else {
                p = skip(s, tag, p, end);
            }
        }
        return found;
    }

    /** The position after the last varint read. */
    private long next;

    private long varint(MemorySegment s, long p, long end) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p >= end) {
                throw new IllegalArgumentException("a varint runs past the end of its message");
            }
            byte b = s.get(ValueLayout.JAVA_BYTE, p++);
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                next = p;
                return value;
            }
        }
        throw new IllegalArgumentException("a varint longer than 10 bytes");
    }

    private long skip(MemorySegment s, long tag, long p, long end) {
        switch ((int) (tag & 7)) {
            case 0 -> {
                varint(s, p, end);
                return next;
            }
            case 1 -> {
                return checked(p + 8, end);
            }
            case 2 -> {
                long length = varint(s, p, end);
                checkLength(length, next, end);
                return next + length;
            }
            case 5 -> {
                return checked(p + 4, end);
            }
            default -> throw new IllegalArgumentException("wire type " + (tag & 7) + " is not a protobuf field's");
        }
    }

    private static long checked(long p, long end) {
        if (p > end) {
            throw new IllegalArgumentException("a field runs past the end of its message");
        }
        return p;
    }

    private static void checkLength(long length, long p, long end) {
        if (length < 0 || length > end - p) {
            throw new IllegalArgumentException("a field's length " + length + " runs past the end of its message");
        }
    }
}
