package org.dataloader4j.core.files;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.dataset.BatchingDataset;
import org.dataloader4j.core.dataset.Checks;
import org.dataloader4j.core.dataset.NumberShuffle;
import org.dataloader4j.core.dataset.RecordSlice;

/**
 * The batches a reader of record files reads, made of record numbers: the files in order (or,
 * with {@code shuffleAfterEpoch}, in each later epoch's order, {@link FileCursor}), epoch after
 * epoch, through an optional shuffle buffer ({@link NumberShuffle}), in batches of
 * {@code batchSize}. It yields what the stack
 * {@code <format's dataset> → RandomShuffleDataset → BatchDataset} yields over the same files
 * with the same seed, in the same order, but its load thread deals only in numbers: per record a
 * few array reads and writes, no object, no record byte read. The parse threads check and decode
 * the records ({@link RecordBatch}, {@link RecordFiles#load}).
 *
 * <p>{@link #nextInto} fills a {@link RecordBatch} (the lists a reader collects batches in, from
 * {@link #newBatch}) with numbers; any other list gets checked {@link RecordSlice}s.
 *
 * <p>{@link #state()} is the cursor, the shuffle buffer's generator and numbers, and whether the
 * last batch was taken: positions only. Single-threaded; owns and closes its files.
 */
public final class RecordStream implements BatchingDataset<RecordSlice> {
    static final String KIND = "records";

    private final RecordFiles files;
    private final FileCursor cursor;
    private final int batchSize;
    private final boolean dropRemainder;
    /** Null without a shuffle. */
    private final NumberShuffle shuffle;
    private final boolean replacesCorrupt;
    private boolean ended;
    /** The epoch of each row of the batch yielded last. */
    private final long[] rowEpochs;

    /**
     * Batches of {@code batchSize} records of {@code files} for {@code epochs} epochs, the file
     * order of later epochs drawn from {@code fileSeed} if {@code shuffleAfterEpoch}, shuffled
     * through a buffer of {@code shuffleBuffer} records drawn from {@code shuffleSeed} (no shuffle
     * if {@code shuffleBuffer} is 0), the last partial batch dropped if {@code dropRemainder};
     * the parse replaces a corrupt record by the next good one if {@code replacesCorrupt}
     * ({@link RecordBatch#replace}).
     *
     * @throws IllegalArgumentException if {@code epochs}, {@code batchSize} or {@code shuffleBuffer} is out of range
     */
    public RecordStream(RecordFiles files, long epochs, boolean shuffleAfterEpoch, long fileSeed, int batchSize,
                        boolean dropRemainder, int shuffleBuffer, long shuffleSeed, boolean replacesCorrupt) {
        this.cursor = FileCursor.ofNames(files.fileNames(), epochs, shuffleAfterEpoch, fileSeed);
        this.batchSize = Checks.positive("batchSize", batchSize);
        this.dropRemainder = dropRemainder;
        if (shuffleBuffer < 0) {
            throw new IllegalArgumentException("shuffleBuffer must be >= 0: shuffleBuffer=" + shuffleBuffer);
        }
        this.shuffle = shuffleBuffer == 0 ? null : new NumberShuffle(shuffleBuffer, shuffleSeed);
        this.files = files;
        this.replacesCorrupt = replacesCorrupt;
        this.rowEpochs = new long[batchSize];
    }

    @Override
    public int batchSize() {
        return batchSize;
    }

    /** A batch of numbers, which the reader fills and hands on, batch after batch. */
    @Override
    public List<RecordSlice> newBatch() {
        return new RecordBatch(files, batchSize, replacesCorrupt);
    }

    @Override
    public List<RecordSlice> next() {
        List<RecordSlice> batch = new ArrayList<>(batchSize);
        nextInto(batch);
        return batch;
    }

    /** Adds the next batch to {@code out}: numbers to a {@link RecordBatch} of these files, else slices. */
    @Override
    public int nextInto(List<? super RecordSlice> out) {
        if (ended) {
            return 0;
        }
        RecordBatch numbers = out instanceof RecordBatch b && b.files() == files ? b : null;
        int first = out.size();
        for (int taken = 0; taken < batchSize; taken++) {
            long number = nextNumber();
            if (number < 0) {
                ended = true;
                if (dropRemainder) {
                    if (numbers != null) {
                        numbers.truncate(first);
                    } else {
                        out.subList(first, out.size()).clear();
                    }
                    return 0;
                }
                if (numbers != null) {
                    numbers.fetch();
                }
                return taken;
            }
            rowEpochs[taken] = shuffle == null ? cursor.epoch() : shuffle.lastEpoch();
            if (numbers != null) {
                numbers.addNumber(number);
            } else {
                out.add(files.slice(number));
            }
        }
        if (numbers != null) {
            numbers.fetch();
        }
        return batchSize;
    }

    /** The next record's number after the shuffle, or -1 at the end. */
    private long nextNumber() {
        if (shuffle == null) {
            return nextRead();
        }
        while (shuffle.filling()) {
            long number = nextRead();
            if (number < 0) {
                shuffle.filled();
                break;
            }
            shuffle.fill(number, cursor.epoch());
        }
        long number = nextRead();
        return number < 0 ? shuffle.drain() : shuffle.swap(number, cursor.epoch());
    }

    /** The next record's number in file order, or -1 at the end; the cursor moves past it. */
    private long nextRead() {
        while (!cursor.ended()) {
            int file = cursor.fileIndex();
            long record = cursor.record();
            if (record < files.records(file)) {
                cursor.advance(files.frameBytes(file, (int) record));
                return RecordLocations.number(file, record);
            }
            cursor.nextFile();
        }
        return -1;
    }

    /** The epoch of the newest record yielded; with a shuffle, the highest among those yielded. */
    @Override
    public long epoch() {
        return shuffle == null ? cursor.epoch() : shuffle.epoch();
    }

    /** The records of the files: every epoch reads each once. */
    @Override
    public OptionalLong samplesPerEpoch() {
        return OptionalLong.of(files.size());
    }

    /** {@code samplesPerEpoch()} in batches: rounded up, or down if a partial last batch is dropped. */
    @Override
    public OptionalLong stepsPerEpoch() {
        return BatchingDataset.stepsOf(samplesPerEpoch(), batchSize, dropRemainder);
    }

    /** The epoch of the record yielded last. */
    @Override
    public long sampleEpoch() {
        return shuffle == null ? cursor.epoch() : shuffle.lastEpoch();
    }

    /** The epoch each record of the batch yielded last was read in. */
    @Override
    public long epochOf(int row) {
        return rowEpochs[Objects.checkIndex(row, batchSize)];
    }

    @Override
    public DatasetState state() {
        // One map of fields, not a state per field: a reader takes this state every few batches.
        Map<String, Long> fields = new LinkedHashMap<>();
        cursor.saveFields(fields);
        fields.put("ended", ended ? 1L : 0L);
        fields.put("shuffled", shuffle == null ? 0L : 1L);
        if (shuffle == null) {
            return new DatasetState(KIND, fields, null);
        }
        shuffle.saveFields(fields);
        return shuffle.saveLists(new DatasetState(KIND, fields, null));
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException also if the state was taken with a shuffle and this stream
     *                                  has none, or the other way round
     */
    @Override
    public void restore(DatasetState state) {
        state.expect(KIND);
        if ((state.field("shuffled") != 0) != (shuffle != null)) {
            throw new IllegalArgumentException("the state was taken " + (shuffle == null ? "with" : "without")
                    + " a shuffle buffer and this reader has " + (shuffle == null ? "none" : "one") + ": " + state);
        }
        cursor.restore(state, KIND);
        if (shuffle != null) {
            shuffle.restoreFrom(state);
        }
        ended = state.field("ended") != 0;
    }

    /** Unmaps the files. Idempotent. */
    @Override
    public void close() {
        files.close();
    }

    @Override
    public String toString() {
        return "RecordStream[" + files.names().size() + " files, batchSize=" + batchSize
                + (shuffle == null ? "" : ", shuffled") + "]";
    }
}
