package org.dataloader4j.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataLoaderException;
import org.dataloader4j.core.reader.DataReader;

/**
 * What a training loop got from a reader of damaged files (this module's test jar): the ids of
 * the samples in the batches it read, in order, the batch sizes, the failure that ended it (or
 * null) and the corrupt records the reader skipped.
 */
public record FaultRuns(List<Long> ids, List<Integer> batchSizes, DataLoaderException failure, long skipped) {

    /** The id of a row of a batch. */
    @FunctionalInterface
    public interface RowId {
        /** The id of row {@code row} of {@code batch}. */
        long of(Batch batch, int row);
    }

    /**
     * Reads {@code reader} to its end or its first failure, taking each row's INT64 output
     * {@code idOutput}, and closes it.
     */
    public static FaultRuns read(DataReader reader, String idOutput) {
        return read(reader, (batch, row) -> batch.tensor(idOutput).getLong(row));
    }

    /**
     * {@link #read(DataReader, String)}, running {@code afterFirstBatch} once the first batch is
     * in hand and before its rows are read: to damage a file while the reader is reading it.
     */
    public static FaultRuns read(DataReader reader, String idOutput, Runnable afterFirstBatch) {
        return read(reader, (batch, row) -> batch.tensor(idOutput).getLong(row), afterFirstBatch);
    }

    /** Reads {@code reader} to its end or its first failure, taking each row's {@code id}, and closes it. */
    public static FaultRuns read(DataReader reader, RowId id) {
        return read(reader, id, () -> { });
    }

    private static FaultRuns read(DataReader reader, RowId id, Runnable afterFirstBatch) {
        List<Long> ids = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        DataLoaderException failure = null;
        try (reader) {
            Batch batch;
            for (boolean first = true; (batch = reader.read()) != null; first = false) {
                if (first) {
                    afterFirstBatch.run();
                }
                for (int row = 0; row < batch.size(); row++) {
                    ids.add(id.of(batch, row));
                }
                sizes.add(batch.size());
            }
        } catch (DataLoaderException e) {
            failure = e;
        }
        return new FaultRuns(ids, sizes, failure, reader.metrics().corruptSkipped());
    }

    /** The corrupt-data error the run failed with: {@code read()} throws it as it is. */
    public CorruptDataException corruption() {
        assertNotNull(failure, "the run should have failed");
        return assertInstanceOf(CorruptDataException.class, failure, "the failure: " + failure);
    }

    /**
     * Checks a strict run: it failed for record {@code record} at {@code offset} of the file named
     * {@code file}, after delivering every batch before the one that holds the bad record, that
     * is the first {@code floor(good / batchSize) * batchSize} of {@code expected}, where
     * {@code good} samples precede the bad one.
     */
    public void assertStrictFailure(List<Long> expected, int good, int batchSize, String file, long record, long offset) {
        CorruptDataException e = corruption();
        assertTrue(e.file().endsWith(file), "the error names the file: " + e.getMessage());
        assertEquals(record, e.record(), "the bad record: " + e.getMessage());
        assertEquals(offset, e.offset(), "the bad record's offset: " + e.getMessage());
        assertEquals(expected.subList(0, good / batchSize * batchSize), ids, "every batch before the bad one");
    }

    /** Checks a run that skipped corrupt records: exactly {@code expected}, in full batches but the last. */
    public void assertDelivered(List<Long> expected, int batchSize, long skippedRecords) {
        assertNull(failure, () -> "no failure: " + failure);
        assertEquals(expected, ids, "exactly the good records");
        for (int b = 0; b + 1 < batchSizes.size(); b++) {
            assertEquals(batchSize, batchSizes.get(b), "full batches but the last: " + batchSizes);
        }
        assertEquals(skippedRecords, skipped, "corrupt records skipped");
    }
}
