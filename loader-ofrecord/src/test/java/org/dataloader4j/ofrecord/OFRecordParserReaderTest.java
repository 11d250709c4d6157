package org.dataloader4j.ofrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.ListDataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.ReaderOptions;
import org.dataloader4j.core.testing.TestRecords;
import org.dataloader4j.format.Features;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The parser inside a real {@link DataReader}: slots reused round a small ring, rows parsed on several threads. */
class OFRecordParserReaderTest {

    @Test
    @Timeout(30)
    void everyBatchHoldsItsOwnRecordsThoughSlotsAreReused() {
        long seed = 515L;
        Random random = new Random(seed);
        int records = 1000;
        List<float[]> images = new ArrayList<>();
        List<long[]> tokens = new ArrayList<>();
        List<byte[]> bytes = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            float[] image = new float[random.nextInt(10)]; // truncated or zero-padded to 6
            for (int k = 0; k < image.length; k++) {
                image[k] = i + k / 10f;
            }
            long[] t = new long[random.nextInt(5)];
            Arrays.fill(t, i);
            images.add(image);
            tokens.add(t);
            bytes.add(OFRecordParserTest.canonical(Map.of("images", Features.floatFeature(image), "tokens", Features.int64Feature(t))));
        }
        List<RecordSlice> slices = TestRecords.slices(bytes);
        OFRecordParser parser = OFRecordParser.of(
                OFRecordRawDecoder.of("images", Shape.of(6), DataType.FLOAT32).withTruncate(),
                OFRecordRawDecoder.of("tokens", Shape.of(4), DataType.INT64).withDim1VaryingLength());
        int batchSize = 37;
        int row = 0;
        try (DataReader reader = DataReader.of(new BatchDataset<>(ListDataset.of(slices), batchSize, false), parser,
                ReaderOptions.builder()
                .name("ofrecord-test").ringSize(2).parseThreads(3).build())) {
            for (Batch batch : reader) {
                float[] got = batch.tensor("images").toFloatArray();
                RaggedTensor t = batch.ragged("tokens");
                for (int i = 0; i < batch.size(); i++, row++) {
                    float[] want = Arrays.copyOf(images.get(row), 6);
                    assertArrayEquals(want, Arrays.copyOfRange(got, 6 * i, 6 * i + 6), "record " + row + "; seed " + seed);
                    assertArrayEquals(tokens.get(row), t.values().rows(t.offset(i), t.rowLength(i)).toLongArray(),
                            "record " + row + "; seed " + seed);
                }
            }
        }
        assertEquals(records, row);
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.isAlive() && t.getName().startsWith("ofrecord-test")),
                "a closed reader leaves no thread");
    }
}
