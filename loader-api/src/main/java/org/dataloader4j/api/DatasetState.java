package org.dataloader4j.api;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where a {@link Dataset} stands: a small immutable value that {@link Dataset#restore} turns back
 * into the same stream. A decorator's state holds the state of the dataset it wraps as
 * {@link #upstream()}.
 *
 * <p>A state has named integer fields and, for a decorator that buffers samples, named lists of
 * integers (the {@link SampleLocator locations} of the buffered samples, for instance).
 * {@link #encode()} writes it as one line of text ({@link #toBytes()} and {@link #toJson()}
 * as bytes and as JSON), e.g.
 * {@code batch{ended=0}/shuffle{seed=7,filled=1,epochs=[0 0 1]}/mini{epoch=1,file=0,offset=120,record=12}},
 * and {@link #decode} reads it back, so a training checkpoint can store it beside the weights.
 *
 * <p>Immutable: lists are copied in and out, never shared.
 */
public final class DatasetState {
    /** What names look like, as a regular expression: {@link #isName} checks it. */
    private static final String NAME = "[A-Za-z][A-Za-z0-9_.-]*";

    private final String kind;
    private final Map<String, Long> fields;
    private final Map<String, long[]> lists;
    private final DatasetState upstream;

    /**
     * A state of {@code kind} with {@code fields} (copied) and no lists, wrapping {@code upstream}
     * (may be {@code null}).
     *
     * @throws IllegalArgumentException if a name is not a letter followed by letters, digits,
     *                                  {@code _ . -}
     */
    public DatasetState(String kind, Map<String, Long> fields, DatasetState upstream) {
        this(kind, checkedFields(fields), new LinkedHashMap<>(), upstream);
    }

    /** Takes the maps as they are: every caller hands over maps and arrays nobody else holds. */
    private DatasetState(String kind, Map<String, Long> fields, Map<String, long[]> lists, DatasetState upstream) {
        checkName("kind", kind);
        this.kind = kind;
        this.fields = Collections.unmodifiableMap(fields);
        this.lists = Collections.unmodifiableMap(lists);
        this.upstream = upstream;
    }

    private static Map<String, Long> checkedFields(Map<String, Long> fields) {
        Map<String, Long> copy = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : fields.entrySet()) {
            checkName("field", e.getKey());
            copy.put(e.getKey(), Objects.requireNonNull(e.getValue(), e.getKey()));
        }
        return copy;
    }

    /** Which dataset the state belongs to, e.g. {@code "shuffle"}. */
    public String kind() {
        return kind;
    }

    /** The named integer fields, in insertion order. */
    public Map<String, Long> fields() {
        return fields;
    }

    /** The wrapped dataset's state, or {@code null} for a dataset that wraps none. */
    public DatasetState upstream() {
        return upstream;
    }

    /** A state of {@code kind} with no fields, wrapping {@code upstream} (may be {@code null}). */
    public static DatasetState of(String kind, DatasetState upstream) {
        return new DatasetState(kind, new LinkedHashMap<>(), new LinkedHashMap<>(), upstream);
    }

    /** This state plus field {@code name = value}. */
    public DatasetState with(String name, long value) {
        checkName("field", name);
        checkFree(name, lists);
        Map<String, Long> copy = new LinkedHashMap<>(fields);
        copy.put(name, value);
        return new DatasetState(kind, copy, new LinkedHashMap<>(lists), upstream);
    }

    /** This state plus list {@code name} holding {@code values[from .. to-1]} (copied). */
    public DatasetState withList(String name, long[] values, int from, int to) {
        checkName("list", name);
        checkFree(name, fields);
        Map<String, long[]> copy = new LinkedHashMap<>(lists);
        copy.put(name, Arrays.copyOfRange(values, from, to));
        return new DatasetState(kind, new LinkedHashMap<>(fields), copy, upstream);
    }

    /**
     * Field {@code name}.
     *
     * @throws IllegalArgumentException if the state has no such field
     */
    public long field(String name) {
        Long v = fields.get(name);
        if (v == null) {
            throw new IllegalArgumentException("state " + kind + " has no field " + name + ": " + encode());
        }
        return v;
    }

    /** Whether the state has list {@code name}. */
    public boolean hasList(String name) {
        return lists.containsKey(name);
    }

    /**
     * A copy of list {@code name}.
     *
     * @throws IllegalArgumentException if the state has no such list
     */
    public long[] list(String name) {
        long[] v = lists.get(name);
        if (v == null) {
            throw new IllegalArgumentException("state " + kind + " has no list " + name + ": " + encode());
        }
        return v.clone();
    }

    /**
     * Checks that this state belongs to a dataset of {@code expectedKind} and returns it.
     *
     * @throws IllegalArgumentException naming both kinds otherwise
     */
    public DatasetState expect(String expectedKind) {
        if (!kind.equals(expectedKind)) {
            throw new IllegalArgumentException("state of a " + kind + " dataset cannot restore a "
                    + expectedKind + " dataset: " + encode());
        }
        return this;
    }

    /**
     * The upstream state, which a decorator needs.
     *
     * @throws IllegalArgumentException if there is none
     */
    public DatasetState requireUpstream() {
        if (upstream == null) {
            throw new IllegalArgumentException("state " + kind + " has no upstream state: " + encode());
        }
        return upstream;
    }

    /** Equal kinds, fields, list contents and upstream states. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DatasetState other) || !kind.equals(other.kind) || !fields.equals(other.fields)
                || !lists.keySet().equals(other.lists.keySet()) || !Objects.equals(upstream, other.upstream)) {
            return false;
        }
        for (Map.Entry<String, long[]> e : lists.entrySet()) {
            if (!Arrays.equals(e.getValue(), other.lists.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = Objects.hash(kind, fields, upstream);
        for (Map.Entry<String, long[]> e : lists.entrySet()) {
            h = 31 * h + e.getKey().hashCode() * 17 + Arrays.hashCode(e.getValue());
        }
        return h;
    }

    /** The named lists of integers, in insertion order, each a copy. */
    public Map<String, long[]> lists() {
        Map<String, long[]> copy = new LinkedHashMap<>();
        lists.forEach((name, values) -> copy.put(name, values.clone()));
        return copy;
    }

    /** One line of text that {@link #decode} reads back; a list is written {@code name=[1 2 3]}. */
    public String encode() {
        StringBuilder sb = new StringBuilder();
        for (DatasetState s = this; s != null; s = s.upstream) {
            if (s != this) {
                sb.append('/');
            }
            sb.append(s.kind).append('{');
            String sep = "";
            for (Map.Entry<String, Long> e : s.fields.entrySet()) {
                sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
                sep = ",";
            }
            for (Map.Entry<String, long[]> e : s.lists.entrySet()) {
                sb.append(sep).append(e.getKey()).append("=[");
                long[] values = e.getValue();
                for (int i = 0; i < values.length; i++) {
                    sb.append(i == 0 ? "" : " ").append(values[i]);
                }
                sb.append(']');
                sep = ",";
            }
            sb.append('}');
        }
        return sb.toString();
    }

    /**
     * Reads a state written by {@link #encode()}.
     *
     * @throws IllegalArgumentException if {@code text} is not such a state
     */
    public static DatasetState decode(String text) {
        String[] parts = text.strip().split("/", -1);
        DatasetState state = null;
        for (int i = parts.length - 1; i >= 0; i--) {
            String part = parts[i];
            int open = part.indexOf('{');
            if (open < 0 || !part.endsWith("}")) {
                throw new IllegalArgumentException("not a dataset state: " + text);
            }
            Map<String, Long> fields = new LinkedHashMap<>();
            Map<String, long[]> lists = new LinkedHashMap<>();
            String body = part.substring(open + 1, part.length() - 1);
            if (!body.isEmpty()) {
                for (String field : body.split(",", -1)) {
                    int eq = field.indexOf('=');
                    String name = field.substring(0, Math.max(eq, 0));
                    String value = field.substring(eq + 1);
                    try {
                        if (value.startsWith("[") && value.endsWith("]")) {
                            String inner = value.substring(1, value.length() - 1);
                            lists.put(name, inner.isEmpty() ? new long[0]
                                    : Arrays.stream(inner.split(" ", -1)).mapToLong(Long::parseLong).toArray());
                        } else {
                            fields.put(name, Long.parseLong(value));
                        }
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("not a dataset state: " + text, e);
                    }
                }
            }
            state = read(part.substring(0, open), fields, lists, state);
        }
        return state;
    }

    private static final int MAGIC = 0x44535354; // "DSST"
    private static final int VERSION = 2;

    /**
     * The state as bytes: the magic {@code DSST}, a version, then each state from the outermost
     * in: its kind, its fields (name, value), its lists (name, length, values) and whether an
     * upstream follows. For checkpoints stored next to model weights; {@link #fromBytes} reads
     * it back (version 1, written before states had lists, too).
     */
    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            for (DatasetState st = this; st != null; st = st.upstream) {
                out.writeUTF(st.kind);
                out.writeInt(st.fields.size());
                for (Map.Entry<String, Long> e : st.fields.entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeLong(e.getValue());
                }
                out.writeInt(st.lists.size());
                for (Map.Entry<String, long[]> e : st.lists.entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeInt(e.getValue().length);
                    for (long v : e.getValue()) {
                        out.writeLong(v);
                    }
                }
                out.writeBoolean(st.upstream != null);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    /**
     * Reads a state written by {@link #toBytes()}.
     *
     * @throws IllegalArgumentException if {@code bytes} is not such a state
     */
    public static DatasetState fromBytes(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version;
            if (in.readInt() != MAGIC || (version = in.readInt()) < 1 || version > VERSION) {
                throw new IllegalArgumentException("not a dataset state (magic or version): " + bytes.length + " bytes");
            }
            List<DatasetState> chain = new ArrayList<>();
            boolean more = true;
            while (more) {
                String kind = in.readUTF();
                int n = count(in.readInt(), 1024, "fields");
                Map<String, Long> fields = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    fields.put(in.readUTF(), in.readLong());
                }
                Map<String, long[]> lists = new LinkedHashMap<>();
                int m = version == 1 ? 0 : count(in.readInt(), 1024, "lists");
                for (int i = 0; i < m; i++) {
                    String name = in.readUTF();
                    long[] values = new long[count(in.readInt(), in.available() / Long.BYTES, "values in a list")];
                    for (int j = 0; j < values.length; j++) {
                        values[j] = in.readLong();
                    }
                    lists.put(name, values);
                }
                chain.add(read(kind, fields, lists, null));
                more = in.readBoolean();
            }
            if (in.available() > 0) {
                throw new IllegalArgumentException("not a dataset state: " + in.available() + " bytes after its end");
            }
            DatasetState state = null;
            for (int i = chain.size() - 1; i >= 0; i--) {
                DatasetState s = chain.get(i);
                state = new DatasetState(s.kind, new LinkedHashMap<>(s.fields), new LinkedHashMap<>(s.lists), state);
            }
            return state;
        } catch (IOException e) {
            throw new IllegalArgumentException("not a dataset state: it ends early", e);
        }
    }

    private static int count(int n, int max, String what) {
        if (n < 0 || n > max) {
            throw new IllegalArgumentException("not a dataset state: " + n + " " + what);
        }
        return n;
    }

    /**
     * The state as JSON: {@code {"kind":"batch","fields":{"ended":0},"upstream":{...}}}, the
     * innermost state with {@code "upstream":null}; a state with lists has
     * {@code "lists":{"epochs":[0,0,1]}} before {@code "upstream"}. Values are JSON integers (64-bit).
     */
    public String toJson() {
        StringBuilder sb = new StringBuilder();
        sb.append("{\"kind\":\"").append(kind).append("\",\"fields\":{");
        String sep = "";
        for (Map.Entry<String, Long> e : fields.entrySet()) {
            sb.append(sep).append('"').append(e.getKey()).append("\":").append(e.getValue());
            sep = ",";
        }
        sb.append('}');
        if (!lists.isEmpty()) {
            sb.append(",\"lists\":{");
            sep = "";
            for (Map.Entry<String, long[]> e : lists.entrySet()) {
                sb.append(sep).append('"').append(e.getKey()).append("\":[");
                long[] values = e.getValue();
                for (int i = 0; i < values.length; i++) {
                    sb.append(i == 0 ? "" : ",").append(values[i]);
                }
                sb.append(']');
                sep = ",";
            }
            sb.append('}');
        }
        sb.append(",\"upstream\":").append(upstream == null ? "null" : upstream.toJson()).append('}');
        return sb.toString();
    }

    /**
     * Reads a state written by {@link #toJson()} (white space between tokens is allowed).
     *
     * @throws IllegalArgumentException if {@code json} is not such a state
     */
    public static DatasetState fromJson(String json) {
        StateJson parser = new StateJson(json);
        DatasetState state = parser.state();
        parser.end();
        return state;
    }

    private static void checkFree(String name, Map<String, ?> others) {
        if (others.containsKey(name)) {
            throw new IllegalArgumentException("a field and a list cannot share the name " + name);
        }
    }

    /** A state read back from text, bytes or JSON: names checked, maps and arrays handed over. */
    static DatasetState read(String kind, Map<String, Long> fields, Map<String, long[]> lists, DatasetState upstream) {
        for (String name : fields.keySet()) {
            checkName("field", name);
        }
        for (String name : lists.keySet()) {
            checkName("list", name);
            checkFree(name, fields);
        }
        return new DatasetState(kind, fields, lists, upstream);
    }

    private static void checkName(String what, String name) {
        if (!isName(name)) {
            throw new IllegalArgumentException(what + " name must match " + NAME + ": " + what + "=" + name);
        }
    }

    /**
     * Whether {@code name} matches {@link #NAME}, checked without a matcher: a reader takes a
     * state after every batch, and a {@code Matcher} per name was most of what that allocated.
     */
    private static boolean isName(String name) {
        if (name == null || name.isEmpty() || !isLetter(name.charAt(0))) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!isLetter(c) && !(c >= '0' && c <= '9') && c != '_' && c != '.' && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean isLetter(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }

    /** The same text as {@link #encode()}. */
    @Override
    public String toString() {
        return encode();
    }
}
