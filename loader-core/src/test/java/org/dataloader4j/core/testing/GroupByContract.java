package org.dataloader4j.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongUnaryOperator;
import java.util.function.UnaryOperator;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.dataset.DistributedTrainingOptions;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Remainder;
import org.dataloader4j.core.dataset.GroupBatchDataset;
import org.dataloader4j.core.dataset.GroupBatchOptions;
import org.dataloader4j.core.dataset.ListDataset;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.FilePipelineBuilder;
import org.dataloader4j.core.reader.GroupKey;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.format.RecordWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract of {@link FilePipelineBuilder#groupBy} that every format of records with features
 * meets: each built-in key reads the decoded feature (record {@code id} has {@code tokens}, an
 * int64 list of {@link #tokens(long)} values, and {@code lang}, the int64 {@link #lang(long)}),
 * and the grouped batches are exactly those a {@link GroupBatchDataset} makes of the records in
 * the order the same reader reads them ungrouped: alone, shuffled over epochs, shared among ranks
 * by files or by records, with corrupt records skipped, and resumed at every batch.
 *
 * @param <B> the format's builder
 */
@Timeout(60)
public abstract class GroupByContract<B extends FilePipelineBuilder<B>> {
    /** Records in the part files. */
    protected static final int RECORDS = 60;
    private static final int PARTS = 3;
    private static final int BATCH = 4;
    private static final long SEED = 11;
    private static final AtomicInteger NAMES = new AtomicInteger();

    @TempDir
    protected Path dir;

    /** A builder of the format's reader, its threads named {@code name}, that outputs {@code id} as INT64 of shape (N, 1). */
    protected abstract B builder(String name);

    /** The framing of the format's files. */
    protected abstract Framing framing();

    /** Record {@code id} with the features {@code id}, {@code tokens} ({@code tokens} values), {@code lang} and {@code pair} (two ints). */
    protected abstract byte[] record(long id, int tokens, long lang);

    /** The length of record {@code id}'s {@code tokens}: 0 to 8. */
    protected static int tokens(long id) {
        return (int) (id * 7 % 9);
    }

    /** Record {@code id}'s {@code lang}: 0, 1 or 2. */
    protected static long lang(long id) {
        // Not id % 3: the part files take ids round robin, so each would hold one language.
        return id / 2 % 3;
    }

    private byte[] record(long id) {
        return record(id, tokens(id), lang(id));
    }

    /** A builder over the part files, written at the first call (a reader may have them mapped afterwards). */
    private B parts() {
        Path data = dir.resolve("parts");
        if (!Files.isDirectory(data)) {
            try {
                write(data);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return builder("group-" + NAMES.incrementAndGet()).dataDir(data).dataPartNum(PARTS).partNamePrefix("shard_")
                .partNameSuffixLength(3).indexDir(dir.resolve("index")).batchSize(BATCH);
    }

    private void write(Path data) throws IOException {
        try (PartWriter out = PartWriter.create(data, "shard_", 3, PARTS, framing(), Compression.NONE)) {
            for (long id = 0; id < RECORDS; id++) {
                out.write(record(id));
            }
        }
    }

    /** The ids of every batch. */
    private static List<List<Long>> batches(DataReader reader) {
        try (reader) {
            List<List<Long>> out = new ArrayList<>();
            for (Batch b : reader) {
                List<Long> ids = new ArrayList<>();
                for (long id : b.tensor("id").toLongArray()) {
                    ids.add(id);
                }
                out.add(ids);
            }
            return out;
        }
    }

    /** What a {@link GroupBatchDataset} of {@code BATCH} makes of the ids of {@code ungrouped}, in their order, by {@code key}. */
    private static List<List<Long>> expected(List<List<Long>> ungrouped, LongUnaryOperator key, boolean dropRemainder) {
        List<Long> order = ungrouped.stream().flatMap(List::stream).toList();
        List<List<Long>> out = new ArrayList<>();
        GroupBatchOptions options = GroupBatchOptions.builder(BATCH).dropRemainder(dropRemainder).build();
        try (var grouped = new GroupBatchDataset<>(new ListDataset<>(order, 1), id -> key.applyAsLong(id), options)) {
            for (List<Long> b = grouped.next(); !b.isEmpty(); b = grouped.next()) {
                out.add(List.copyOf(b));
            }
        }
        return out;
    }

    private static DataReader open(FilePipelineBuilder<?> builder, DatasetState state) {
        return (state == null ? builder : builder.reader(o -> o.restore(state))).build();
    }

    /** The keys, each with what it gives for a record's id. */
    private enum Key {
        LIST_LENGTH(GroupKey.listLength("tokens"), id -> tokens(id)),
        INT_VALUE(GroupKey.intValue("lang"), id -> lang(id)),
        // tf.data's boundaries: [0, 3), [3, 6), [6, ...).
        LENGTH_BUCKETS(GroupKey.lengthBuckets("tokens", 3, 6), id -> tokens(id) < 3 ? 0 : tokens(id) < 6 ? 1 : 2),
        MAPPED(GroupKey.listLength("tokens").map(n -> n % 2), id -> tokens(id) % 2),
        RAW(GroupKey.of(record -> record.length() % 3), null);

        final GroupKey key;
        final LongUnaryOperator ofId;

        Key(GroupKey key, LongUnaryOperator ofId) {
            this.key = key;
            this.ofId = ofId;
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"LIST_LENGTH", "INT_VALUE", "LENGTH_BUCKETS", "MAPPED"})
    void eachKeyGroupsByTheDecodedFeature(String name) {
        Key key = Key.valueOf(name);
        B builder = parts();
        List<List<Long>> plain = batches(builder.build());
        List<List<Long>> grouped = batches(parts().groupBy(key.key).build());
        assertEquals(expected(plain, key.ofId, false), grouped);
        for (List<Long> batch : grouped) {
            assertEquals(1, batch.stream().map(key.ofId::applyAsLong).distinct().count(), "one group in " + batch);
        }
        assertNotEquals(plain, grouped, "grouping changes the batches");
    }

    @Test
    void aKeyOfTheRawRecordStillWorks() {
        List<List<Long>> grouped = batches(parts().groupBy(Key.RAW.key).build());
        assertEquals(RECORDS, grouped.stream().mapToInt(List::size).sum());
        for (List<Long> batch : grouped) {
            assertEquals(1, batch.stream().map(id -> record(id).length % 3).distinct().count(), "one group in " + batch);
        }
    }

    @Test
    void groupingComposesWithAShuffleOverEpochsAndDropRemainder() {
        UnaryOperator<B> options = b -> b.randomShuffle(true).shuffleBufferSize(7).seed(SEED).epochs(2).shuffleAfterEpoch(true);
        List<List<Long>> plain = batches(options.apply(parts()).build());
        List<List<Long>> grouped = batches(options.apply(parts()).dropRemainder(true).groupBy(Key.LENGTH_BUCKETS.key).build());
        assertEquals(expected(plain, Key.LENGTH_BUCKETS.ofId, true), grouped);
        assertTrue(grouped.stream().allMatch(b -> b.size() == BATCH), "full batches only: " + grouped);
    }

    @ParameterizedTest(name = "rank {0} of 3")
    @ValueSource(ints = {0, 1, 2})
    void groupingComposesWithRecordsDealtOutAmongRanks(int rank) {
        DistributedTrainingOptions share = DistributedTrainingOptions.builder().rank(rank).worldSize(3)
                .remainder(Remainder.WRAP).shuffle(true).seed(SEED).epochs(2).build();
        List<List<Long>> plain = batches(parts().distributed(share).build());
        List<List<Long>> grouped = batches(parts().distributed(share).groupBy(Key.INT_VALUE.key).build());
        assertEquals(expected(plain, Key.INT_VALUE.ofId, false), grouped);
    }

    @ParameterizedTest(name = "rank {0} of 2")
    @ValueSource(ints = {0, 1})
    void groupingComposesWithFilesSharedAmongRanks(int rank) {
        List<List<Long>> plain = batches(parts().shard(rank, 2).build());
        List<List<Long>> grouped = batches(parts().shard(rank, 2).groupBy(Key.LIST_LENGTH.key).build());
        assertEquals(expected(plain, Key.LIST_LENGTH.ofId, false), grouped);
    }

    /** Three files of 20 records each; the middle one's record {@code bad} is garbage in a valid frame. */
    private List<Path> withGarbage(int bad) throws IOException {
        List<Path> files = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            Path file = dir.resolve("garbage-" + f);
            try (RecordWriter out = RecordWriter.create(file, framing(), Compression.NONE)) {
                for (int r = 0; r < 20; r++) {
                    long id = 20L * f + r;
                    // Field 1 with wire type 7: no message reads past its first byte.
                    out.write(f == 1 && r == bad ? new byte[] {0x0F, 1, 2, 3} : record(id));
                }
            }
            files.add(file);
        }
        return files;
    }

    @Test
    void aCorruptRecordIsSkippedBeforeItsKeyIsRead() throws IOException {
        List<Path> files = withGarbage(7);
        List<Long> good = new ArrayList<>();
        for (long id = 0; id < 60; id++) {
            if (id != 27) {
                good.add(id);
            }
        }
        try (DataReader reader = builder("group-skip-" + NAMES.incrementAndGet()).files(files).batchSize(BATCH)
                .skipCorrupt(1).groupBy(Key.LIST_LENGTH.key).build()) {
            List<List<Long>> grouped = new ArrayList<>();
            for (Batch b : reader) {
                List<Long> ids = new ArrayList<>();
                for (long id : b.tensor("id").toLongArray()) {
                    ids.add(id);
                }
                grouped.add(ids);
            }
            assertEquals(expected(List.of(good), Key.LIST_LENGTH.ofId, false), grouped);
            assertEquals(1, reader.metrics().corruptSkipped(), "the skip metric counts it");
        }
        DataReader strict = builder("group-strict-" + NAMES.incrementAndGet()).files(files).batchSize(BATCH)
                .groupBy(Key.LIST_LENGTH.key).build();
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> batches(strict));
        assertTrue(e.getMessage().contains("garbage-1"), e.getMessage());
    }

    @Test
    void aGroupedReaderWithSkipsResumesAtEveryBatchWithItsSteps() throws IOException {
        List<Path> files = withGarbage(3);
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(state -> open(builder("group-resume-"
                + NAMES.incrementAndGet()).files(files).batchSize(BATCH).skipCorrupt(2).randomShuffle(true)
                .shuffleBufferSize(9).seed(SEED).epochs(2).groupBy(Key.LENGTH_BUCKETS.key), state));
        // The corrupt record is met, and skipped, once each epoch.
        assertEquals(2 * 59, run.batches().stream().mapToInt(ResumeRuns.Seen::size).sum(), "two epochs of the good records");
        for (int k = 0; k < run.batches().size(); k++) {
            assertEquals(k, run.batches().get(k).step());
        }
    }

    @ParameterizedTest(name = "rank {0} of 2")
    @ValueSource(ints = {0, 1})
    void aGroupedShareOfTheRecordsResumesAtEveryBatch(int rank) {
        DistributedTrainingOptions share = DistributedTrainingOptions.builder().rank(rank).worldSize(2)
                .remainder(Remainder.DROP).shuffle(true).seed(SEED).epochs(2).build();
        ResumeRuns.Run run = ResumeRuns.assertResumesAtEveryBatch(state -> open(parts().distributed(share)
                .randomShuffle(true).shuffleBufferSize(5).seed(SEED).groupBy(Key.INT_VALUE.key, 8), state));
        assertEquals(2 * (RECORDS / 2), run.batches().stream().mapToInt(ResumeRuns.Seen::size).sum(), "two epochs of the share");
    }

    @Test
    void aGroupedReaderKnowsItsRecordsButNotItsSteps() {
        try (DataReader plain = parts().build(); DataReader grouped = parts().groupBy(Key.INT_VALUE.key).build()) {
            assertEquals(OptionalLong.of(RECORDS), plain.samplesPerEpoch());
            assertEquals(OptionalLong.of((RECORDS + BATCH - 1) / BATCH), plain.stepsPerEpoch());
            assertEquals(OptionalLong.empty(), grouped.stepsPerEpoch());
        }
    }

    @Test
    void anIntKeyOverAListOfTwoNamesTheRecord() {
        DataReader reader = parts().groupBy(GroupKey.intValue("pair")).build();
        try (reader) {
            CorruptDataException e = assertThrows(CorruptDataException.class, reader::read);
            assertTrue(e.getMessage().contains("feature pair holds 2 integers, not one to group by"), e.getMessage());
            assertTrue(e.getMessage().contains("shard_000"), e.getMessage());
        }
        DistributedTrainingOptions padded = DistributedTrainingOptions.builder().rank(0).worldSize(2)
                .remainder(Remainder.PAD_WITH_MASK).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parts().distributed(padded).groupBy(Key.INT_VALUE.key).build());
        assertTrue(e.getMessage().contains("PAD_WITH_MASK"), e.getMessage());
    }
}
