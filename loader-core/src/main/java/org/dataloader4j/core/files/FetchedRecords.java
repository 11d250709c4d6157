package org.dataloader4j.core.files;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.dataloader4j.core.dataset.RecordView;

/**
 * The records of one {@link RecordBatch} of {@link RemoteFiles}, fetched together: their frames
 * sorted by file and offset, neighbours less than {@link RemoteFiles#MERGE_GAP} apart merged into
 * one range, and each file's ranges read in one call ({@link RemoteFiles#read}) into one off-heap
 * buffer, so that a batch costs a round trip or a few, not one per record. The load thread
 * {@link #start starts} the reads as it hands the batch on, so they run while earlier batches
 * parse; a parse thread waits for them when it first {@link #load loads} a row.
 *
 * <p>A row moved to another record ({@link RecordBatch#replace}, skipping a corrupt one) is fetched
 * alone by its parse thread. The buffer is off-heap and reused batch after batch, grown when a batch
 * needs more; or, {@link #FetchedRecords(RemoteFiles, boolean) fresh}, a new heap array each
 * {@link #start}, for records handed out as slices whose lifetime nobody tracks
 * ({@link RemoteRecordDataset}): the garbage collector frees it once the last slice is dropped.
 */
final class FetchedRecords {
    private final RemoteFiles remote;
    /** Whether each {@link #start} fetches into a new heap array rather than the reused buffer. */
    private final boolean fresh;
    private MemorySegment buffer;
    /** Per row: where its frame starts in the buffer, and the number fetched there. */
    private long[] at = new long[0];
    private long[] fetched = new long[0];
    /** Per row, for a row moved to a record not fetched with the batch: that record's frame, else null. */
    private MemorySegment[] alone = new MemorySegment[0];
    private long[] aloneNumber = new long[0];
    /** Per file with records in the batch: the read of its ranges. */
    private CompletableFuture<Void>[] reads;

    /** Fetching into one off-heap buffer of {@code remote}'s, reused batch after batch. */
    FetchedRecords(RemoteFiles remote) {
        this(remote, false);
    }

    /** Fetching into a new heap array each {@link #start} if {@code fresh}, else into one reused off-heap buffer. */
    FetchedRecords(RemoteFiles remote, boolean fresh) {
        this.remote = remote;
        this.fresh = fresh;
    }

    /**
     * Starts fetching the records {@code numbers[0 .. rows)}: after the reads of the previous batch
     * have ended (they have, unless its parse failed), the buffer is laid out and each file's
     * ranges requested.
     */
    void start(long[] numbers, int rows) {
        settlePrevious();
        if (at.length < rows) {
            int n = Math.max(rows, at.length * 2);
            at = new long[n];
            fetched = new long[n];
            alone = new MemorySegment[n];
            aloneNumber = new long[n];
        } else {
            Arrays.fill(alone, 0, rows, null);
        }
        long[] sorted = Arrays.copyOf(numbers, rows);
        Arrays.sort(sorted);
        int unique = 0;
        for (int i = 0; i < rows; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                sorted[unique++] = sorted[i];
            }
        }
        // Lay out the merged ranges one after another: where each record's frame goes, and the ranges.
        long[] position = new long[unique];
        long[] rangeStart = new long[unique];
        long[] rangeEnd = new long[unique];
        int[] rangeFile = new int[unique];
        int ranges = 0;
        long bytes = 0;
        for (int u = 0; u < unique; u++) {
            int file = RecordLocations.fileOf(sorted[u]);
            int record = (int) RecordLocations.recordOf(sorted[u]);
            long offset = remote.index(file).offset(record);
            long end = offset + remote.fetchBytes(file, record);
            boolean merge = ranges > 0 && rangeFile[ranges - 1] == file && offset - rangeEnd[ranges - 1] <= RemoteFiles.MERGE_GAP
                    && end - rangeStart[ranges - 1] <= RemoteFiles.MAX_RANGE;
            if (merge) {
                bytes += Math.max(0, end - rangeEnd[ranges - 1]);
                rangeEnd[ranges - 1] = Math.max(rangeEnd[ranges - 1], end);
            } else {
                rangeFile[ranges] = file;
                rangeStart[ranges] = offset;
                rangeEnd[ranges] = end;
                ranges++;
                bytes += end - offset;
            }
            position[u] = bytes - (rangeEnd[ranges - 1] - offset);
        }
        for (int row = 0; row < rows; row++) {
            int u = Arrays.binarySearch(sorted, 0, unique, numbers[row]);
            at[row] = position[u];
            fetched[row] = numbers[row];
        }
        if (fresh) {
            buffer = MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
        } else if (buffer == null || buffer.byteSize() < bytes) {
            buffer = remote.allocate(Math.max(bytes, buffer == null ? 0 : buffer.byteSize() * 2));
        }
        request(ranges, rangeFile, rangeStart, rangeEnd);
    }

    /** One read per file of its ranges, laid out in the buffer in order. */
    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of futures of Void
    private void request(int ranges, int[] rangeFile, long[] rangeStart, long[] rangeEnd) {
        reads = new CompletableFuture[remote.files().size()];
        long into = 0;
        for (int first = 0; first < ranges; ) {
            int file = rangeFile[first];
            int last = first;
            while (last < ranges && rangeFile[last] == file) {
                last++;
            }
            long[] offsets = new long[last - first];
            ByteBuffer[] buffers = new ByteBuffer[last - first];
            for (int r = first; r < last; r++) {
                long length = rangeEnd[r] - rangeStart[r];
                offsets[r - first] = rangeStart[r];
                buffers[r - first] = buffer.asSlice(into, length).asByteBuffer();
                into += length;
            }
            reads[file] = remote.read(file, offsets, buffers);
            first = last;
        }
    }

    /** Waits for the reads of the previous batch, whose buffer this batch reuses; their failure was reported then. */
    private void settlePrevious() {
        if (reads == null) {
            return;
        }
        for (CompletableFuture<Void> read : reads) {
            if (read != null) {
                try {
                    read.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted waiting for the reads of an earlier batch", e);
                } catch (ExecutionException e) {
                    // Reported to the parse thread of that batch, if it got so far.
                }
            }
        }
    }

    /**
     * Points {@code into} at record {@code number} in row {@code row}, waiting for its file's read,
     * or fetching it alone if the row was moved to it, and checks it if {@code check}
     * ({@link RemoteFiles#view}).
     *
     * @throws CorruptDataException naming file, record and offset if the frame is damaged, or the
     *         file changed after it was indexed
     * @throws org.dataloader4j.api.StorageException naming them if the file cannot be read
     */
    void load(int row, long number, RecordView into, boolean check) {
        int file = RecordLocations.fileOf(number);
        int record = (int) RecordLocations.recordOf(number);
        long offset = remote.index(file).offset(record);
        MemorySegment frame;
        if (fetched[row] == number) {
            remote.await(reads[file], file, record, offset);
            frame = buffer.asSlice(at[row], remote.fetchBytes(file, record));
        } else {
            frame = alone(row, number, file, record);
        }
        remote.view(frame, number, into, check);
    }

    /** Record {@code number}'s frame fetched alone for row {@code row}, once. */
    private MemorySegment alone(int row, long number, int file, int record) {
        if (alone[row] == null || aloneNumber[row] != number) {
            alone[row] = remote.fetchAlone(file, record);
            aloneNumber[row] = number;
        }
        return alone[row];
    }

    /** The segment holding row {@code row}'s frame (for reading it ahead; its read may be under way). */
    MemorySegment source(int row) {
        return alone[row] != null ? alone[row] : buffer;
    }

    /** Where row {@code row}'s payload starts in {@link #source}. */
    long start(int row) {
        return (alone[row] != null ? 0 : at[row]) + remote.frames().headerBytes();
    }
}
