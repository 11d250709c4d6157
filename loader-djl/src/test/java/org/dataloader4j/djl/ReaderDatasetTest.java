package org.dataloader4j.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.dataset.Batch;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.samples.Digits;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class ReaderDatasetTest {
    @TempDir
    static Path dir;
    private static List<Path> train;

    @BeforeAll
    static void copyDigits() throws IOException {
        DigitsMlp.offline();
        train = Digits.train(Digits.copyTo(dir));
    }

    @Test
    void batchesAreNDArraysWithTheReadersValuesShapesAndTypes() {
        List<float[]> expectedImages = new ArrayList<>();
        List<long[]> expectedLabels = new ArrayList<>();
        try (DataReader reader = DigitsMlp.reader(train, 1, null)) {
            for (org.dataloader4j.api.Batch b : reader) {
                expectedImages.add(b.tensor("images").toFloatArray());
                expectedLabels.add(b.tensor("labels").toLongArray());
            }
        }
        try (NDManager manager = NDManager.newBaseManager();
             ReaderDataset dataset = ReaderDataset.of(DigitsMlp.reader(train, 1, null), List.of("images"), List.of("labels"))) {
            int i = 0;
            for (Batch batch : dataset.getData(manager)) {
                try (batch) {
                    NDArray images = batch.getData().singletonOrThrow();
                    NDArray labels = batch.getLabels().singletonOrThrow();
                    int rows = expectedLabels.get(i).length;
                    assertEquals(rows, batch.getSize());
                    assertEquals(new Shape(rows, Digits.PIXELS), images.getShape());
                    assertEquals(DataType.FLOAT32, images.getDataType());
                    assertEquals(new Shape(rows, 1), labels.getShape());
                    assertEquals(DataType.INT64, labels.getDataType());
                    assertArrayEquals(expectedImages.get(i), images.toFloatArray());
                    assertArrayEquals(expectedLabels.get(i), labels.toLongArray());
                    assertEquals(i, batch.getProgress());
                    i++;
                }
            }
            assertEquals(expectedLabels.size(), i);
            assertEquals(i, dataset.steps());
        }
    }

    @Test
    void pyTorchOnTheCpuTakesTheTensorsMemoryWithoutACopy() {
        try (Arena arena = Arena.ofConfined(); NDManager manager = NDManager.newBaseManager()) {
            MemorySegment memory = arena.allocate(6 * Float.BYTES);
            Tensor tensor = Tensor.of("x", memory, org.dataloader4j.api.Shape.of(2, 3), org.dataloader4j.api.DataType.FLOAT32);
            tensor.setFloat(4, 2.5f);
            try (NDArray array = NDArrays.of(manager, tensor)) {
                assertEquals(new Shape(2, 3), array.getShape());
                assertEquals(2.5f, array.getFloat(1, 1));
                // Each side sees the other's writes made after the NDArray was made: one memory.
                tensor.setFloat(0, 7f);
                assertEquals(7f, array.getFloat(0, 0));
                array.addi(1f);
                assertArrayEquals(new float[] {8f, 1f, 1f, 1f, 3.5f, 1f}, tensor.toFloatArray());
            }
        }
    }

    @Test
    void anIterationEndsAtTheFirstBatchOfTheNextEpochAndAnIterationAtTheEndIsEmpty() {
        // In file order: a shuffle buffer would mix the epochs near their boundary.
        DataReader reader = OFRecordReader.builder().files(train).batchSize(DigitsMlp.BATCH_SIZE).epochs(2)
                .decoder(OFRecordRawDecoder.of("labels", org.dataloader4j.api.Shape.of(1), org.dataloader4j.api.DataType.INT64))
                .build();
        try (NDManager manager = NDManager.newBaseManager();
             ReaderDataset dataset = ReaderDataset.of(reader, List.of("labels"), List.of())) {
            int[] rows = new int[2];
            for (int epoch = 0; epoch < 2; epoch++) {
                for (Batch batch : dataset.getData(manager)) {
                    rows[epoch] += batch.getSize();
                    batch.close();
                }
            }
            // 44 batches of epoch 0 alone; the 45th holds its last 30 images and the first 2 of epoch 1.
            assertArrayEquals(new int[] {44 * 32, 2 * 1438 - 44 * 32}, rows);
            assertFalse(dataset.getData(manager).iterator().hasNext());
        }
    }

    @Test
    void theNextBatchWaitsUntilDjlHasClosedTheLast() {
        try (NDManager manager = NDManager.newBaseManager();
             ReaderDataset dataset = ReaderDataset.of(DigitsMlp.reader(train, 1, null), List.of("images"), List.of("labels"))) {
            Iterator<Batch> batches = dataset.getData(manager).iterator();
            Batch first = batches.next();
            IllegalStateException e = assertThrows(IllegalStateException.class, batches::hasNext);
            assertTrue(e.getMessage().startsWith("the last batch is still open"), e.getMessage());
            first.close();
            assertTrue(batches.hasNext());
            batches.next().close();
        }
    }

    @Test
    void closingTheDatasetClosesTheReaderAndFreesItsMemory() {
        DataReader reader = DigitsMlp.reader(train, 1, null);
        try (NDManager manager = NDManager.newBaseManager()) {
            ReaderDataset dataset = ReaderDataset.of(reader, List.of("images"), List.of("labels"));
            dataset.getData(manager).iterator().next().close();
            dataset.close();
            dataset.close();
        }
        assertTrue(reader.isClosed());
        assertEquals(0, reader.offHeapBytes());
    }

    @Test
    void anUnknownOutputIsNamed() {
        try (NDManager manager = NDManager.newBaseManager();
             ReaderDataset dataset = ReaderDataset.of(DigitsMlp.reader(train, 1, null), List.of("pixels"), List.of("labels"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> dataset.getData(manager).iterator().next());
            assertTrue(e.getMessage().contains("pixels"), e.getMessage());
        }
    }
}
