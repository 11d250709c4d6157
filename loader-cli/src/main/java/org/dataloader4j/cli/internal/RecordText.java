package org.dataloader4j.cli.internal;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.google.protobuf.ByteString;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * One record for people, as {@code loader inspect} prints it: a heading, then a feature a line
 * with its type, its value count and its first values. Bytes print as text where they are
 * printable UTF-8, otherwise as a hex prefix and their length; with an {@link ImageProbe}, a JPEG
 * or PNG prints as its format and size ({@code encoded  jpeg 500×375×3} for a feature of one
 * image).
 */
public final class RecordText {
    /** How many values of one feature are shown. */
    static final int VALUES = 8;
    /** How many characters of one bytes value are shown. */
    static final int CHARS = 60;

    private RecordText() {
    }

    /** {@code record} in lines, each ending with a line break. */
    public static String of(DecodedRecord record) {
        return of(record, null);
    }

    /** {@code record} in lines, each ending with a line break, with its images decoded by {@code images} (or null). */
    public static String of(DecodedRecord record, ImageProbe images) {
        StringBuilder b = new StringBuilder();
        b.append("record ").append(record.raw().index()).append(" (offset ").append(record.raw().offset())
                .append(", ").append(record.raw().payload().length).append(" bytes")
                .append(record.kind() == DecodedRecord.Kind.SEQUENCE_EXAMPLE ? ", SequenceExample" : "").append(")\n");
        if (!record.valid()) {
            b.append("  ").append(record.problem()).append('\n');
            return b.toString();
        }
        String indent = record.featureLists().isEmpty() ? "  " : "    ";
        if (!record.featureLists().isEmpty()) {
            b.append("  context:\n");
        }
        record.features().forEach((name, f) -> line(b, indent, name, f, images));
        if (!record.featureLists().isEmpty()) {
            b.append("  feature lists:\n");
            for (Map.Entry<String, List<FeatureValues>> e : record.featureLists().entrySet()) {
                List<FeatureValues> steps = e.getValue();
                for (int i = 0; i < steps.size(); i++) {
                    line(b, indent, e.getKey() + "[" + i + "]", steps.get(i), images);
                }
                if (steps.isEmpty()) {
                    b.append(indent).append(e.getKey()).append("  (no steps)\n");
                }
            }
        }
        return b.toString();
    }

    private static void line(StringBuilder b, String indent, String name, FeatureValues f, ImageProbe images) {
        if (images != null && f.type() == FeatureValues.Type.BYTES && f.values().size() == 1) {
            ImageProbe.Image image = images.describe(name, (ByteString) f.values().get(0));
            if (image != null) {
                b.append(indent).append(name).append("  ").append(image.text()).append('\n');
                return;
            }
        }
        b.append(indent).append(name).append("  ").append(f.type().label());
        if (f.type() != FeatureValues.Type.NONE) {
            b.append('[').append(f.values().size()).append(']');
        }
        List<?> values = f.values();
        String sep = "  ";
        for (int i = 0; i < Math.min(VALUES, values.size()); i++) {
            ImageProbe.Image image = images != null && values.get(i) instanceof ByteString bytes ? images.describe(name, bytes) : null;
            b.append(sep).append(image != null ? image.text() : value(values.get(i)));
            sep = ", ";
        }
        if (values.size() > VALUES) {
            b.append(", …");
        }
        b.append('\n');
    }

    /** One value: a number as Java prints it, bytes as quoted text or a hex prefix. */
    static String value(Object v) {
        if (!(v instanceof ByteString bytes)) {
            return String.valueOf(v);
        }
        String text = printable(bytes);
        if (text != null) {
            StringBuilder quoted = new StringBuilder().append('"')
                    .append(JsonStringEncoder.getInstance().quoteAsString(text.length() > CHARS ? text.substring(0, CHARS) : text))
                    .append('"');
            return text.length() > CHARS ? quoted.insert(quoted.length() - 1, "…") + " (" + bytes.size() + " bytes)" : quoted.toString();
        }
        int head = Math.min(bytes.size(), 16);
        return "0x" + HexFormat.of().formatHex(bytes.substring(0, head).toByteArray()) + (head < bytes.size() ? "…" : "")
                + " (" + bytes.size() + " bytes)";
    }

    /** The bytes as text if they are UTF-8 with no control characters but tab and line breaks, else null. */
    private static String printable(ByteString bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes.asReadOnlyByteBuffer()).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r') {
                return null;
            }
        }
        return text;
    }
}
