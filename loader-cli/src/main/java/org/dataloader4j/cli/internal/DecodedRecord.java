package org.dataloader4j.cli.internal;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.format.tf.FeatureList;
import org.dataloader4j.format.tf.Features;
import org.dataloader4j.format.tf.SequenceExample;

/**
 * One record's payload decoded as the message its framing holds: an {@code OFRecord} in
 * OFRecord files; a {@code tf.Example} in TFRecord files, or a {@code tf.SequenceExample} when
 * the payload has feature lists. Features are in name order.
 *
 * <p>A payload that does not parse, or that has fields the schema lacks (a TensorBoard event in a
 * TFRecord file parses as an empty Example with unknown fields), is not one of these: its
 * {@link #problem()} says why and it has no features.
 *
 * @param raw          the record as read
 * @param kind         what the payload is
 * @param features     the features of an OFRecord or Example, or the context of a SequenceExample
 * @param featureLists the feature lists of a SequenceExample, else empty
 * @param problem      why the payload is not a valid message, or null
 */
public record DecodedRecord(RawRecord raw, Kind kind, Map<String, FeatureValues> features,
        Map<String, List<FeatureValues>> featureLists, String problem) {

    /** What a payload is. */
    public enum Kind {
        /** A OneFlow {@code OFRecord}. */
        OFRECORD("an OFRecord"),
        /** A {@code tf.Example}. */
        EXAMPLE("a tf.Example"),
        /** A {@code tf.SequenceExample}. */
        SEQUENCE_EXAMPLE("a tf.SequenceExample"),
        /** Not a valid message of the framing's schema. */
        INVALID("not a valid message");

        private final String words;

        Kind(String words) {
            this.words = words;
        }

        /** The kind in words: {@code an OFRecord}. */
        public String words() {
            return words;
        }
    }

    /** Decodes {@code raw}, read from a file in {@code framing}. */
    public static DecodedRecord decode(RawRecord raw, Framing framing) {
        String expected = framing == Framing.OFRECORD ? "an OFRecord" : "a tf.Example or tf.SequenceExample";
        Message message;
        try {
            message = framing == Framing.OFRECORD ? OFRecord.parseFrom(raw.payload())
                    : SequenceExample.parseFrom(raw.payload());
        } catch (InvalidProtocolBufferException e) {
            return invalid(raw, "payload is not " + expected + " (" + e.getMessage() + ")");
        }
        String unknown = unknownFields(message, "");
        if (unknown != null) {
            return invalid(raw, "payload is not " + expected + ": it has fields the schema lacks (" + unknown + ")");
        }
        if (message instanceof OFRecord r) {
            Map<String, FeatureValues> features = new TreeMap<>();
            r.getFeatureMap().forEach((name, f) -> features.put(name, FeatureValues.of(f)));
            return new DecodedRecord(raw, Kind.OFRECORD, features, Map.of(), null);
        }
        SequenceExample s = (SequenceExample) message;
        Map<String, FeatureValues> context = tfFeatures(s.getContext());
        if (!s.hasFeatureLists()) {
            return new DecodedRecord(raw, Kind.EXAMPLE, context, Map.of(), null);
        }
        Map<String, List<FeatureValues>> lists = new TreeMap<>();
        for (Map.Entry<String, FeatureList> e : s.getFeatureLists().getFeatureListMap().entrySet()) {
            lists.put(e.getKey(), e.getValue().getFeatureList().stream().map(FeatureValues::of).toList());
        }
        return new DecodedRecord(raw, Kind.SEQUENCE_EXAMPLE, context, lists, null);
    }

    private static DecodedRecord invalid(RawRecord raw, String problem) {
        return new DecodedRecord(raw, Kind.INVALID, Map.of(), Map.of(), problem);
    }

    private static Map<String, FeatureValues> tfFeatures(Features features) {
        Map<String, FeatureValues> out = new TreeMap<>();
        features.getFeatureMap().forEach((name, f) -> out.put(name, FeatureValues.of(f)));
        return out;
    }

    /** Where in {@code m} a field unknown to its schema is, as {@code path#number}; null if nowhere. */
    private static String unknownFields(Message m, String path) {
        if (!m.getUnknownFields().asMap().isEmpty()) {
            String numbers = m.getUnknownFields().asMap().keySet().stream().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(", "));
            return (path.isEmpty() ? "" : "in " + path + ", ") + "field" + (m.getUnknownFields().asMap().size() == 1 ? " " : "s ") + numbers;
        }
        for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
            if (e.getKey().getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            String at = path.isEmpty() ? e.getKey().getName() : path + "." + e.getKey().getName();
            List<?> values = e.getKey().isRepeated() ? (List<?>) e.getValue() : List.of(e.getValue());
            for (Object v : values) {
                String found = unknownFields((Message) v, at);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** Whether the payload is a valid message. */
    public boolean valid() {
        return problem == null;
    }

    /** Copies the maps, keeping their order. */
    public DecodedRecord {
        features = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(features));
        featureLists = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(featureLists));
    }
}
