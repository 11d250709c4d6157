package org.dataloader4j.core.testing;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.dataset.RecordSlice;

/**
 * Records in memory, laid out as a mapped file lays them out, and parsed into a
 * {@link BatchBuffer}: for the parser tests of every module (this module's test jar).
 */
public final class TestRecords {
    /** The bytes before, between and after the records of {@link #slices}. */
    public static final int FILLER_BYTES = 11;

    private TestRecords() {
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

    /** Parses {@code records} into {@code batch}'s rows {@code [0, records.size())} over {@code loop}; returns the batch. */
    public static BatchBuffer parse(BatchBuffer batch, Parser<RecordSlice> parser, ParallelLoop loop, List<byte[]> records) {
        return batch.parse(parser, slices(records), loop);
    }

    /** Parses {@code records} sequentially into a new batch that holds just them. */
    public static BatchBuffer parse(Parser<RecordSlice> parser, byte[]... records) {
        BatchBuffer batch = BatchBuffer.of(parser, Math.max(1, records.length));
        try {
            return batch.parse(parser, slices(List.of(records)));
        } catch (RuntimeException e) {
            batch.close();
            throw e;
        }
    }
}
