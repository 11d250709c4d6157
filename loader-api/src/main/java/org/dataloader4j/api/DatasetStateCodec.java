package org.dataloader4j.api;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The two stored forms of a {@link DatasetState}, so that a training checkpoint can keep the
 * state beside the weights and a restart can read it back:
 *
 * <ul>
 *   <li><b>text</b>, one line ({@link #toText}, {@link #fromText}): each state from the
 *       outermost in, {@code kind{field=value,list=[v v v]}}, joined by {@code /}, e.g.
 *       {@code batch{ended=0}/shuffle{seed=7,filled=1,epochs=[0 0 1]}/mini{epoch=1,file=0,offset=120,record=12}};</li>
 *   <li><b>bytes</b> ({@link #toBytes}, {@link #fromBytes}): the magic {@code DSST}, a version,
 *       then each state from the outermost in: its kind, its fields (name, value), its lists
 *       (name, length, values) and whether an upstream follows, in {@link DataOutputStream}'s
 *       encodings. Version 2 is written; version 1, written before states had lists, still
 *       reads.</li>
 * </ul>
 *
 * A state read back equals the state written. Both readers throw
 * {@link IllegalArgumentException}, starting {@code "not a dataset state"}, for input that is
 * not a state.
 */
public final class DatasetStateCodec {
    private static final int MAGIC = 0x44535354; // "DSST"
    private static final int VERSION = 2;
    /** More fields or lists than this in one state is damage, not a state. */
    private static final int MAX_NAMES = 1024;

    private DatasetStateCodec() {
    }

    /** {@code state} as one line of text, which {@link #fromText} reads back. */
    public static String toText(DatasetState state) {
        Objects.requireNonNull(state, "state");
        StringBuilder sb = new StringBuilder();
        for (DatasetState s = state; s != null; s = s.upstream()) {
            if (s != state) {
                sb.append('/');
            }
            sb.append(s.kind()).append('{');
            String sep = "";
            for (Map.Entry<String, Long> e : s.fields().entrySet()) {
                sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
                sep = ",";
            }
            for (Map.Entry<String, long[]> e : s.lists().entrySet()) {
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
     * Reads a state written by {@link #toText}; white space around it is ignored.
     *
     * @throws IllegalArgumentException if {@code text} is not such a state
     */
    public static DatasetState fromText(String text) {
        String line = text.strip();
        String[] parts = line.split("/", -1);
        DatasetState state = null;
        for (int i = parts.length - 1; i >= 0; i--) {
            String part = parts[i];
            int open = part.indexOf('{');
            if (open < 0 || !part.endsWith("}")) {
                throw new IllegalArgumentException("not a dataset state: " + line);
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
                        throw new IllegalArgumentException("not a dataset state: " + line, e);
                    }
                }
            }
            state = state(part.substring(0, open), fields, lists, state);
        }
        return state;
    }

    /** {@code state} as bytes (version {@value #VERSION}), which {@link #fromBytes} reads back. */
    public static byte[] toBytes(DatasetState state) {
        Objects.requireNonNull(state, "state");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            for (DatasetState s = state; s != null; s = s.upstream()) {
                out.writeUTF(s.kind());
                out.writeInt(s.fields().size());
                for (Map.Entry<String, Long> e : s.fields().entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeLong(e.getValue());
                }
                Map<String, long[]> lists = s.lists();
                out.writeInt(lists.size());
                for (Map.Entry<String, long[]> e : lists.entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeInt(e.getValue().length);
                    for (long v : e.getValue()) {
                        out.writeLong(v);
                    }
                }
                out.writeBoolean(s.upstream() != null);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    /** Whether {@code bytes} start as {@link #toBytes} output does: the magic and a zero byte. */
    public static boolean looksLikeBytes(byte[] bytes) {
        return bytes.length > 4 && bytes[0] == 'D' && bytes[1] == 'S' && bytes[2] == 'S' && bytes[3] == 'T' && bytes[4] == 0;
    }

    /**
     * Reads a state written by {@link #toBytes} (version 1 or 2).
     *
     * @throws IllegalArgumentException if {@code bytes} is not such a state
     */
    public static DatasetState fromBytes(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version;
            if (in.readInt() != MAGIC || (version = in.readInt()) < 1 || version > VERSION) {
                throw new IllegalArgumentException("not a dataset state (magic or version): " + bytes.length + " bytes");
            }
            List<Part> chain = new ArrayList<>();
            boolean more = true;
            while (more) {
                String kind = in.readUTF();
                int n = count(in.readInt(), MAX_NAMES, "fields");
                Map<String, Long> fields = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    fields.put(in.readUTF(), in.readLong());
                }
                Map<String, long[]> lists = new LinkedHashMap<>();
                int m = version == 1 ? 0 : count(in.readInt(), MAX_NAMES, "lists");
                for (int i = 0; i < m; i++) {
                    String name = in.readUTF();
                    long[] values = new long[count(in.readInt(), in.available() / Long.BYTES, "values in a list")];
                    for (int j = 0; j < values.length; j++) {
                        values[j] = in.readLong();
                    }
                    lists.put(name, values);
                }
                chain.add(new Part(kind, fields, lists));
                more = in.readBoolean();
            }
            if (in.available() > 0) {
                throw new IllegalArgumentException("not a dataset state: " + in.available() + " bytes after its end");
            }
            DatasetState state = null;
            for (int i = chain.size() - 1; i >= 0; i--) {
                Part p = chain.get(i);
                state = state(p.kind, p.fields, p.lists, state);
            }
            return state;
        } catch (IOException e) {
            throw new IllegalArgumentException("not a dataset state: it ends early", e);
        }
    }

    /** One state of a chain read from bytes, before its upstream is known. */
    private record Part(String kind, Map<String, Long> fields, Map<String, long[]> lists) {
    }

    private static int count(int n, int max, String what) {
        if (n < 0 || n > max) {
            throw new IllegalArgumentException("not a dataset state: " + n + " " + what);
        }
        return n;
    }

    /** The state the parts describe, built through the value's own checks of names. */
    private static DatasetState state(String kind, Map<String, Long> fields, Map<String, long[]> lists, DatasetState upstream) {
        try {
            DatasetState state = new DatasetState(kind, fields, upstream);
            for (Map.Entry<String, long[]> e : lists.entrySet()) {
                state = state.withList(e.getKey(), e.getValue(), 0, e.getValue().length);
            }
            return state;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a dataset state: " + e.getMessage(), e);
        }
    }
}
