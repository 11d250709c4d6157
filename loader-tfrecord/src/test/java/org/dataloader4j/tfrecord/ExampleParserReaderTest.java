package org.dataloader4j.tfrecord;

import static org.dataloader4j.tfrecord.Proto.entry;
import static org.dataloader4j.tfrecord.Proto.featureList;
import static org.dataloader4j.tfrecord.Proto.floats;
import static org.dataloader4j.tfrecord.Proto.int64s;
import static org.dataloader4j.tfrecord.Proto.map;
import static org.dataloader4j.tfrecord.Proto.sequenceExample;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.ListDataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.ReaderOptions;
import org.dataloader4j.core.testing.TestRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The parser inside a real {@link DataReader}: slots reused round a small ring, rows parsed on several threads. */
class ExampleParserReaderTest {
    private static final ExampleParser PARSER = ExampleParser.forSequenceExample(
            List.of(FixedLenFeature.of("label", Shape.of(), DataType.INT32).withDefault(-1L)),
            List.of(FixedLenSequenceFeature.of("frames", Shape.of(2), DataType.FLOAT32, 5)));

    @Test
    @Timeout(30)
    void everyBatchHoldsItsOwnRecordsThoughSlotsAreReused() {
        long seed = 2024L;
        Random random = new Random(seed);
        int records = 1000;
        List<float[]> frames = new ArrayList<>();
        List<byte[]> bytes = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            int steps = random.nextInt(6);
            float[] f = new float[2 * steps];
            Proto[] stepProtos = new Proto[steps];
            for (int s = 0; s < steps; s++) {
                f[2 * s] = i;
                f[2 * s + 1] = s;
                stepProtos[s] = floats(i, s);
            }
            frames.add(f);
            Proto context = i % 7 == 0 ? map() : map(entry("label", int64s(i)));
            bytes.add(sequenceExample(context, map(entry("frames", featureList(stepProtos)))));
        }
        int batchSize = 37;
        int row = 0;
        try (DataReader reader = reader(TestRecords.slices(bytes), batchSize, "tf-example-test")) {
            for (Batch batch : reader) {
                int[] labels = batch.tensor("label").toIntArray();
                RaggedTensor t = batch.ragged("frames");
                for (int i = 0; i < batch.size(); i++, row++) {
                    assertEquals(row % 7 == 0 ? -1 : row, labels[i], "record " + row + "; seed " + seed);
                    assertArrayEquals(frames.get(row), t.values().rows(t.offset(i), t.rowLength(i)).toFloatArray(),
                            "record " + row + "; seed " + seed);
                }
            }
        }
        assertEquals(records, row);
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.isAlive() && t.getName().startsWith("tf-example-test")),
                "a closed reader leaves no thread");
    }

    @Test
    @Timeout(30)
    void aBadRecordStopsTheReaderAfterTheBatchesBeforeIt() {
        List<byte[]> bytes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Proto steps = i == 75 ? featureList(floats(1, 2, 3)) : featureList(floats(1, 2));
            bytes.add(sequenceExample(map(), map(entry("frames", steps))));
        }
        List<Integer> sizes = new ArrayList<>();
        try (DataReader reader = reader(TestRecords.slices(bytes), 25, "tf-bad-test")) {
            // read() throws the parser's own exception, which names the record.
            CorruptDataException cause = assertThrows(CorruptDataException.class, () -> {
                for (Batch batch : reader) {
                    sizes.add(batch.size());
                }
            });
            assertEquals(75, cause.record());
        }
        assertEquals(List.of(25, 25, 25), sizes);
    }

    private static DataReader reader(List<RecordSlice> slices, int batchSize, String name) {
        return DataReader.of(new BatchDataset<>(ListDataset.of(slices), batchSize, false), PARSER,
                ReaderOptions.builder()
                .name(name).ringSize(2).parseThreads(3).build());
    }
}
