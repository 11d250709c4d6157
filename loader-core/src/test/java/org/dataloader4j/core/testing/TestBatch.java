package org.dataloader4j.core.testing;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.RecordSlice;

/**
 * A {@link Batch} for parser tests in every module (this module's test jar), without a reader or threads: the parser's outputs allocated from a
 * shared arena (parse threads write it), as a slot would hold them. Parsing into the same batch
 * twice reuses the memory, as the ring reuses slots.
 */
public final class TestBatch implements Batch {
    /** The bytes before, between and after the records of {@link #slices}. */
    public static final int FILLER_BYTES = 11;

    private final Arena arena = Arena.ofShared();
    private final Map<String, TensorSpec> specs = new LinkedHashMap<>();
    private final Map<String, MemorySegment> values = new LinkedHashMap<>();
    private final Map<String, MemorySegment> offsets = new LinkedHashMap<>();
    private final int capacity;
    private int size;

    private TestBatch(List<TensorSpec> outputs, int capacity) {
        this.capacity = capacity;
        for (TensorSpec spec : outputs) {
            specs.put(spec.name(), spec);
            if (spec.isRagged()) {
                values.put(spec.name(), arena.allocate(Math.max(1, spec.valueCapacity() * spec.dataType().byteSize()), 64));
                offsets.put(spec.name(), arena.allocate((capacity + 1L) * Long.BYTES, 64));
            } else {
                values.put(spec.name(), arena.allocate(spec.byteSize(), 64));
            }
        }
    }

    /**
     * A batch of {@code outputs}, which hold {@code rows} rows, full: its size is {@code rows}.
     * Each dense output's memory is exactly its rows, so that a read past them throws.
     */
    public static TestBatch of(List<TensorSpec> outputs, int rows) {
        TestBatch batch = new TestBatch(outputs, rows);
        batch.size = rows;
        return batch;
    }

    /** A batch of {@code parser}'s outputs for up to {@code capacity} rows. */
    public static TestBatch of(Parser<?> parser, int capacity) {
        return new TestBatch(parser.outputs(capacity), capacity);
    }

    /**
     * The slices of {@code records}, as records 0, 1, … of {@code "test-file"} at offsets 100,
     * 200, …. As in a mapped file, they share one source segment, each between
     * {@value #FILLER_BYTES} bytes of {@code 0xFF} (a malformed varint, should a parser read
     * past a record's bounds).
     */
    public static List<RecordSlice> slices(List<byte[]> records) {
        long total = FILLER_BYTES;
        for (byte[] r : records) {
            total += r.length + FILLER_BYTES;
        }
        byte[] source = new byte[Math.toIntExact(total)];
        Arrays.fill(source, (byte) 0xFF);
        MemorySegment segment = MemorySegment.ofArray(source);
        List<RecordSlice> slices = new ArrayList<>(records.size());
        int at = FILLER_BYTES;
        for (int i = 0; i < records.size(); i++) {
            byte[] r = records.get(i);
            System.arraycopy(r, 0, source, at, r.length);
            slices.add(new RecordSlice(segment, at, r.length, "test-file", i, 100L * (i + 1)));
            at += r.length + FILLER_BYTES;
        }
        return slices;
    }

    /** Parses {@code records} into this batch's rows {@code [0, records.size())}; returns this batch. */
    public TestBatch parse(Parser<RecordSlice> parser, ParallelLoop loop, List<byte[]> records) {
        size = records.size();
        parser.parse(slices(records), this, loop);
        return this;
    }

    /** Parses {@code records} sequentially into a new batch that holds just them. */
    public static TestBatch parse(Parser<RecordSlice> parser, byte[]... records) {
        TestBatch batch = of(parser, Math.max(1, records.length));
        try {
            return batch.parse(parser, ParallelLoop.sequential(), List.of(records));
        } catch (RuntimeException e) {
            batch.close();
            throw e;
        }
    }

    /** Fills every byte of every output with {@code b}, as an earlier batch might have left it. */
    public TestBatch poison(int b) {
        values.values().forEach(s -> s.fill((byte) b));
        offsets.values().forEach(s -> s.fill((byte) b));
        return this;
    }

    /**
     * What the parser wrote, every output in order, for byte-for-byte comparisons: dense outputs'
     * rows, ragged outputs' offsets and used values (the rest of a ragged buffer is not written).
     */
    public byte[] written() {
        List<MemorySegment> all = new ArrayList<>();
        for (String name : specs.keySet()) {
            if (offsets.containsKey(name)) {
                RaggedTensor t = ragged(name);
                all.add(t.offsets().segment());
                all.add(t.values().rows(0, t.offset(size)).segment());
            } else {
                all.add(tensor(name).segment());
            }
        }
        return concat(all);
    }

    private static byte[] concat(List<MemorySegment> all) {
        long total = all.stream().mapToLong(MemorySegment::byteSize).sum();
        byte[] bytes = new byte[Math.toIntExact(total)];
        int at = 0;
        for (MemorySegment s : all) {
            MemorySegment.copy(s, ValueLayout.JAVA_BYTE, 0, bytes, at, (int) s.byteSize());
            at += (int) s.byteSize();
        }
        return bytes;
    }

    /**
     * All of the memory, every output in order, unused tails included: two parses into batches
     * poisoned alike must leave the same bytes everywhere.
     */
    public byte[] memory() {
        List<MemorySegment> all = new ArrayList<>();
        for (String name : specs.keySet()) {
            all.add(values.get(name));
            if (offsets.containsKey(name)) {
                all.add(offsets.get(name));
            }
        }
        return concat(all);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public long epoch() {
        return 0;
    }

    @Override
    public long index() {
        return 0;
    }

    @Override
    public List<String> names() {
        return List.copyOf(specs.keySet());
    }

    @Override
    public Tensor tensor(String name) {
        TensorSpec spec = spec(name, false);
        return Tensor.of(name, values.get(name), spec.shape().withRows(size), spec.dataType());
    }

    @Override
    public RaggedTensor ragged(String name) {
        TensorSpec spec = spec(name, true);
        Tensor v = Tensor.of(name, values.get(name), Shape.of(spec.valueCapacity()), spec.dataType());
        Tensor o = Tensor.of(name + ".offsets", offsets.get(name), Shape.of(size + 1L), DataType.INT64);
        return new RaggedTensor(name, v, o);
    }

    /** Row {@code row} of output {@code name}, dense or ragged, as bytes. */
    public byte[] rowBytes(String name, int row) {
        Tensor t = specs.get(name).isRagged() ? raggedRow(name, row) : tensor(name).rows(row, 1);
        return t.segment().toArray(ValueLayout.JAVA_BYTE);
    }

    /** Row {@code row} of ragged output {@code name}: its values as a tensor. */
    public Tensor raggedRow(String name, int row) {
        RaggedTensor t = ragged(name);
        return t.values().rows(t.offset(row), t.rowLength(row));
    }

    private TensorSpec spec(String name, boolean ragged) {
        TensorSpec spec = specs.get(name);
        if (spec == null || spec.isRagged() != ragged) {
            throw new IllegalArgumentException("no " + (ragged ? "ragged" : "dense") + " output " + name);
        }
        return spec;
    }

    /** Frees the memory. */
    @Override
    public void close() {
        arena.close();
    }
}
