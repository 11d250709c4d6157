package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.RandomShuffleDataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.files.RecordBatch;
import org.dataloader4j.core.files.RecordFiles;
import org.dataloader4j.core.files.RecordStream;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.testing.CorruptFiles;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The record-number path a reader of record files takes against the stack of object decorators
 * it replaces: {@code OFRecordDataset → RandomShuffleDataset → BatchDataset} over the same files
 * with the same seeds yields the same records, batch by batch, with the same epochs, and a
 * {@link RecordStream} restored from any batch's state goes on with the same batches.
 */
class RecordStreamTest {
    @TempDir
    Path dir;

    /** Three files of 0, 23 and 41 records: an empty file, and epochs that end inside batches. */
    private List<Path> files() throws IOException {
        Random random = new Random(5);
        List<Path> files = new ArrayList<>();
        int[] counts = {23, 0, 41};
        for (int f = 0; f < counts.length; f++) {
            Path file = dir.resolve("part-" + f);
            Files.write(file, CorruptFiles.frame(CorruptFiles.payloads(0, counts[f], random,
                    (id, r) -> new byte[1 + r.nextInt(300)]), Framing.OFRECORD));
            files.add(file);
        }
        return files;
    }

    /** What a batch is made of: each record's file, index and offset, and the batch's epoch. */
    private record Seen(List<String> records, long epoch) {
    }

    private static List<Seen> drain(Dataset<RecordSlice> dataset, List<RecordSlice> into) {
        List<Seen> seen = new ArrayList<>();
        while (true) {
            into.clear();
            if (dataset.nextInto(into) == 0) {
                return seen;
            }
            seen.add(seen(into, dataset.epoch()));
        }
    }

    private static Seen seen(List<RecordSlice> batch, long epoch) {
        List<String> records = new ArrayList<>();
        for (RecordSlice r : batch) {
            records.add(Path.of(r.file()).getFileName() + "#" + r.index() + "@" + r.offset() + "+" + r.length());
        }
        return new Seen(records, epoch);
    }

    @ParameterizedTest(name = "batch={0} buffer={1} shuffleAfterEpoch={2} drop={3}")
    @CsvSource({"7, 0, false, false", "7, 12, false, false", "7, 12, true, true", "16, 1, true, false", "5, 100, true, false",
        "64, 30, false, true"})
    @Timeout(60)
    void yieldsWhatTheStackOfDecoratorsYields(int batchSize, int buffer, boolean shuffleAfterEpoch, boolean drop) throws IOException {
        List<Path> files = files();
        long epochs = 3;
        Dataset<RecordSlice> stack = new OFRecordDataset(files, epochs, shuffleAfterEpoch, 11);
        if (buffer > 0) {
            stack = new RandomShuffleDataset<>(stack, buffer, 99);
        }
        stack = new BatchDataset<>(stack, batchSize, drop);
        List<Seen> expected;
        try (Dataset<RecordSlice> d = stack) {
            expected = drain(d, new ArrayList<>());
        }
        assertFalse(expected.isEmpty());
        try (RecordStream numbers = stream(files, epochs, shuffleAfterEpoch, batchSize, drop, buffer)) {
            assertEquals(expected, drain(numbers, numbers.newBatch()), "batches of record numbers");
        }
        try (RecordStream slices = stream(files, epochs, shuffleAfterEpoch, batchSize, drop, buffer)) {
            assertEquals(expected, drain(slices, new ArrayList<>()), "the same stream into a list of slices");
        }
    }

    private static RecordStream stream(List<Path> files, long epochs, boolean shuffleAfterEpoch, int batchSize, boolean drop,
                                       int buffer) {
        RecordFiles records = RecordFiles.open(files, OFRecordFrames.INSTANCE, null, "record-stream-test-index", 2);
        return new RecordStream(records, epochs, shuffleAfterEpoch, 11, batchSize, drop, buffer, 99, false);
    }

    @ParameterizedTest(name = "batch={0} buffer={1}")
    @CsvSource({"7, 12", "5, 0", "9, 100"})
    @Timeout(60)
    void aStreamRestoredAtAnyBatchGoesOnWithTheSameBatches(int batchSize, int buffer) throws IOException {
        List<Path> files = files();
        List<DatasetState> states = new ArrayList<>();
        List<Seen> whole = new ArrayList<>();
        try (RecordStream stream = stream(files, 3, true, batchSize, false, buffer)) {
            List<RecordSlice> batch = stream.newBatch();
            assertTrue(batch instanceof RecordBatch);
            states.add(stream.state());
            while (true) {
                batch.clear();
                if (stream.nextInto(batch) == 0) {
                    break;
                }
                whole.add(seen(batch, stream.epoch()));
                states.add(stream.state());
            }
        }
        for (int k = 0; k < states.size(); k++) {
            try (RecordStream resumed = stream(files, 3, true, batchSize, false, buffer)) {
                resumed.restore(states.get(k));
                assertEquals(whole.subList(k, whole.size()), drain(resumed, resumed.newBatch()), "resumed after " + k + " batches");
            }
        }
    }
}
