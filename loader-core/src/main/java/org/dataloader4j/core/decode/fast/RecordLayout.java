package org.dataloader4j.core.decode.fast;

import java.lang.foreign.MemorySegment;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.core.wire.MapScanner;
import org.dataloader4j.core.wire.WireReader;

/**
 * The layout of the last record a decoder learned: where each column's map entry and list lay,
 * and every other byte of the record. A record of the same length whose other bytes are the same
 * is laid out the same way, so a decoder can take the entries and lists from here instead of
 * scanning the record for them.
 *
 * <p>Why that holds: a {@link MapScanner} and a {@link FeatureView} read a record's tags, lengths
 * and keys, and step over a packed list or a byte string by its length and over a fixed-width
 * value by its width; they never read the values inside a learned list. So two records of the
 * same length that differ only inside those lists are read alike, and their entries and lists
 * lie at the same offsets. Everything else, unknown fields and other features included, is
 * compared byte for byte. The values themselves are not taken from here: the caller still counts,
 * checks and copies them from the record, so a malformed varint fails as before.
 *
 * <p>Only a layout whose lists are each at most one piece, none an unpacked varint (whose end its
 * own bytes decide), is learned, and only while the bytes around the lists are few (at most
 * {@value #MAX_FRAME_BYTES}). A decoder learns again after {@value #RELEARN_AFTER} records in a
 * row do not match; each time a learned layout (or a failed try) matched nothing, that run
 * doubles, up to {@value #MAX_RELEARN_AFTER}. So a dataset whose records all differ (token lists
 * of varying length) costs about one length compare per record.
 *
 * <p><b>Copied first.</b> A layout whose lists are nearly the whole record, and at least
 * {@value #MIN_COPY_FIRST_BYTES} bytes of them lists whose bytes are a dense row as they stand
 * (a {@code float_list} into FLOAT32, a {@code double_list} into FLOAT64, exactly a row's worth:
 * the caller says which list and how many bytes make each column's row),
 * {@linkplain #copiesFirst copies first}: a record of its length has those lists copied to their
 * rows straight from the record, before it is matched ({@link #copyFirst}). The copy reads the
 * record front to back, as the hardware prefetcher streams it, so such a record needs no read-ahead
 * ({@link RecordPrefetch}); the frame is then compared in the cache. A record that turns out not
 * to match is decoded as any other, which writes those rows again, or fails.
 *
 * <p>Holds one thread's state; one instance per decoder. Longer than most classes, as learning,
 * matching and copying first read the same noted bounds, which splitting would have to share.
 */
public final class RecordLayout {
    /** The most bytes outside the lists that a layout compares. */
    static final int MAX_FRAME_BYTES = 512;
    /** Records in a row that do not match before the next one is learned, at first. */
    static final int RELEARN_AFTER = 64;
    /** The most records in a row that do not match before the next one is learned. */
    static final int MAX_RELEARN_AFTER = 1 << 16;
    /**
     * The fewest bytes of lists copied first that make a layout copy first. Below it a record's
     * first miss is much of its reading, and reading a group of records ahead overlaps the first
     * misses of many.
     */
    static final int MIN_COPY_FIRST_BYTES = 1024;

    /** The learned record's length, or -1 before a layout is learned. */
    private long length = -1;
    private final long[] entryStart;
    private final long[] entryEnd;
    private final ListKind[] kind;
    private final long[] pieceStart;
    private final long[] pieceEnd;
    /** Bounds of the runs of bytes outside the lists, relative to the record's start. */
    private final long[] gaps;
    private int gapCount;
    /** The learned record's bytes outside its lists, run after run. */
    private final byte[] frame = new byte[MAX_FRAME_BYTES];
    private final MemorySegment frameSegment = MemorySegment.ofArray(frame);
    /** Misses in a row that make the next record learned: doubled each time a layout matched nothing. */
    private int relearnAfter = RELEARN_AFTER;
    /** Records in a row that did not match; the first record is learned. */
    private int misses = RELEARN_AFTER;
    private boolean learnedBefore;
    private boolean matchedSinceLearned;

    /**
     * The list whose bytes are each column's dense row as they stand, or null for a column that
     * none is (a ragged output, an output of another type); null where nothing is copied first.
     */
    private final ListKind[] rowKinds;
    /** The bytes of each column's dense row; null where nothing is copied first. */
    private final long[] rowBytes;
    /** Each column's bytes copied first (its whole dense row), or 0. */
    private final long[] copyBytes;
    private boolean copiesFirst;

    // Learning: whether the current record's columns are being noted. A record that fails to
    // decode leaves this set until the next beginLearning, harmlessly: with no length learned,
    // nothing noted is matched against.
    private boolean learnable;
    private final long[] sortedStart;
    private final long[] sortedEnd;

    /** A layout of {@code columns} columns, which never copies first. */
    RecordLayout(int columns) {
        this(columns, null, null);
    }

    /**
     * A layout of {@code rowKinds.length} columns, which may copy first: column {@code c}'s dense
     * row is {@code rowBytes[c]} bytes, which a list of kind {@code rowKinds[c]} holding exactly
     * that many bytes is as it stands; {@code rowKinds[c]} is null where no list is (a ragged
     * output, or one of a type no list's bytes are).
     *
     * @throws IllegalArgumentException if the arrays' lengths differ
     */
    public RecordLayout(ListKind[] rowKinds, long[] rowBytes) {
        this(rowKinds.length, rowKinds.clone(), rowBytes.clone());
        if (rowKinds.length != rowBytes.length) {
            throw new IllegalArgumentException("one row size per column: rowKinds=" + rowKinds.length
                    + " rowBytes=" + rowBytes.length);
        }
    }

    private RecordLayout(int columns, ListKind[] rowKinds, long[] rowBytes) {
        this.rowKinds = rowKinds;
        this.rowBytes = rowBytes;
        copyBytes = new long[columns];
        entryStart = new long[columns];
        entryEnd = new long[columns];
        kind = new ListKind[columns];
        pieceStart = new long[columns];
        pieceEnd = new long[columns];
        gaps = new long[2 * (columns + 1)];
        sortedStart = new long[columns];
        sortedEnd = new long[columns];
    }

    /**
     * Whether the record {@code [start, start + recordLength)} of {@code record} is laid out as
     * the learned one: its length and every byte outside the learned lists the same.
     */
    public boolean matches(MemorySegment record, long start, long recordLength) {
        if (recordLength != length) {
            misses++;
            return false;
        }
        int f = 0;
        for (int g = 0; g < gapCount; g++) {
            long from = gaps[2 * g];
            long n = gaps[2 * g + 1] - from;
            if (MemorySegment.mismatch(record, start + from, start + from + n, frameSegment, f, f + n) != -1) {
                misses++;
                return false;
            }
            f += (int) n;
        }
        misses = 0;
        matchedSinceLearned = true;
        relearnAfter = RELEARN_AFTER;
        return true;
    }

    /** Whether a decoder that found no match should learn the record it now decodes. */
    public boolean shouldLearn() {
        return misses >= relearnAfter;
    }

    /**
     * Starts learning a record, forgetting the layout learned before: its columns are then noted
     * one by one as they are {@linkplain #resolve resolved} (or found {@linkplain #noteMissing
     * missing}), and {@link #endLearning} keeps the layout if the record decoded without error.
     */
    public void beginLearning() {
        if (learnedBefore && !matchedSinceLearned) {
            relearnAfter = Math.min(2 * relearnAfter, MAX_RELEARN_AFTER);
        }
        learnedBefore = true;
        matchedSinceLearned = false;
        length = -1;
        misses = 0;
        learnable = true;
    }

    /** Notes that column {@code c} of the record being learned has no entry; nothing outside learning. */
    public void noteMissing(int c) {
        if (learnable) {
            entryStart[c] = entryEnd[c] = -1;
            kind[c] = null;
            pieceStart[c] = pieceEnd[c] = -1;
        }
    }

    /**
     * Resolves column {@code c}'s map entry {@code [entryStart, entryEnd)} of the record at
     * {@code recordStart} of {@code r}'s segment into {@code f}: from this layout if the record
     * {@linkplain #matches matched} ({@code laidOut}), else from the record, noting it if the
     * record is being learned. A feature of more than one piece, or of an unpacked varint, makes
     * the record one that is not learned.
     *
     * @throws org.dataloader4j.core.wire.WireFormatException if the entry or its Feature is malformed
     */
    public void resolve(int c, long recordStart, long entryStart, long entryEnd, boolean laidOut, WireReader r,
                        FeatureView f) {
        if (laidOut) {
            f.set(kind[c], pieceStart[c] < 0 ? -1 : recordStart + pieceStart[c], recordStart + pieceEnd[c]);
            return;
        }
        f.resolveEntry(r, entryStart, entryEnd);
        if (!learnable) {
            return;
        }
        if (f.pieces() > 1 || !f.boundsFromFraming()) {
            learnable = false;
            return;
        }
        this.entryStart[c] = entryStart - recordStart;
        this.entryEnd[c] = entryEnd - recordStart;
        kind[c] = f.kind();
        if (f.pieces() == 1) {
            pieceStart[c] = f.start(0) - recordStart;
            pieceEnd[c] = f.end(0) - recordStart;
        } else {
            pieceStart[c] = pieceEnd[c] = -1;
        }
    }

    /**
     * Ends learning the record {@code [start, start + recordLength)} of {@code record}, whose
     * columns have all been noted and decoded without error: from now on records are matched
     * against it. Keeps the layout learned before if this record's cannot be learned.
     */
    public void endLearning(MemorySegment record, long start, long recordLength) {
        if (!learnable) {
            return;
        }
        learnable = false;
        int n = 0;
        for (int c = 0; c < pieceStart.length; c++) {
            if (pieceStart[c] >= 0) {
                sortedStart[n] = pieceStart[c];
                sortedEnd[n] = pieceEnd[c];
                n++;
            }
        }
        sortPieces(n);
        int g = 0;
        long at = 0;
        long frameBytes = 0;
        for (int i = 0; i <= n; i++) {
            long to = i < n ? sortedStart[i] : recordLength;
            if (to > at) {
                frameBytes += to - at;
                if (frameBytes > MAX_FRAME_BYTES) {
                    return;
                }
                gaps[2 * g] = at;
                gaps[2 * g + 1] = to;
                g++;
            }
            if (i < n) {
                at = sortedEnd[i];
            }
        }
        int f = 0;
        for (int i = 0; i < g; i++) {
            long from = gaps[2 * i];
            int len = (int) (gaps[2 * i + 1] - from);
            MemorySegment.copy(record, start + from, frameSegment, f, len);
            f += len;
        }
        gapCount = g;
        length = recordLength;
        long copied = 0;
        for (int c = 0; c < copyBytes.length; c++) {
            copyBytes[c] = rowBytes(c);
            copied += copyBytes[c];
        }
        copiesFirst = copied >= MIN_COPY_FIRST_BYTES && recordLength - copied <= MAX_FRAME_BYTES;
    }

    /** The bytes of column {@code c}'s learned list if they are its dense row as they stand, else 0. */
    private long rowBytes(int c) {
        if (rowKinds == null || pieceStart[c] < 0) {
            return 0;
        }
        long bytes = pieceEnd[c] - pieceStart[c];
        return rowKinds[c] != null && kind[c] == rowKinds[c] && bytes == rowBytes[c] ? bytes : 0;
    }

    /** Whether a record of {@code recordLength} bytes is {@linkplain #copyFirst copied first}. */
    public boolean copiesFirst(long recordLength) {
        return copiesFirst && recordLength == length;
    }

    /**
     * If a record of this length is {@linkplain #copiesFirst copied first}, copies the learned
     * lists of the record {@code [start, start + recordLength)} of {@code record} that are dense
     * rows as they stand to row {@code row} of their columns' outputs ({@code outputs[c]} for
     * column {@code c}), whether or not the record then {@linkplain #matches matches}, and
     * returns true; else does nothing and returns false. A caller that finds the record matching
     * needs not decode those columns ({@link #copiedFirst}); one that finds it not matching
     * decodes every column as usual.
     */
    public boolean copyFirst(MemorySegment record, long start, long recordLength, MemorySegment[] outputs, int row) {
        if (!copiesFirst(recordLength)) {
            return false;
        }
        for (int c = 0; c < copyBytes.length; c++) {
            long n = copyBytes[c];
            if (n > 0) {
                MemorySegment.copy(record, start + pieceStart[c], outputs[c], row * n, n);
            }
        }
        return true;
    }

    /** Whether {@link #copyFirst} writes column {@code c}'s row, in a record it copies. */
    public boolean copiedFirst(int c) {
        return copyBytes[c] > 0;
    }

    private void sortPieces(int n) {
        for (int i = 1; i < n; i++) {
            long s = sortedStart[i];
            long e = sortedEnd[i];
            int j = i - 1;
            while (j >= 0 && sortedStart[j] > s) {
                sortedStart[j + 1] = sortedStart[j];
                sortedEnd[j + 1] = sortedEnd[j];
                j--;
            }
            sortedStart[j + 1] = s;
            sortedEnd[j + 1] = e;
        }
    }

    /** Column {@code c}'s entry start in a matching record at {@code start}, or -1 if absent. */
    public long entryStart(int c, long start) {
        return entryStart[c] < 0 ? -1 : start + entryStart[c];
    }

    /** Column {@code c}'s entry end in a matching record at {@code start}, or -1 if absent. */
    public long entryEnd(int c, long start) {
        return entryEnd[c] < 0 ? -1 : start + entryEnd[c];
    }
}
