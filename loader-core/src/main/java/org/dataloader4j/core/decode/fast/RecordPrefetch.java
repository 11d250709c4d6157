package org.dataloader4j.core.decode.fast;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.dataloader4j.core.dataset.RecordRows;

/**
 * Reads a group of records' bytes, one byte per cache line, before they are decoded: a software
 * prefetch made of plain loads.
 *
 * <p>A shuffled batch's records lie far apart in their files, so each one's first bytes miss the
 * cache, and a decoder that walks a record byte by byte waits for each miss in turn (the hardware
 * prefetcher learns a record's stream only after it has started). The loads here do not depend on
 * one another, so the core keeps many misses in flight at once, and the decoder then finds the
 * group's bytes in its cache. A group is bounded in bytes, with the output rows it will write, so
 * that both stay in a core's L2.
 *
 * <p>A record whose long lists are {@linkplain RecordLayout#copiesFirst copied first} is not read
 * ahead: the copy reads it front to back, which the hardware prefetcher streams, and reading it
 * ahead as well would read it twice. Only its first line is read early, a few rows before
 * ({@link #FIRST_AHEAD}, {@link #first}), so that its copy does not begin with a wait.
 *
 * <p>The output rows are not read ahead. The reader's pool hands a parse worker the tensors the
 * consumer gave back last, whose lines are mostly still in a cache, so reading them ahead would
 * only add loads.
 *
 * <p>The loads need a use, or the compiler drops them: their sum goes to a field of the instance,
 * which one thread's decoder owns ({@link #keep}), never to a field that several threads write.
 * One instance per decoder, used on its thread; {@link #lines} and {@link #first} are stateless.
 */
public final class RecordPrefetch {
    /** The most bytes one group reads ahead; a larger record is read ahead only this far. */
    static final int GROUP_BYTES = 128 * 1024;
    /**
     * How many rows on from a record {@linkplain RecordLayout#copiesFirst copied first} the parse
     * reads a record's first byte ({@link #first}) before the copy: far enough for the line to
     * arrive during the copies between, near enough to still be in the cache when its turn comes.
     */
    public static final int FIRST_AHEAD = 4;
    private static final int LINE = 64;
    /** The sum of the bytes loaded: their use, so that the compiler keeps the loads. */
    private long loaded;

    /** A read-ahead for one thread's decoder. */
    public RecordPrefetch() {
    }

    /**
     * Reads ahead the records of rows {@code from, from + 1, …} until they and their output rows
     * of {@code outputRowBytes} each come to {@link #GROUP_BYTES}, or row {@code to} is reached,
     * and returns the row after the last one read: at least {@code from + 1} (if
     * {@code from < to}), at most {@code to}.
     */
    public int group(RecordRows samples, int from, int to, long outputRowBytes) {
        long budget = GROUP_BYTES;
        long sum = 0;
        int row = from;
        while (row < to && budget > 0) {
            long start = samples.start(row);
            int length = samples.length(row);
            sum += lines(samples.source(row), start, start + Math.min(length, budget));
            budget -= length + outputRowBytes;
            row++;
        }
        keep(sum);
        return row;
    }

    /**
     * Reads one byte of every cache line that bytes {@code [start, end)} of {@code segment}
     * touch, and returns their sum, which the caller hands to {@link #keep} or keeps itself (in a
     * field only its thread writes), so that the compiler keeps the loads. Stateless.
     */
    public static long lines(MemorySegment segment, long start, long end) {
        long sum = 0;
        for (long at = start; at < end; at += LINE) {
            sum += segment.get(ValueLayout.JAVA_BYTE, at);
        }
        if (end > start) {
            // The stride can step over the last line when the range does not start on one.
            sum += segment.get(ValueLayout.JAVA_BYTE, end - 1);
        }
        return sum;
    }

    /**
     * Reads the first byte of row {@code row}'s record and returns it, or 0 if there is no such
     * row or its record is empty; the caller keeps the byte as {@link #lines}' callers keep their
     * sum. Before a record copied first, the parse reads so the record {@link #FIRST_AHEAD} rows
     * on: in a shuffled batch that record's first line is a miss, which then comes in during this
     * copy, and that record's copy does not begin by waiting for it. Stateless.
     */
    public static byte first(RecordRows samples, int row) {
        if (row >= samples.size() || samples.length(row) == 0) {
            return 0;
        }
        return samples.source(row).get(ValueLayout.JAVA_BYTE, samples.start(row));
    }

    /** Gives the loads that made {@code sum} a use, so that the compiler keeps them. */
    public void keep(long sum) {
        loaded += sum;
    }
}
