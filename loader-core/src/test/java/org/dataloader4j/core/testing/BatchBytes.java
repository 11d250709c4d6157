package org.dataloader4j.core.testing;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Tensor;

/** A batch's bytes, for byte-for-byte comparisons in the parser tests of every module (this module's test jar). */
public final class BatchBytes {
    private BatchBytes() {
    }

    /**
     * What a parser wrote, every output in order: dense outputs' rows, ragged outputs' offsets
     * and used values (the rest of a ragged buffer is not written).
     */
    public static byte[] written(Batch batch) {
        List<MemorySegment> all = new ArrayList<>();
        for (String name : batch.names()) {
            if (isRagged(batch, name)) {
                RaggedTensor t = batch.ragged(name);
                all.add(t.offsets().segment());
                all.add(t.values().rows(0, t.offset(batch.size())).segment());
            } else {
                all.add(batch.tensor(name).segment());
            }
        }
        return concat(all);
    }

    /**
     * The memory of the batch's rows, every output in order, a ragged output's whole values
     * buffer included: two parses into batches filled alike must leave the same bytes everywhere.
     */
    public static byte[] memory(Batch batch) {
        List<MemorySegment> all = new ArrayList<>();
        for (String name : batch.names()) {
            if (isRagged(batch, name)) {
                RaggedTensor t = batch.ragged(name);
                all.add(t.values().segment());
                all.add(t.offsets().segment());
            } else {
                all.add(batch.tensor(name).segment());
            }
        }
        return concat(all);
    }

    /** Row {@code row} of output {@code name}, dense or ragged, as bytes. */
    public static byte[] rowBytes(Batch batch, String name, int row) {
        Tensor t = isRagged(batch, name) ? raggedRow(batch, name, row) : batch.tensor(name).rows(row, 1);
        return t.segment().toArray(ValueLayout.JAVA_BYTE);
    }

    /** Row {@code row} of ragged output {@code name}: its values as a tensor. */
    public static Tensor raggedRow(Batch batch, String name, int row) {
        RaggedTensor t = batch.ragged(name);
        return t.values().rows(t.offset(row), t.rowLength(row));
    }

    private static boolean isRagged(Batch batch, String name) {
        try {
            batch.ragged(name);
            return true;
        } catch (IllegalArgumentException dense) {
            return false;
        }
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
}
