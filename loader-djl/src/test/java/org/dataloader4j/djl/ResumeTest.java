package org.dataloader4j.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.Model;
import ai.djl.training.EasyTrain;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.Batch;
import ai.djl.training.listener.TrainingListenerAdapter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.samples.Digits;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A run interrupted after some steps and resumed from a checkpoint (the model's parameters and the
 * reader's state, in one file) has the same loss at every step as a run that was not interrupted.
 */
class ResumeTest {
    private static final int EPOCHS = 2;
    /** Batches of two epochs: 2 x 1,438 training images in batches of 32, the last one partial. */
    private static final int STEPS = 90;

    @TempDir
    static Path dir;
    private static List<Path> train;
    private static List<Float> uninterrupted;

    @BeforeAll
    static void trainWithoutInterruption() throws Exception {
        train = Digits.train(Digits.copyTo(dir.resolve("digits")));
        uninterrupted = new ArrayList<>();
        try (Model model = DigitsMlp.model(); Trainer trainer = DigitsMlp.trainer(model, new Losses(uninterrupted));
             ReaderDataset dataset = dataset(null)) {
            EasyTrain.fit(trainer, EPOCHS, dataset, null);
        }
        assertEquals(STEPS, uninterrupted.size());
    }

    /**
     * Trains {@code iterations} whole iterations of the dataset and {@code steps} steps into the
     * next, saves a checkpoint and stops; then resumes from it in a new model and reader. Inside
     * the first iteration; at its end, where the dataset has already read the next one's first
     * batch and keeps it; and inside the second.
     */
    @ParameterizedTest
    @CsvSource({"0, 7", "1, 0", "1, 3"})
    @Timeout(300)
    void resumedLossesEqualTheUninterruptedOnesStepForStep(int iterations, int steps) throws Exception {
        Path checkpoint = dir.resolve("checkpoint-" + iterations + "-" + steps);
        List<Float> losses = new ArrayList<>();
        try (Model model = DigitsMlp.model(); Trainer trainer = DigitsMlp.trainer(model, new Losses(losses));
             ReaderDataset dataset = dataset(null)) {
            EasyTrain.fit(trainer, iterations, dataset, null);
            int before = losses.size();
            if (steps > 0) {
                for (Batch batch : trainer.iterateDataset(dataset)) {
                    EasyTrain.trainBatch(trainer, batch);
                    trainer.step();
                    batch.close();
                    if (losses.size() == before + steps) {
                        break;
                    }
                }
            }
            assertEquals(before + steps, losses.size());
            assertEquals(losses.size(), dataset.steps());
            DigitsMlp.save(checkpoint, dataset.state(), model.getBlock());
        }

        try (Model model = DigitsMlp.model()) {
            DatasetState state = DigitsMlp.restore(checkpoint, model.getBlock(), model.getNDManager());
            try (Trainer trainer = DigitsMlp.trainer(model, new Losses(losses)); ReaderDataset dataset = dataset(state)) {
                // The iteration the run stopped in, if it stopped inside one, and those after it.
                EasyTrain.fit(trainer, EPOCHS - iterations, dataset, null);
            }
        }
        assertEquals(uninterrupted, losses);
    }

    private static ReaderDataset dataset(DatasetState restore) {
        return ReaderDataset.of(DigitsMlp.reader(train, EPOCHS, restore), List.of("images"), List.of("labels"));
    }

    /** Collects the loss of every training step. */
    private static final class Losses extends TrainingListenerAdapter {
        private final List<Float> losses;

        Losses(List<Float> losses) {
            this.losses = losses;
        }

        @Override
        public void onTrainingBatch(Trainer trainer, BatchData batchData) {
            losses.add(DigitsMlp.loss(trainer, batchData));
        }
    }
}
