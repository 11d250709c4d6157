package org.dataloader4j.tfrecord.internal;

import java.util.Arrays;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;

/**
 * The steps of one {@code feature_lists} map entry, as regions of the record: each step is a
 * {@code Feature} message, resolved one at a time with a {@link FeatureView}.
 *
 * <p>A {@code FeatureList} is {@code repeated Feature feature = 1}; an entry's repeated
 * {@code value} fields merge, so their steps concatenate, as protobuf-java reads them. Unknown
 * fields are skipped. Reused row after row by one thread.
 */
final class FeatureListView {
    private static final int STEP_TAG = WireReader.tag(1, WireReader.LENGTH_DELIMITED);

    private long[] bounds = new long[32];
    private int steps;

    /**
     * Reads the map entry {@code [entryStart, entryEnd)} of {@code r}'s segment.
     *
     * @throws WireFormatException if the entry or its FeatureList is malformed (the steps'
     *                             Features are read later)
     */
    void resolveEntry(WireReader r, long entryStart, long entryEnd) {
        steps = 0;
        r.reset(r.segment(), entryStart, entryEnd);
        for (int tag = r.readTag(); tag != 0; tag = r.readTag()) {
            if (tag == FeatureView.ENTRY_VALUE_TAG) {
                long outer = r.pushLimit(r.readLength());
                readList(r);
                r.popLimit(outer);
            } else {
                r.skipField(tag);
            }
        }
    }

    private void readList(WireReader r) {
        for (int tag = r.readTag(); tag != 0; tag = r.readTag()) {
            if (tag == STEP_TAG) {
                long length = r.readLength();
                add(r.position(), r.position() + length);
                r.skip(length);
            } else {
                r.skipField(tag);
            }
        }
    }

    private void add(long start, long end) {
        if (2 * steps == bounds.length) {
            bounds = Arrays.copyOf(bounds, 2 * bounds.length);
        }
        bounds[2 * steps] = start;
        bounds[2 * steps + 1] = end;
        steps++;
    }

    /** The number of steps. */
    int steps() {
        return steps;
    }

    /** Where step {@code i}'s Feature starts in the record. */
    long start(int i) {
        return bounds[2 * i];
    }

    /** Where step {@code i}'s Feature ends in the record. */
    long end(int i) {
        return bounds[2 * i + 1];
    }
}
