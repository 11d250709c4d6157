package org.dataloader4j.core.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Finds the entries of a {@code map<string, V>} field whose keys a parser asks for, reading only
 * the entries' tags: the values are resolved later, and only for the keys that matched.
 *
 * <p>On the wire a map is a repeated field of entries {@code {key = 1, value = 2}}. As protobuf
 * reads them: fields come in any order and unknown ones are skipped; within an entry the key may
 * follow the value and a missing key is {@code ""}; of entries with the same key, the last wins,
 * also across several occurrences of the message holding the map (which merge). Keys are
 * compared as UTF-8 bytes, without making a String, and are not checked for valid UTF-8.
 *
 * <p>Immutable; the caller owns the arrays it passes in.
 */
public final class MapScanner {
    /** Field 1 of a map entry: its key. */
    public static final int KEY_TAG = WireReader.tag(1, WireReader.LENGTH_DELIMITED);
    /** Field 2 of a map entry whose values are messages: its value ({@link FeatureView#ENTRY_VALUE_TAG}). */
    static final int MESSAGE_VALUE_TAG = WireReader.tag(2, WireReader.LENGTH_DELIMITED);

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final byte[][] keys;
    /** Each key's first eight bytes (fewer, zero-padded, for a shorter key), as a little-endian word. */
    private final long[] heads;
    /** Which bits of a word loaded at a key's start are the key's. */
    private final long[] headMasks;
    /** Each key's last eight bytes, for keys of more than eight. */
    private final long[] tails;

    /** A scanner for {@code keys}; key {@code i}'s entry is noted at index {@code i}. */
    public MapScanner(List<String> keys) {
        int n = keys.size();
        this.keys = new byte[n][];
        this.heads = new long[n];
        this.headMasks = new long[n];
        this.tails = new long[n];
        for (int i = 0; i < n; i++) {
            byte[] key = keys.get(i).getBytes(StandardCharsets.UTF_8);
            this.keys[i] = key;
            int head = Math.min(key.length, Long.BYTES);
            heads[i] = word(key, 0, head);
            headMasks[i] = head == Long.BYTES ? -1L : (1L << 8 * head) - 1;
            tails[i] = key.length > Long.BYTES ? word(key, key.length - Long.BYTES, Long.BYTES) : 0;
        }
    }

    /** Bytes {@code [from, from + n)} of {@code key} as a little-endian word. */
    private static long word(byte[] key, int from, int n) {
        long w = 0;
        for (int b = n - 1; b >= 0; b--) {
            w = w << 8 | key[from + b] & 0xFF;
        }
        return w;
    }

    /** The number of keys. */
    public int size() {
        return keys.length;
    }

    /**
     * Reads the fields of the message from {@code r}'s position to its limit and, for each
     * length-delimited field {@code mapField} (an entry) whose key is key {@code i}, sets
     * {@code entryStart[i]} and {@code entryEnd[i]} to the bounds of the entry's payload. Entries
     * not found leave their slots as they were, so that a caller can clear them to -1 once and
     * scan every occurrence of a repeated message.
     *
     * @throws org.dataloader4j.core.wire.WireFormatException if the message or an entry's tags are malformed
     */
    public void scan(WireReader r, int mapField, long[] entryStart, long[] entryEnd) {
        int entryTag = WireReader.tag(mapField, WireReader.LENGTH_DELIMITED);
        scanUsual(r, entryTag, entryStart, entryEnd);
        for (int tag = r.readTag(); tag != 0; tag = r.readTag()) {
            if (tag != entryTag) {
                r.skipField(tag);
                continue;
            }
            long length = r.readLength();
            long start = r.position();
            int i = key(r, length);
            if (i >= 0) {
                entryStart[i] = start;
                entryEnd[i] = start + length;
            }
        }
    }

    /**
     * Takes the entries from the position on while they have the shape writers give them, read
     * in place, and leaves the reader after the last one taken: the rest, which may be nothing,
     * is read field by field. The shape: a one-byte tag, a length of at most three bytes, and an
     * entry as {@link #usualValue} takes it. An entry taken is read as the reader would read it,
     * so the two ways agree on every record.
     */
    private void scanUsual(WireReader r, int entryTag, long[] entryStart, long[] entryEnd) {
        MemorySegment record = r.segment();
        long at = r.position();
        long limit = r.limit();
        while (at < limit && record.get(ValueLayout.JAVA_BYTE, at) == entryTag) {
            int length = ShortFields.peekShortVarint(record, at + 1, limit);
            long start = at + 1 + ShortFields.shortVarintBytes(length);
            if (length < 0 || length > limit - start || usualValue(record, start, start + length) < 0) {
                break;
            }
            int i = match(record, start + 2, record.get(ValueLayout.JAVA_BYTE, start + 1));
            if (i >= 0) {
                entryStart[i] = start;
                entryEnd[i] = start + length;
            }
            at = start + length;
        }
        r.position(at);
    }

    /**
     * Where the value of the map entry {@code [start, end)} starts, if the entry has the shape
     * writers give it: its key, of under 128 bytes (the bytes from {@code start + 2}, as many as
     * the byte at {@code start + 1} says), then a message value, whose length takes at most three
     * bytes, running to the entry's end. -1 for an entry of any other shape, which a parser then
     * reads field by field.
     */
    static long usualValue(MemorySegment record, long start, long end) {
        if (end - start < 3 || record.get(ValueLayout.JAVA_BYTE, start) != KEY_TAG) {
            return -1;
        }
        int keyLength = record.get(ValueLayout.JAVA_BYTE, start + 1);
        long tag = start + 2 + keyLength;
        if (keyLength < 0 || tag >= end || record.get(ValueLayout.JAVA_BYTE, tag) != MESSAGE_VALUE_TAG) {
            return -1;
        }
        return ShortFields.bodyEndingAt(record, tag + 1, end);
    }

    /** Reads the entry of {@code length} bytes at the position; the index of its key, or -1. */
    private int key(WireReader r, long length) {
        long outer = r.pushLimit(length);
        long keyStart = 0;
        long keyLength = 0;
        for (int tag = r.readTag(); tag != 0; tag = r.readTag()) {
            if (tag == KEY_TAG) {
                // A repeated key field: the last one is the key, as protobuf reads it.
                keyLength = r.readLength();
                keyStart = r.position();
                r.skip(keyLength);
            } else {
                r.skipField(tag);
            }
        }
        r.popLimit(outer);
        return match(r.segment(), keyStart, keyLength);
    }

    private int match(MemorySegment record, long keyStart, long keyLength) {
        // Compared a word at a time where a word can be read at the key's start.
        boolean words = record.byteSize() - keyStart >= Long.BYTES;
        long head = words ? record.get(WORD, keyStart) : 0;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].length != keyLength) {
                continue;
            }
            if (words ? (head & headMasks[i]) == heads[i] && equalAfterHead(record, keyStart, i)
                    : equal(record, keyStart, keys[i], 0)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether key {@code i}'s bytes after its first eight are those at {@code at + 8}. */
    private boolean equalAfterHead(MemorySegment record, long at, int i) {
        int n = keys[i].length;
        if (n <= Long.BYTES) {
            return true;
        }
        // The last eight bytes overlap the head, or the middle that is compared byte by byte.
        return record.get(WORD, at + n - Long.BYTES) == tails[i]
                && (n <= 2 * Long.BYTES || equal(record, at, keys[i], Long.BYTES));
    }

    /** Whether bytes {@code from, from + 1, …} of {@code key} are those at {@code at + from}. */
    private static boolean equal(MemorySegment record, long at, byte[] key, int from) {
        for (int i = from; i < key.length; i++) {
            if (record.get(ValueLayout.JAVA_BYTE, at + i) != key[i]) {
                return false;
            }
        }
        return true;
    }
}
