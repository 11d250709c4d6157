package org.dataloader4j.djl;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Blocks;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.EasyTrain;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.Batch;
import ai.djl.training.evaluator.Accuracy;
import ai.djl.training.listener.TrainingListener;
import ai.djl.training.listener.TrainingListenerAdapter;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import ai.djl.translate.TranslateException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.samples.Digits;

/**
 * Trains a DJL multilayer perceptron on the handwritten digits with {@code EasyTrain.fit}, the
 * batches coming from an {@link OFRecordReader} through a {@link ReaderDataset}: the DJL sample.
 *
 * <p>{@link #main} copies the {@link Digits} part files into a temporary folder, trains a
 * 64-64-10 MLP by SGD for {@value #EPOCHS} epochs on the four training parts, printing each
 * epoch's mean loss, and then the accuracy on the held-out part. It sets DJL's offline mode and
 * one PyTorch thread (for the same losses on every run) unless they are set already.
 *
 * <pre>
 * mvn -B -pl loader-djl -am verify -Dtest=DigitsMlpTest -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * <p>{@link #save} and {@link #restore} write and read a checkpoint: the reader's state and
 * the model's parameters in one file.
 */
public final class DigitsMlp {
    /** Passes over the training data. */
    static final int EPOCHS = 30;
    static final int BATCH_SIZE = 32;
    static final long SEED = 7;
    private static final float LEARNING_RATE = 0.1f;

    private DigitsMlp() {
    }

    /**
     * Trains and prints one line per epoch, then the test accuracy.
     *
     * @param args unused
     * @throws IOException        if the digits cannot be copied
     * @throws TranslateException if DJL fails to train
     */
    public static void main(String[] args) throws IOException, TranslateException {
        offline();
        Path dir = Files.createTempDirectory("digits-mlp");
        List<Path> files = Digits.copyTo(dir);
        try (Model model = model();
             Trainer trainer = trainer(model, new EpochLosses());
             ReaderDataset train = ReaderDataset.of(reader(Digits.train(files), EPOCHS, null), List.of("images"), List.of("labels"))) {
            EasyTrain.fit(trainer, EPOCHS, train, null);
            System.out.printf(Locale.ROOT, "test accuracy=%.4f on %d images%n", accuracy(trainer, Digits.test(files)),
                    Digits.TEST_RECORDS);
        } finally {
            try (var left = Files.list(dir)) {
                for (Path f : left.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    /**
     * Keeps DJL off the network (it would download libtorch or its JNI library where they are
     * not on the class path) and PyTorch on one thread, unless the JVM was started with them.
     */
    static void offline() {
        setIfAbsent("ai.djl.offline", "true");
        setIfAbsent("ai.djl.pytorch.num_threads", "1");
        setIfAbsent("ai.djl.pytorch.num_interop_threads", "1");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /** Batches of the digits in {@code files}, shuffled each epoch, continuing from {@code restore} if it is not null. */
    static DataReader reader(List<Path> files, int epochs, DatasetState restore) {
        OFRecordReader.Builder b = OFRecordReader.builder().files(files)
                .batchSize(BATCH_SIZE).randomShuffle(true).shuffleAfterEpoch(true).seed(SEED).epochs(epochs)
                .decoder(OFRecordRawDecoder.of("images", org.dataloader4j.api.Shape.of(Digits.PIXELS), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("labels", org.dataloader4j.api.Shape.of(1), DataType.INT64));
        if (restore != null) {
            b.reader(o -> o.restore(restore));
        }
        return b.build();
    }

    /** A 64-64-10 MLP on the CPU, its parameters drawn from DJL's generator seeded with {@link #SEED}. */
    static Model model() {
        Engine.getInstance().setRandomSeed((int) SEED);
        Model model = Model.newInstance("digits-mlp", Device.cpu());
        model.setBlock(new SequentialBlock()
                .add(Blocks.batchFlattenBlock(Digits.PIXELS))
                .add(Linear.builder().setUnits(64).build())
                .add(Activation::relu)
                .add(Linear.builder().setUnits(Digits.CLASSES).build()));
        return model;
    }

    /**
     * A trainer of {@code model} by plain SGD (no momentum: the parameters are the whole state
     * to checkpoint), its parameters initialized, with {@code listeners}.
     */
    static Trainer trainer(Model model, TrainingListener... listeners) {
        DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
                .optOptimizer(Optimizer.sgd().setLearningRateTracker(Tracker.fixed(LEARNING_RATE)).build())
                .optDevices(new Device[] {Device.cpu()})
                .addEvaluator(new Accuracy())
                .addTrainingListeners(listeners);
        Trainer trainer = model.newTrainer(config);
        trainer.initialize(new Shape(BATCH_SIZE, Digits.PIXELS));
        return trainer;
    }

    /** The accuracy of the trainer's model on the images of {@code test}, read once. */
    static double accuracy(Trainer trainer, Path test) throws IOException, TranslateException {
        long right = 0;
        long samples = 0;
        DataReader testReader = OFRecordReader.builder().files(List.of(test)).batchSize(BATCH_SIZE)
                .decoder(OFRecordRawDecoder.of("images", org.dataloader4j.api.Shape.of(Digits.PIXELS), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("labels", org.dataloader4j.api.Shape.of(1), DataType.INT64))
                .build();
        try (ReaderDataset dataset = ReaderDataset.of(testReader, List.of("images"), List.of("labels"))) {
            for (Batch batch : trainer.iterateDataset(dataset)) {
                try (batch) {
                    NDArray predicted = trainer.evaluate(batch.getData()).singletonOrThrow().argMax(1);
                    NDArray labels = batch.getLabels().singletonOrThrow().reshape(-1);
                    right += predicted.eq(labels).countNonzero().getLong();
                    samples += batch.getSize();
                }
            }
        }
        return (double) right / samples;
    }

    /** Writes {@code state} and the parameters of {@code block} into {@code file}, replacing it. */
    static void save(Path file, DatasetState state, Block block) throws IOException {
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(temp))) {
            byte[] bytes = DatasetStateCodec.toBytes(state);
            out.writeInt(bytes.length);
            out.write(bytes);
            block.saveParameters(out);
        }
        Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Reads the parameters saved in {@code file} into {@code block} and returns the reader state
     * saved with them. Call it before {@link #trainer}, as DJL loads a model before training it:
     * initializing the trainer keeps loaded parameters and marks them for gradients.
     */
    static DatasetState restore(Path file, Block block, NDManager manager) throws IOException {
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            try {
                block.loadParameters(manager, in);
            } catch (ai.djl.MalformedModelException e) {
                throw new IOException("bad parameters in " + file, e);
            }
            return DatasetStateCodec.fromBytes(bytes);
        }
    }

    /** Prints each epoch's mean training loss. */
    private static final class EpochLosses extends TrainingListenerAdapter {
        private double sum;
        private long steps;
        private int epoch;

        @Override
        public void onTrainingBatch(Trainer trainer, BatchData batchData) {
            sum += loss(trainer, batchData);
            steps++;
        }

        @Override
        public void onEpoch(Trainer trainer) {
            System.out.printf(Locale.ROOT, "epoch=%d loss=%.4f%n", epoch++, sum / steps);
            sum = 0;
            steps = 0;
        }
    }

    /** The loss of the batch {@code batchData} describes, as the trainer computed it before its step. */
    static float loss(Trainer trainer, TrainingListener.BatchData batchData) {
        NDList labels = batchData.getLabels().get(Device.cpu());
        NDList predictions = batchData.getPredictions().get(Device.cpu());
        return trainer.getLoss().evaluate(labels, predictions).getFloat();
    }
}
