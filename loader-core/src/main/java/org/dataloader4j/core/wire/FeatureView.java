package org.dataloader4j.core.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;

/**
 * The values of one {@code Feature} message, as regions of the record: its {@link #kind()} and
 * the {@link #pieces()} holding its values, in order. A piece is a run of encoded values: a
 * packed list's payload, one unpacked value, or one byte string of a {@code bytes_list}.
 *
 * <p>Resolving applies protobuf's merge rules, so the pieces are exactly the values protobuf-java
 * would hold: a map entry's repeated {@code value} fields merge into one Feature; of the Feature's
 * {@code oneof kind} the last list wins, and consecutive occurrences of that same list
 * concatenate (a different list in between resets it); in a list, packed and unpacked
 * occurrences of field 1 concatenate; unknown fields are skipped at every level. The common
 * feature (one packed list) resolves to one piece, which copies in bulk.
 *
 * <p>Reused row after row by one thread. Longer than most classes: the in-place reading of the
 * usual shape and the field-by-field reading must agree on every Feature, so they stay side by side.
 */
public final class FeatureView {
    /** Field 2 of a map entry: its value. */
    public static final int ENTRY_VALUE_TAG = MapScanner.MESSAGE_VALUE_TAG;
    private static final int LIST_VALUES = 1;
    /** A list's values as one length-delimited field: packed numbers, or one byte string. */
    private static final int VALUES_TAG = WireReader.tag(LIST_VALUES, WireReader.LENGTH_DELIMITED);

    private final FeatureSchema schema;
    private ListKind kind;
    private long[] bounds = new long[16];
    private int pieces;
    /** Whether a piece is an unpacked varint, whose end its own bytes decide. */
    private boolean unpackedVarint;

    /** A view of Features whose lists are numbered as {@code schema} says. */
    public FeatureView(FeatureSchema schema) {
        this.schema = Objects.requireNonNull(schema, "schema");
    }

    /**
     * Reads the Feature of the map entry {@code [entryStart, entryEnd)} of {@code r}'s segment
     * (a missing value is an empty Feature).
     *
     * @throws WireFormatException if the entry or its Feature is malformed
     */
    public void resolveEntry(WireReader r, long entryStart, long entryEnd) {
        clear();
        r.reset(r.segment(), entryStart, entryEnd);
        if (usualEntry(r.segment(), entryStart, entryEnd)) {
            r.position(entryEnd);
            return;
        }
        for (int tag = r.readTag(); tag != 0; tag = r.readTag()) {
            if (tag == ENTRY_VALUE_TAG) {
                long outer = r.pushLimit(r.readLength());
                readFeature(r);
                r.popLimit(outer);
            } else {
                r.skipField(tag);
            }
        }
    }

    /**
     * Reads the Feature message {@code [start, end)} of {@code r}'s segment: one step of a
     * feature list, say.
     *
     * @throws WireFormatException if the Feature is malformed
     */
    public void resolveFeature(WireReader r, long start, long end) {
        clear();
        r.reset(r.segment(), start, end);
        if (usualFeature(r.segment(), start, end)) {
            r.position(end);
            return;
        }
        readFeature(r);
    }

    /**
     * Resolves the entry {@code [start, end)} in place if it has the shape writers give it
     * ({@link MapScanner#usualValue}) and its Feature is {@link #usualFeature usual}. False, with
     * nothing set, for any other entry, which the caller then reads field by field; an entry taken
     * here resolves as it would there.
     */
    private boolean usualEntry(MemorySegment record, long start, long end) {
        long value = MapScanner.usualValue(record, start, end);
        return value >= 0 && usualFeature(record, value, end);
    }

    /**
     * Resolves the Feature {@code [start, end)} in place if it is one list, which is empty or
     * holds one length-delimited value field (a packed list, or one byte string) running to the
     * Feature's end, with one-byte tags and lengths of at most three bytes: nearly every Feature
     * written. False, with nothing set, for any other, which the caller then reads field by
     * field; a Feature taken here resolves as it would there.
     */
    private boolean usualFeature(MemorySegment record, long start, long end) {
        if (end - start < 2) {
            return false;
        }
        int tag = record.get(ValueLayout.JAVA_BYTE, start);
        ListKind k = tag > 0 && WireReader.wireType(tag) == WireReader.LENGTH_DELIMITED
                ? schema.kindOf(WireReader.fieldNumber(tag)) : null;
        long list = ShortFields.bodyEndingAt(record, start + 1, end);
        if (k == null || list < 0) {
            return false;
        }
        if (list == end) {
            kind = k;
            return true;
        }
        if (record.get(ValueLayout.JAVA_BYTE, list) != VALUES_TAG) {
            return false;
        }
        long values = ShortFields.bodyEndingAt(record, list + 1, end);
        if (values < 0) {
            return false;
        }
        kind = k;
        add(values, end);
        return true;
    }

    /**
     * Sets this view to a Feature of {@code kind} whose values are the one piece
     * {@code [start, end)}, or no piece if {@code start} is negative: what resolving an entry
     * gives where its bounds are known from a record laid out the same way.
     */
    public void set(ListKind kind, long start, long end) {
        clear();
        this.kind = kind;
        if (start >= 0) {
            add(start, end);
        }
    }

    private void clear() {
        kind = null;
        pieces = 0;
        unpackedVarint = false;
    }

    private void readFeature(WireReader r) {
        for (int tag = r.readTag(); tag != 0; tag = r.readTag()) {
            ListKind k = WireReader.wireType(tag) == WireReader.LENGTH_DELIMITED
                    ? schema.kindOf(WireReader.fieldNumber(tag)) : null;
            if (k == null) {
                r.skipField(tag);
                continue;
            }
            if (k != kind) {
                // Setting another member of a oneof clears the one before.
                kind = k;
                pieces = 0;
            }
            long outer = r.pushLimit(r.readLength());
            readList(r, k);
            r.popLimit(outer);
        }
    }

    private void readList(WireReader r, ListKind k) {
        for (int tag = r.readTag(); tag != 0; tag = r.readTag()) {
            if (WireReader.fieldNumber(tag) != LIST_VALUES) {
                r.skipField(tag);
            } else if (WireReader.wireType(tag) == WireReader.LENGTH_DELIMITED) {
                long length = r.readLength();
                add(r.position(), r.position() + length);
                r.skip(length);
            } else if (WireReader.wireType(tag) == k.valueWireType()) {
                unpackedVarint |= k.valueWireType() == WireReader.VARINT;
                long start = r.position();
                r.skipField(tag);
                add(start, r.position());
            } else {
                // Protobuf keeps a value of the wrong wire type as an unknown field.
                r.skipField(tag);
            }
        }
    }

    private void add(long start, long end) {
        if (2 * pieces == bounds.length) {
            bounds = Arrays.copyOf(bounds, 2 * bounds.length);
        }
        bounds[2 * pieces] = start;
        bounds[2 * pieces + 1] = end;
        pieces++;
    }

    /**
     * Whether every piece's bounds were read from the Feature's tags and lengths alone: true
     * unless a piece is an unpacked varint, which ends where its own bytes say. Only such a
     * Feature lies where it lay in another record whose bytes around it are the same.
     */
    public boolean boundsFromFraming() {
        return !unpackedVarint;
    }

    /** The list the Feature holds, or null if it sets none. */
    public ListKind kind() {
        return kind;
    }

    /** The number of pieces; for a {@code bytes_list}, of values. */
    public int pieces() {
        return pieces;
    }

    /** Where piece {@code i} starts in the record. */
    public long start(int i) {
        return bounds[2 * i];
    }

    /** Where piece {@code i} ends in the record. */
    public long end(int i) {
        return bounds[2 * i + 1];
    }

    /**
     * The number of values, checking every piece of a numeric list, so that copying them
     * afterwards cannot fail; 0 if the Feature sets no list, and for a {@code bytes_list} the
     * number of byte strings.
     *
     * @throws WireFormatException if a packed fixed-width list's length is not a multiple of
     *                             the value's width, or a packed varint is malformed
     */
    public long count(WireReader r) {
        if (kind == null) {
            return 0;
        }
        if (kind == ListKind.BYTES) {
            return pieces;
        }
        int width = kind.fixedWidth();
        long count = 0;
        for (int i = 0; i < pieces; i++) {
            long start = start(i);
            long length = end(i) - start;
            if (width == 0) {
                count += r.reset(r.segment(), start, end(i)).countVarints(length);
            } else if (length % width != 0) {
                throw new WireFormatException(start, "packed " + kind + " of " + length
                        + " bytes, not a multiple of " + width);
            } else {
                count += length / width;
            }
        }
        return count;
    }
}
