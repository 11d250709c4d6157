package org.dataloader4j.samples;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;

/**
 * Synthetic MNIST-like OFRecord data for benchmarks and soak runs: as many records as asked,
 * each 784 float32 {@code images} and an int64 {@code labels}, the image a noisy copy of its
 * class's random prototype. A linear model separates the classes: the data exercises the loader,
 * not the model. {@link Digits} is the real dataset the samples train on.
 */
public final class MnistLike {
    /** Pixels per image, as in MNIST. */
    public static final int PIXELS = 784;
    /** Classes, as in MNIST. */
    public static final int CLASSES = 10;

    private MnistLike() {
    }

    /**
     * Writes {@code records} records over {@code parts} part files in {@code dir}: label
     * {@code c} uniform over the classes, image = class {@code c}'s random prototype plus
     * Gaussian noise, clipped to [0, 1]. The same {@code seed} writes the same files.
     *
     * @throws IOException if the files cannot be written
     */
    public static void writeData(Path dir, int records, int parts, long seed) throws IOException {
        Random random = new Random(seed);
        float[][] prototypes = new float[CLASSES][PIXELS];
        for (float[] p : prototypes) {
            for (int i = 0; i < PIXELS; i++) {
                p[i] = random.nextFloat() < 0.3f ? 1f : 0f;
            }
        }
        try (PartWriter out = PartWriter.create(dir, parts)) {
            float[] image = new float[PIXELS];
            for (int r = 0; r < records; r++) {
                int label = random.nextInt(CLASSES);
                for (int i = 0; i < PIXELS; i++) {
                    image[i] = (float) Math.min(1, Math.max(0, prototypes[label][i] + 0.5 * random.nextGaussian()));
                }
                out.write(Features.record(Map.of(
                        "images", Features.floatFeature(image),
                        "labels", Features.int64Feature(label))));
            }
        }
    }
}
