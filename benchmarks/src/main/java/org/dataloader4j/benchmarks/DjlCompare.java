package org.dataloader4j.benchmarks;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Blocks;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.EasyTrain;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.ArrayDataset;
import ai.djl.training.dataset.Batch;
import ai.djl.training.dataset.Dataset;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import ai.djl.translate.TranslateException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.dataloader4j.api.DataType;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.djl.ReaderDataset;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.samples.Digits;

/**
 * Steps per second of a DJL training loop fed by a {@link ReaderDataset} against the same loop
 * fed by DJL's own {@link ArrayDataset} holding the same images in NDArrays: the training digits,
 * batches of 32 shuffled each epoch, on PyTorch's CPU engine. Two loops each: {@code iterate}
 * takes and closes every batch, {@code train} also runs a step of a 64-64-10 MLP
 * ({@code EasyTrain.trainBatch} and {@code Trainer.step}). Each system runs a warm-up of the same
 * length first; one {@code RESULT} line per system and loop.
 *
 * <pre>
 * benchmarks/run-djl.sh [epochs (default 50)] [rounds (default 3)]
 * </pre>
 */
public final class DjlCompare {
    private static final int BATCH_SIZE = 32;
    private static final long SEED = 7;

    private DjlCompare() {
    }

    /**
     * Runs the comparison.
     *
     * @param args the epochs of each timed run, and the rounds of the whole comparison
     * @throws IOException        if the digits cannot be copied
     * @throws TranslateException if DJL fails
     */
    public static void main(String[] args) throws IOException, TranslateException {
        int epochs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        System.setProperty("ai.djl.offline", "true");
        Path dir = Files.createTempDirectory("djl-compare");
        List<Path> train = Digits.train(Digits.copyTo(dir));
        try (NDManager manager = NDManager.newBaseManager(Device.cpu())) {
            ArrayDataset arrays = arrayDataset(manager, train);
            for (int round = 0; round < rounds; round++) {
                for (boolean step : new boolean[] {false, true}) {
                    run("dataloader4j", step, epochs, () -> ReaderDataset.of(reader(train, epochs), List.of("images"), List.of("labels")));
                    run("ArrayDataset", step, epochs, () -> arrays);
                }
            }
        }
    }

    /** Opens the dataset of one run. */
    @FunctionalInterface
    private interface DatasetFactory {
        Dataset open();
    }

    private static void run(String system, boolean step, int epochs, DatasetFactory datasets)
            throws IOException, TranslateException {
        pass(step, epochs, datasets);
        Pass timed = pass(step, epochs, datasets);
        System.out.printf(Locale.ROOT, "RESULT system=%s loop=%s epochs=%d steps=%d seconds=%.3f steps/s=%.0f%n", system,
                step ? "train" : "iterate", epochs, timed.steps, timed.nanos / 1e9, timed.steps / (timed.nanos / 1e9));
    }

    private record Pass(long steps, long nanos) {
    }

    private static Pass pass(boolean step, int epochs, DatasetFactory datasets) throws IOException, TranslateException {
        Engine.getInstance().setRandomSeed((int) SEED);
        try (Model model = mlp(); Trainer trainer = trainer(model)) {
            Dataset dataset = datasets.open();
            long steps = 0;
            long start = System.nanoTime();
            try {
                for (int e = 0; e < epochs; e++) {
                    for (Batch batch : trainer.iterateDataset(dataset)) {
                        if (step) {
                            EasyTrain.trainBatch(trainer, batch);
                            trainer.step();
                        }
                        batch.close();
                        steps++;
                    }
                }
            } finally {
                if (dataset instanceof AutoCloseable c) {
                    try {
                        c.close();
                    } catch (Exception ex) {
                        throw new IllegalStateException(ex);
                    }
                }
            }
            return new Pass(steps, System.nanoTime() - start);
        }
    }

    private static DataReader reader(List<Path> files, int epochs) {
        return OFRecordReader.builder().files(files).batchSize(BATCH_SIZE)
                .randomShuffle(true).shuffleAfterEpoch(true).seed(SEED).epochs(epochs)
                .decoder(OFRecordRawDecoder.of("images", org.dataloader4j.api.Shape.of(Digits.PIXELS), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("labels", org.dataloader4j.api.Shape.of(1), DataType.INT64))
                .build();
    }

    /** The training digits in two NDArrays of {@code manager}, read once, as DJL's own dataset. */
    private static ArrayDataset arrayDataset(NDManager manager, List<Path> files) {
        int n = Digits.RECORDS - Digits.TEST_RECORDS;
        float[] images = new float[n * Digits.PIXELS];
        long[] labels = new long[n];
        int row = 0;
        try (DataReader reader = OFRecordReader.builder().files(files).batchSize(BATCH_SIZE)
                .decoder(OFRecordRawDecoder.of("images", org.dataloader4j.api.Shape.of(Digits.PIXELS), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("labels", org.dataloader4j.api.Shape.of(1), DataType.INT64))
                .build()) {
            for (org.dataloader4j.api.Batch b : reader) {
                float[] x = b.tensor("images").toFloatArray();
                long[] y = b.tensor("labels").toLongArray();
                System.arraycopy(x, 0, images, row * Digits.PIXELS, x.length);
                System.arraycopy(y, 0, labels, row, y.length);
                row += y.length;
            }
        }
        NDArray x = manager.create(images, new Shape(n, Digits.PIXELS));
        NDArray y = manager.create(labels, new Shape(n, 1));
        return new ArrayDataset.Builder().setData(x).optLabels(y).setSampling(BATCH_SIZE, true).build();
    }

    private static Model mlp() {
        Model model = Model.newInstance("mlp", Device.cpu());
        model.setBlock(new SequentialBlock()
                .add(Blocks.batchFlattenBlock(Digits.PIXELS))
                .add(Linear.builder().setUnits(64).build())
                .add(Activation::relu)
                .add(Linear.builder().setUnits(Digits.CLASSES).build()));
        return model;
    }

    private static Trainer trainer(Model model) {
        Trainer trainer = model.newTrainer(new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
                .optOptimizer(Optimizer.sgd().setLearningRateTracker(Tracker.fixed(0.1f)).build())
                .optDevices(new Device[] {Device.cpu()}));
        trainer.initialize(new Shape(BATCH_SIZE, Digits.PIXELS));
        return trainer;
    }
}
