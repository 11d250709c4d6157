package org.dataloader4j.cli.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.core.util.Separators.Spacing;
import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * One record as one line of JSON, as {@code loader inspect --json} prints it, written with
 * Jackson's generator:
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
 *
 * <p>With an {@link ImageProbe}, a bytes value that is a JPEG or PNG is an object in place of its
 * base64: {@code {"type": "image", "format": "jpeg", "width": 500, "height": 375, "channels": 3,
 * "rgb_sha256": "…"}}, or {@code {"type": "image", "error": "…"}} if it cannot be decoded.
 */
public final class RecordJson {
    private static final JsonFactory FACTORY = new JsonFactory();
    /** One line, with a space after each {@code :} and {@code ,}: easy to read, and to grep. */
    private static final DefaultPrettyPrinter ONE_LINE = new DefaultPrettyPrinter(new Separators()
            .withObjectFieldValueSpacing(Spacing.AFTER)
            .withObjectEntrySpacing(Spacing.AFTER)
            .withArrayValueSpacing(Spacing.AFTER)
            .withObjectEmptySeparator("")
            .withArrayEmptySeparator(""))
            .withObjectIndenter(DefaultPrettyPrinter.NopIndenter.instance)
            .withArrayIndenter(DefaultPrettyPrinter.NopIndenter.instance);

    private RecordJson() {
    }

    /** {@code record}, read from {@code file} (as the user named it), as one line. */
    public static String line(String file, DecodedRecord record) {
        return line(file, record, null);
    }

    /**
     * {@code record}, read from {@code file} (as the user named it), as one line, with its images
     * decoded by {@code images} (null: bytes are all base64).
     */
    public static String line(String file, DecodedRecord record, ImageProbe images) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.setPrettyPrinter(ONE_LINE.createInstance()); // it counts nesting: one per generator
            g.writeStartObject();
            g.writeStringField("file", file);
            g.writeNumberField("index", record.raw().index());
            g.writeNumberField("offset", record.raw().offset());
            switch (record.kind()) {
                case INVALID -> {
                    g.writeNumberField("length", record.raw().payload().length);
                    g.writeStringField("error", record.problem());
                }
                case SEQUENCE_EXAMPLE -> {
                    g.writeFieldName("context");
                    features(g, record.features(), images);
                    g.writeObjectFieldStart("feature_lists");
                    for (Map.Entry<String, List<FeatureValues>> e : record.featureLists().entrySet()) {
                        g.writeArrayFieldStart(e.getKey());
                        for (FeatureValues f : e.getValue()) {
                            feature(g, e.getKey(), f, images);
                        }
                        g.writeEndArray();
                    }
                    g.writeEndObject();
                }
                default -> {
                    g.writeFieldName("features");
                    features(g, record.features(), images);
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void features(JsonGenerator g, Map<String, FeatureValues> features, ImageProbe images) throws IOException {
        g.writeStartObject();
        for (Map.Entry<String, FeatureValues> e : features.entrySet()) {
            g.writeFieldName(e.getKey());
            feature(g, e.getKey(), e.getValue(), images);
        }
        g.writeEndObject();
    }

    private static void feature(JsonGenerator g, String name, FeatureValues f, ImageProbe images) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", f.type().label());
        g.writeArrayFieldStart("values");
        for (Object v : f.values()) {
            switch (v) {
                case ByteString bytes -> bytes(g, name, bytes, images);
                case Float x -> number(g, x.doubleValue());
                case Double x -> number(g, x);
                case Integer x -> g.writeNumber(x);
                case Long x -> g.writeNumber(x);
                default -> throw new IllegalArgumentException("not a feature value: " + v.getClass().getName());
            }
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** A bytes value as base64, or as the image it is. */
    private static void bytes(JsonGenerator g, String name, ByteString bytes, ImageProbe images) throws IOException {
        ImageProbe.Image image = images == null ? null : images.describe(name, bytes);
        if (image == null) {
            g.writeString(Base64.getEncoder().encodeToString(bytes.toByteArray()));
            return;
        }
        g.writeStartObject();
        g.writeStringField("type", "image");
        if (image.decoded()) {
            g.writeStringField("format", image.format().id());
            g.writeNumberField("width", image.width());
            g.writeNumberField("height", image.height());
            g.writeNumberField("channels", image.channels());
            g.writeStringField("rgb_sha256", image.rgbSha256());
        } else {
            g.writeStringField("error", image.error());
        }
        g.writeEndObject();
    }

    /** A float or double as the decimal of its exact value, which JSON numbers cannot hold for NaN and the infinities. */
    private static void number(JsonGenerator g, double x) throws IOException {
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            g.writeString(Double.toString(x));
        } else {
            g.writeNumber(x);
        }
    }
}
