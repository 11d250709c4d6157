package org.dataloader4j.testkit;

import static org.dataloader4j.testkit.JsonFields.list;
import static org.dataloader4j.testkit.JsonFields.longValue;
import static org.dataloader4j.testkit.JsonFields.member;
import static org.dataloader4j.testkit.JsonFields.object;
import static org.dataloader4j.testkit.JsonFields.string;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The expected values of one real test file ({@code expected/<file>.json}, described in
 * {@code shared/testdata/real/SOURCES.md}), read into typed form: the {@link Summary}, the
 * {@link Frame}s when the file lists them, and the decoded {@link ExpectedRecord}s, all of them
 * or a sample, by record index.
 *
 * <pre>{@code
 * ExpectedRecords expected = ExpectedRecords.load("oneflow-documentation/dataset/part-0");
 * for (ExpectedRecord r : expected.records().values()) {
 *     ExpectedFeature labels = r.features().get("labels");
 * }
 * }</pre>
 *
 * The whole file is checked as it is read (counts against list sizes, bit patterns, integer
 * ranges), so a test never compares against a half-read expectation.
 */
public final class ExpectedRecords {
    private final String name;
    private final Summary summary;
    private final List<Frame> frames;
    private final SortedMap<Long, ExpectedRecord> records;
    private final boolean complete;

    private ExpectedRecords(String name, Summary summary, List<Frame> frames,
            SortedMap<Long, ExpectedRecord> records, boolean complete) {
        this.name = name;
        this.summary = summary;
        this.frames = frames;
        this.records = records;
        this.complete = complete;
    }

    /**
     * The expected values of the real test file {@code relative} (for example
     * {@code "oneflow-documentation/dataset/part-0"}); skips the calling test where the shared
     * test data is absent.
     */
    public static ExpectedRecords load(String relative) throws IOException {
        Path json = SharedTestData.expected(relative);
        return of(StrictJson.parse(json), relative);
    }

    /** Reads an expected file already parsed by {@link StrictJson}; {@code name} is used in messages. */
    public static ExpectedRecords of(Object json, String name) {
        Map<String, Object> root = object(json, name);
        Summary summary = Summary.parse(member(root, "summary", name), name + ": summary");
        List<Frame> frames = null;
        if (root.containsKey("frames")) {
            List<Object> list = list(root.get("frames"), name + ": frames");
            List<Frame> out = new ArrayList<>(list.size());
            for (Object f : list) {
                out.add(Frame.parse(f, out.size(), name + ": frames[" + out.size() + "]"));
            }
            frames = Collections.unmodifiableList(out);
        }
        SortedMap<Long, ExpectedRecord> records = new TreeMap<>();
        boolean complete = root.containsKey("records");
        if (complete) {
            List<Object> list = list(root.get("records"), name + ": records");
            for (int i = 0; i < list.size(); i++) {
                records.put((long) i, ExpectedRecord.parse(list.get(i), i, name + ": records[" + i + "]"));
            }
        } else if (root.containsKey("sample_records")) {
            for (Map.Entry<String, Object> e : object(root.get("sample_records"), name + ": sample_records").entrySet()) {
                long index;
                try {
                    index = Long.parseLong(e.getKey());
                } catch (NumberFormatException x) {
                    throw new IllegalArgumentException(name + ": sample_records: key \"" + e.getKey() + "\" is not an index", x);
                }
                records.put(index, ExpectedRecord.parse(e.getValue(), index, name + ": sample_records." + e.getKey()));
            }
        } else {
            throw new IllegalArgumentException(name + ": neither records nor sample_records");
        }
        return new ExpectedRecords(name, summary, frames, Collections.unmodifiableSortedMap(records), complete);
    }

    /** The file's path relative to {@code shared/testdata/real}, or the name given to {@link #of}. */
    public String name() {
        return name;
    }

    /** The summary of the whole file. */
    public Summary summary() {
        return summary;
    }

    /** True when the JSON lists every frame (files of 1000 records or fewer). */
    public boolean hasFrames() {
        return frames != null;
    }

    /** Every record's frame, in file order; only when {@link #hasFrames()}. */
    public List<Frame> frames() {
        if (frames == null) {
            throw new IllegalStateException(name + " lists no frames");
        }
        return frames;
    }

    /** True when {@link #records()} holds every record, false when it holds a sample. */
    public boolean complete() {
        return complete;
    }

    /**
     * The decoded records by index: every record ({@code records}) or, for large files, records
     * 0, 1, 2 and the last ({@code sample_records}).
     */
    public SortedMap<Long, ExpectedRecord> records() {
        return records;
    }

    /**
     * The file summary. Fields the JSON leaves out are {@code null} ({@code payload} and
     * {@code payloadBytes} for an empty file); the per-feature statistics are in {@link #json()}.
     *
     * @param file             the file's name
     * @param size             the file's size in bytes
     * @param sha256           the file's SHA-256, lower-case hex
     * @param format           {@code ofrecord} or {@code tfrecord}
     * @param compression      {@code none}, {@code gzip} or {@code zlib}
     * @param decompressedSize the size of the decompressed stream
     * @param payload          what the payloads are: {@code ofrecord}, {@code example},
     *                         {@code sequence_example} or {@code raw}
     * @param records          the number of records
     * @param payloadBytes     the smallest, largest and total payload length
     * @param json             the summary object as parsed
     */
    public record Summary(String file, long size, String sha256, String format, String compression,
            long decompressedSize, String payload, long records, PayloadBytes payloadBytes, Map<String, Object> json) {

        static Summary parse(Object value, String path) {
            Map<String, Object> s = object(value, path);
            PayloadBytes bytes = null;
            if (s.containsKey("payload_bytes")) {
                Map<String, Object> b = object(s.get("payload_bytes"), path + ".payload_bytes");
                bytes = new PayloadBytes(longValue(member(b, "min", path), path + ".payload_bytes.min"),
                        longValue(member(b, "max", path), path + ".payload_bytes.max"),
                        longValue(member(b, "total", path), path + ".payload_bytes.total"));
            }
            return new Summary(string(member(s, "file", path), path + ".file"),
                    longValue(member(s, "size", path), path + ".size"),
                    string(member(s, "sha256", path), path + ".sha256"),
                    string(member(s, "format", path), path + ".format"),
                    string(member(s, "compression", path), path + ".compression"),
                    longValue(member(s, "decompressed_size", path), path + ".decompressed_size"),
                    s.containsKey("payload") ? string(s.get("payload"), path + ".payload") : null,
                    longValue(member(s, "records", path), path + ".records"),
                    bytes, s);
        }
    }

    /**
     * Payload lengths over the whole file.
     *
     * @param min   the shortest payload
     * @param max   the longest payload
     * @param total the sum of all payload lengths
     */
    public record PayloadBytes(long min, long max, long total) {
    }

    /**
     * One record's frame.
     *
     * @param index  the record's index, from 0
     * @param offset the offset of the frame's first byte (its length field), counted in the
     *               decompressed stream
     * @param length the payload's length
     * @param sha256 the payload's SHA-256, lower-case hex
     */
    public record Frame(long index, long offset, long length, String sha256) {

        static Frame parse(Object value, long index, String path) {
            Map<String, Object> f = object(value, path);
            return new Frame(index,
                    longValue(member(f, "offset", path), path + ".offset"),
                    longValue(member(f, "length", path), path + ".length"),
                    string(member(f, "sha256", path), path + ".sha256"));
        }

        /** True if {@code payload} has this frame's length and SHA-256. */
        public boolean matches(byte[] payload) {
            return payload.length == length && sha256.equals(ExpectedBytes.sha256Hex(payload));
        }
    }
}
