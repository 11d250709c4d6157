package org.dataloader4j.tfrecord;

import static org.dataloader4j.tfrecord.Proto.FIXED32;
import static org.dataloader4j.tfrecord.Proto.VARINT;
import static org.dataloader4j.tfrecord.Proto.message;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.tfrecord.RandomExamples.Record;
import org.dataloader4j.tfrecord.RandomExamples.Values;

/**
 * Encodes a {@link Record} the ways protobuf-java reads but never writes, each meaning the same
 * record: unknown fields at every level (including known field numbers with the wrong wire type),
 * {@code features} / {@code context} / {@code feature_lists} split over repeated occurrences that
 * merge, an earlier decoy entry of the same key that the later one replaces, value-before-key
 * entries, repeated key fields, an entry's value split over repeated value fields that merge, a
 * decoy list kind that the real one replaces, lists split into several occurrences, packed and
 * unpacked runs, and over-long varints.
 */
final class NoisyEncoder {
    private final Random random;
    private final RandomExamples gen;

    NoisyEncoder(RandomExamples gen) {
        this.gen = gen;
        this.random = gen.random();
    }

    byte[] example(Record r) {
        Proto p = message();
        for (Proto features : split(entries(r.features()), 1)) {
            unknown(p, 2, 0.3);
            p.bytes(1, features);
        }
        unknown(p, 2, 0.3);
        return p.toByteArray();
    }

    byte[] sequenceExample(Record r) {
        List<Proto> contexts = split(entries(r.features()), 1);
        List<Proto> lists = split(listEntries(r.lists()), 1);
        Proto p = message();
        // Interleaved: merging is per field, so the order of context and feature_lists does not matter.
        while (!contexts.isEmpty() || !lists.isEmpty()) {
            unknown(p, 3, 0.2);
            boolean context = lists.isEmpty() || (!contexts.isEmpty() && random.nextBoolean());
            p.bytes(context ? 1 : 2, (context ? contexts : lists).removeFirst());
        }
        return p.toByteArray();
    }

    /** The map entries of {@code features}, each maybe after a decoy entry of the same key. */
    private List<Proto> entries(Map<String, Values> features) {
        List<Proto> entries = new ArrayList<>();
        features.forEach((key, v) -> {
            if (random.nextInt(6) == 0) {
                entries.add(entry(key, List.of(feature(gen.numeric(ListKind.INT64, 2)))));
            }
            entries.add(entry(key, featureValues(v)));
        });
        return entries;
    }

    private List<Proto> listEntries(Map<String, List<Values>> lists) {
        List<Proto> entries = new ArrayList<>();
        lists.forEach((key, steps) -> {
            if (random.nextInt(6) == 0) {
                entries.add(entry(key, List.of(featureList(List.of(gen.numeric(ListKind.FLOAT, 1))))));
            }
            // An entry's value fields merge: a FeatureList split over two of them concatenates its steps.
            int cut = random.nextInt(3) == 0 ? random.nextInt(steps.size() + 1) : steps.size();
            entries.add(entry(key, cut == steps.size() ? List.of(featureList(steps))
                    : List.of(featureList(steps.subList(0, cut)), featureList(steps.subList(cut, steps.size())))));
        });
        return entries;
    }

    /**
     * Splits {@code entries} over 1 to 3 messages of map field {@code mapField}, in order (so a
     * decoy stays before the entry that replaces it), with unknown fields between them.
     */
    private List<Proto> split(List<Proto> entries, int mapField) {
        int parts = 1 + random.nextInt(3);
        List<Proto> out = new ArrayList<>();
        for (int i = 0; i < parts; i++) {
            out.add(message());
        }
        int part = 0;
        for (Proto e : entries) {
            part = Math.min(parts - 1, part + (random.nextInt(3) == 0 ? 1 : 0));
            unknown(out.get(part), 2, 0.15);
            out.get(part).bytes(mapField, e);
        }
        return out;
    }

    /**
     * A map entry of {@code key} whose value fields are {@code values}, in that order (they
     * merge); the key anywhere among them, maybe after a decoy key field that it replaces.
     */
    private Proto entry(String key, List<Proto> values) {
        Proto e = message();
        if (random.nextInt(8) == 0) {
            e.string(1, key + "-not");
        }
        int keyAt = random.nextInt(values.size() + 1);
        for (int i = 0; i <= values.size(); i++) {
            unknown(e, 3, 0.1);
            if (i == keyAt) {
                e.string(1, key);
            }
            if (i < values.size()) {
                e.bytes(2, values.get(i));
            }
        }
        return e;
    }

    /** One or more Feature messages that merge into {@code v}. */
    private List<Proto> featureValues(Values v) {
        if (v.kind() == null) {
            // No list: an empty Feature, no value field at all, or an empty Feature twice.
            return switch (random.nextInt(3)) {
                case 0 -> List.of();
                case 1 -> List.of(unknown(message(), 4, 0.5));
                default -> List.of(message(), message());
            };
        }
        return switch (random.nextInt(4)) {
            // Merging a Feature with a different list replaces it; with the same list, concatenates.
            case 0 -> List.of(feature(other(v.kind())), feature(v));
            case 1 -> List.of(feature(v), message());
            default -> List.of(feature(v));
        };
    }

    private Values other(ListKind kind) {
        return gen.numeric(kind == ListKind.FLOAT ? ListKind.INT64 : ListKind.FLOAT, random.nextInt(3));
    }

    /** A Feature meaning {@code v}, maybe after a decoy list, its list split into occurrences. */
    Proto feature(Values v) {
        Proto f = message();
        unknown(f, 4, 0.2);
        if (v.kind() == null) {
            return f;
        }
        if (random.nextInt(5) == 0) {
            Values decoy = other(v.kind());
            f.bytes(field(decoy.kind()), list(decoy, 0, decoy.count()));
        }
        int n = v.count();
        int occurrences = n == 0 ? 1 : 1 + random.nextInt(Math.min(3, n));
        int from = 0;
        for (int i = 0; i < occurrences; i++) {
            int to = i == occurrences - 1 ? n : from + random.nextInt(n - from + 1);
            f.bytes(field(v.kind()), list(v, from, to));
            unknown(f, 4, 0.1);
            from = to;
        }
        return f;
    }

    private static int field(ListKind kind) {
        return switch (kind) {
            case BYTES -> Proto.BYTES_LIST;
            case FLOAT -> Proto.FLOAT_LIST;
            default -> Proto.INT64_LIST;
        };
    }

    /** A list message holding values {@code [from, to)} of {@code v}, in packed and unpacked runs. */
    private Proto list(Values v, int from, int to) {
        Proto l = message();
        int i = from;
        while (i < to) {
            unknownInList(l, v.kind());
            int run = 1 + random.nextInt(to - i);
            if (v.kind() == ListKind.BYTES) {
                l.bytes(1, v.strings()[i++]);
            } else if (random.nextBoolean()) {
                Proto packed = message();
                for (int k = i; k < i + run; k++) {
                    value(packed, v, k);
                }
                l.bytes(1, packed);
                i += run;
            } else {
                for (int k = i; k < i + run; k++) {
                    l.tag(1, v.kind() == ListKind.FLOAT ? FIXED32 : VARINT);
                    value(l, v, k);
                }
                i += run;
            }
        }
        unknownInList(l, v.kind());
        return l;
    }

    private void value(Proto p, Values v, int k) {
        if (v.kind() == ListKind.FLOAT) {
            p.rawFixed32(Float.floatToRawIntBits(v.floats()[k]));
        } else {
            long x = v.longs()[k];
            int minimal = x < 0 ? 10 : Math.max(1, (64 - Long.numberOfLeadingZeros(x) + 6) / 7);
            // Padded to at most 9 bytes: protobuf-java 4.29.3's array decoder reads a 10-byte varint
            // ending in 0x00 with bit 63 set (its stream decoder, and this parser, do not).
            boolean pad = minimal < 9 && random.nextInt(6) == 0;
            p.paddedVarint(x, pad ? minimal + 1 + random.nextInt(9 - minimal) : minimal);
        }
    }

    /** Sometimes an unknown field in a list, or its field 1 with a wire type the list does not use. */
    private void unknownInList(Proto l, ListKind kind) {
        if (random.nextInt(10) != 0) {
            return;
        }
        if (random.nextBoolean()) {
            unknown(l, 2, 1);
        } else if (kind == ListKind.FLOAT) {
            l.varint(1, 7);
        } else if (kind == ListKind.INT64) {
            l.fixed32(1, 7);
        } else {
            l.fixed64(1, 7);
        }
    }

    /** With probability {@code p}, an unknown field numbered {@code minField} or above, of a random wire type. */
    private Proto unknown(Proto m, int minField, double p) {
        if (random.nextDouble() >= p) {
            return m;
        }
        int field = minField + random.nextInt(20);
        switch (random.nextInt(4)) {
            case 0 -> m.varint(field, random.nextLong());
            case 1 -> m.fixed64(field, random.nextLong());
            case 2 -> m.bytes(field, "unknown".getBytes(StandardCharsets.UTF_8));
            default -> m.fixed32(field, random.nextInt());
        }
        return m;
    }

    private Proto featureList(List<Values> steps) {
        Proto l = message();
        for (Values s : steps) {
            unknown(l, 2, 0.1);
            l.bytes(1, feature(s));
        }
        unknown(l, 2, 0.1);
        return l;
    }
}
