package org.dataloader4j.core.decode;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.wire.FeatureSchema;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.MapScanner;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;

/**
 * Where a record format keeps its features: a {@code map<string, Feature>} reached through a path
 * of message fields ({@code [1]} for an OFRecord, whose field 1 is the map; {@code [1, 1]} for a
 * tf.Example, whose field 1 is a {@code Features} message with the map in its field 1), and the
 * numbering of a Feature's lists ({@link FeatureSchema}). It reads one feature's values out of
 * a record without decoding the rest: what a key that groups records by a feature needs.
 * Immutable.
 */
public final class RecordFeatures {
    private final FeatureSchema schema;
    private final int[] path;

    /**
     * Features numbered as {@code schema} say, in the map of field {@code path[last]} of the
     * message reached through the fields {@code path[0 .. last)}.
     *
     * @throws IllegalArgumentException if the path is empty or holds a field number below 1
     */
    public RecordFeatures(FeatureSchema schema, int... path) {
        this.schema = Objects.requireNonNull(schema, "schema");
        if (path.length == 0) {
            throw new IllegalArgumentException("path must name at least the map's field");
        }
        for (int field : path) {
            if (field < 1) {
                throw new IllegalArgumentException("field numbers are >= 1: path=" + Arrays.toString(path));
            }
        }
        this.path = path.clone();
    }

    /** A reader of feature {@code name}; for one thread (it keeps its buffers). */
    public Lookup lookup(String name) {
        return new Lookup(Objects.requireNonNull(name, "name"));
    }

    /** Reads one feature of record after record; reused by one thread. */
    public final class Lookup {
        private final String name;
        private final MapScanner scanner;
        private final WireReader reader = new WireReader();
        private final FeatureView feature = new FeatureView(schema);
        private final RecordView view = new RecordView();
        private final long[] entryStart = new long[1];
        private final long[] entryEnd = new long[1];

        private Lookup(String name) {
            this.name = name;
            this.scanner = new MapScanner(List.of(name));
        }

        /**
         * The number of values of the feature in {@code record}: of numbers in a numeric list, of
         * byte strings in a {@code bytes_list}; 0 if the record has no such feature.
         *
         * @throws CorruptDataException naming the record if it is not valid wire format
         */
        public long count(RecordSlice record) {
            try {
                return resolve(record) ? feature.count(reader) : 0;
            } catch (WireFormatException e) {
                throw RecordErrors.corrupt(view.set(record), e, "feature " + name);
            }
        }

        /**
         * The one value of the feature, an {@code int64_list} or {@code int32_list} of exactly one
         * number, in {@code record}.
         *
         * @throws CorruptDataException naming the record if the feature is missing, holds another
         *                              list or another number of values, or the record is not
         *                              valid wire format
         */
        public long intValue(RecordSlice record) {
            try {
                if (!resolve(record)) {
                    throw RecordErrors.corrupt(view.set(record), "no feature " + name + " to group by");
                }
                ListKind kind = feature.kind();
                if (kind != ListKind.INT64 && kind != ListKind.INT32) {
                    throw RecordErrors.corrupt(view.set(record), "feature " + name + " holds " + kind
                            + ", not one integer to group by");
                }
                long count = feature.count(reader);
                if (count != 1) {
                    throw RecordErrors.corrupt(view.set(record), "feature " + name + " holds " + count
                            + " integers, not one to group by");
                }
                long value = reader.reset(record.source(), feature.start(0), feature.end(0)).readVarint64();
                return kind == ListKind.INT32 ? (int) value : value;
            } catch (WireFormatException e) {
                throw RecordErrors.corrupt(view.set(record), e, "feature " + name);
            }
        }

        /** Finds and resolves the feature's map entry; false if the record has none. */
        private boolean resolve(RecordSlice record) {
            entryStart[0] = -1;
            reader.reset(record.source(), record.start(), record.end());
            scan(0);
            if (entryStart[0] < 0) {
                return false;
            }
            feature.resolveEntry(reader, entryStart[0], entryEnd[0]);
            return true;
        }

        /** Scans the message at the reader's position for the map, descending through {@code path[depth..]}. */
        private void scan(int depth) {
            if (depth == path.length - 1) {
                scanner.scan(reader, path[depth], entryStart, entryEnd);
                return;
            }
            int tag = WireReader.tag(path[depth], WireReader.LENGTH_DELIMITED);
            // Every occurrence of the message on the path: protobuf merges them, and of equal keys the last wins.
            for (int t = reader.readTag(); t != 0; t = reader.readTag()) {
                if (t != tag) {
                    reader.skipField(t);
                    continue;
                }
                long outer = reader.pushLimit(reader.readLength());
                scan(depth + 1);
                reader.popLimit(outer);
            }
        }
    }
}
