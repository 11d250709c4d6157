package org.dataloader4j.cli.internal;

import com.google.protobuf.ByteString;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * One record as one line of JSON, as {@code loader inspect --json} prints it:
 *
 * <pre>
 * {"file": "part-0", "index": 0, "offset": 0, "features": {"labels": {"type": "int64", "values": [1]}}}
 * </pre>
 *
 * Bytes are base64. A float is printed as the decimal of its exact value
 * ({@code Double.toString((double) f)}), so it reads back to the same bits as a float32 or as
 * a float64; NaN and the infinities are the strings {@code "NaN"}, {@code "Infinity"},
 * {@code "-Infinity"}. Integers are JSON integers, int64 beyond 2^53 included. A
 * SequenceExample has {@code "context"} and {@code "feature_lists"} in place of
 * {@code "features"}; a payload that is not a valid message has {@code "error"} and its
 * {@code "length"} instead.
 */
public final class RecordJson {
    private RecordJson() {
    }

    /** {@code record}, read from {@code file} (as the user named it), as one line. */
    public static String line(String file, DecodedRecord record) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"file\": ");
        string(b, file);
        b.append(", \"index\": ").append(record.raw().index()).append(", \"offset\": ").append(record.raw().offset());
        switch (record.kind()) {
            case INVALID -> {
                b.append(", \"length\": ").append(record.raw().payload().length).append(", \"error\": ");
                string(b, record.problem());
            }
            case SEQUENCE_EXAMPLE -> {
                b.append(", \"context\": ");
                features(b, record.features());
                b.append(", \"feature_lists\": {");
                String sep = "";
                for (Map.Entry<String, List<FeatureValues>> e : record.featureLists().entrySet()) {
                    b.append(sep);
                    string(b, e.getKey());
                    b.append(": [");
                    String inner = "";
                    for (FeatureValues f : e.getValue()) {
                        b.append(inner);
                        feature(b, f);
                        inner = ", ";
                    }
                    b.append(']');
                    sep = ", ";
                }
                b.append('}');
            }
            default -> {
                b.append(", \"features\": ");
                features(b, record.features());
            }
        }
        return b.append('}').toString();
    }

    private static void features(StringBuilder b, Map<String, FeatureValues> features) {
        b.append('{');
        String sep = "";
        for (Map.Entry<String, FeatureValues> e : features.entrySet()) {
            b.append(sep);
            string(b, e.getKey());
            b.append(": ");
            feature(b, e.getValue());
            sep = ", ";
        }
        b.append('}');
    }

    private static void feature(StringBuilder b, FeatureValues f) {
        b.append("{\"type\": \"").append(f.type().label()).append("\", \"values\": [");
        String sep = "";
        for (Object v : f.values()) {
            b.append(sep);
            switch (v) {
                case ByteString bytes -> b.append('"').append(Base64.getEncoder().encodeToString(bytes.toByteArray())).append('"');
                case Float x -> number(b, x.doubleValue());
                case Double x -> number(b, x);
                default -> b.append(v);
            }
            sep = ", ";
        }
        b.append("]}");
    }

    private static void number(StringBuilder b, double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            b.append('"').append(x).append('"');
        } else {
            b.append(x);
        }
    }

    /** Appends {@code s} as a JSON string. */
    public static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
