package org.dataloader4j.api;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where a {@link Dataset} stands: a small immutable value that {@link Dataset#restore} turns back
 * into the same stream. A decorator's state holds the state of the dataset it wraps as
 * {@link #upstream()}.
 *
 * <p>A state has named integer fields and, for a decorator that buffers samples, named lists of
 * integers (the {@link SampleLocator locations} of the buffered samples, for instance).
 * {@link DatasetStateCodec} writes it as one line of text, e.g.
 * {@code batch{ended=0}/shuffle{seed=7,filled=1,epochs=[0 0 1]}/mini{epoch=1,file=0,offset=120,record=12}}
 * (which is also what {@link #toString()} shows), or as bytes, and reads both back, so a
 * training checkpoint can store a state beside the weights:
 *
 * <pre>{@code
 * byte[] saved = DatasetStateCodec.toBytes(reader.state());
 * ...
 * builder.restore(DatasetStateCodec.fromBytes(saved));
 * }</pre>
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

    /** The named lists of integers, in insertion order, each a copy. */
    public Map<String, long[]> lists() {
        Map<String, long[]> copy = new LinkedHashMap<>();
        lists.forEach((name, values) -> copy.put(name, values.clone()));
        return copy;
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
            throw new IllegalArgumentException("state " + kind + " has no field " + name + ": " + this);
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
            throw new IllegalArgumentException("state " + kind + " has no list " + name + ": " + this);
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
                    + expectedKind + " dataset: " + this);
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
            throw new IllegalArgumentException("state " + kind + " has no upstream state: " + this);
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

    private static void checkFree(String name, Map<String, ?> others) {
        if (others.containsKey(name)) {
            throw new IllegalArgumentException("a field and a list cannot share the name " + name);
        }
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
        boolean ok = name != null && !name.isEmpty();
        for (int i = 0; ok && i < name.length(); i++) {
            char c = name.charAt(i);
            ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
                    || (i > 0 && ((c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'));
        }
        return ok;
    }

    /** The state as one line of text, as {@link DatasetStateCodec#toText} writes it. */
    @Override
    public String toString() {
        return DatasetStateCodec.toText(this);
    }
}
