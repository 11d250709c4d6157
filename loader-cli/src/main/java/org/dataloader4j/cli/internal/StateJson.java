package org.dataloader4j.cli.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.dataloader4j.api.DatasetState;

/**
 * A {@link DatasetState} as JSON, written and read with Jackson: one object per state, from the
 * outermost in, each holding the state it wraps,
 *
 * <pre>
 * {"kind":"batch","fields":{"ended":0},"upstream":{"kind":"shuffle","fields":{"seed":7},"lists":{"epochs":[0,0,1]},"upstream":null}}
 * </pre>
 *
 * {@code "lists"} only where the state has lists; the innermost state has
 * {@code "upstream":null}. Values are JSON integers, 64-bit: read them as such. It is the form
 * {@code DatasetState.toJson()} wrote before the JSON moved here, and reads what it wrote.
 */
public final class StateJson {
    private static final Set<String> MEMBERS = Set.of("kind", "fields", "lists", "upstream");
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private StateJson() {
    }

    /** {@code state} as one line of JSON, which {@link #read} reads back. */
    public static String write(DatasetState state) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = MAPPER.createGenerator(out)) {
            write(g, state);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void write(JsonGenerator g, DatasetState state) throws IOException {
        g.writeStartObject();
        g.writeStringField("kind", state.kind());
        g.writeObjectFieldStart("fields");
        for (Map.Entry<String, Long> e : state.fields().entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        Map<String, long[]> lists = state.lists();
        if (!lists.isEmpty()) {
            g.writeObjectFieldStart("lists");
            for (Map.Entry<String, long[]> e : lists.entrySet()) {
                g.writeFieldName(e.getKey());
                g.writeArray(e.getValue(), 0, e.getValue().length);
            }
            g.writeEndObject();
        }
        g.writeFieldName("upstream");
        if (state.upstream() == null) {
            g.writeNull();
        } else {
            write(g, state.upstream());
        }
        g.writeEndObject();
    }

    /**
     * Reads a state written by {@link #write}; members may come in any order, with any white
     * space between tokens.
     *
     * @throws IllegalArgumentException starting {@code "not a dataset state"} and naming the
     *                                  place (a line and column, or a member's path) if
     *                                  {@code json} is not such a state
     */
    public static DatasetState read(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new IllegalArgumentException("not a dataset state: " + e.getOriginalMessage()
                    + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr()), e);
        }
        return state(root, "the JSON");
    }

    private static DatasetState state(JsonNode node, String path) {
        require(node.isObject(), path, "an object");
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            require(MEMBERS.contains(e.getKey()), path, "only the members " + MEMBERS + ", not \"" + e.getKey() + "\"");
        }
        JsonNode kind = member(node, "kind", path);
        require(kind.isTextual(), path + ".kind", "a string");
        JsonNode fields = member(node, "fields", path);
        require(fields.isObject(), path + ".fields", "an object");
        Map<String, Long> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : fields.properties()) {
            values.put(e.getKey(), integer(e.getValue(), path + ".fields." + e.getKey()));
        }
        JsonNode upstream = member(node, "upstream", path);
        DatasetState state;
        try {
            state = new DatasetState(kind.textValue(), values, upstream.isNull() ? null : state(upstream, path + ".upstream"));
            JsonNode lists = node.get("lists");
            if (lists != null) {
                require(lists.isObject(), path + ".lists", "an object");
                for (Map.Entry<String, JsonNode> e : lists.properties()) {
                    String where = path + ".lists." + e.getKey();
                    require(e.getValue().isArray(), where, "an array");
                    long[] list = new long[e.getValue().size()];
                    for (int i = 0; i < list.length; i++) {
                        list[i] = integer(e.getValue().get(i), where + "[" + i + "]");
                    }
                    state = state.withList(e.getKey(), list, 0, list.length);
                }
            }
        } catch (IllegalArgumentException e) {
            if (e.getMessage().startsWith("not a dataset state")) {
                throw e;
            }
            throw new IllegalArgumentException("not a dataset state: " + path + ": " + e.getMessage(), e);
        }
        return state;
    }

    private static JsonNode member(JsonNode object, String name, String path) {
        JsonNode value = object.get(name);
        require(value != null, path, "a member \"" + name + "\"");
        return value;
    }

    private static long integer(JsonNode node, String path) {
        require(node.isIntegralNumber() && node.canConvertToLong(), path, "an integer in the range of a long, found " + node);
        return node.longValue();
    }

    private static void require(boolean ok, String path, String expected) {
        if (!ok) {
            throw new IllegalArgumentException("not a dataset state: " + path + ": expected " + expected);
        }
    }
}
