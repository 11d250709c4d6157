package org.dataloader4j.cli;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import javax.imageio.ImageIO;
import org.dataloader4j.api.Batch;
import org.dataloader4j.cli.internal.CliException;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.cli.internal.InputFile;
import org.dataloader4j.cli.internal.InputFiles;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.format.Framing;
import org.dataloader4j.image.CropMirrorNormalize;
import org.dataloader4j.image.ImageTransform;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.tfrecord.TFRecordReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code loader preview}: the first batch of an image feature as the training path augments it,
 * saved as one PNG grid to look at. The transform is {@link ImageTransform#training} without its
 * normalization (mean 0, std 1: RGB values on 0–255) and channels last; each value is rounded to
 * the nearest integer for the PNG. Row {@code i} of the batch is the cell in column
 * {@code i % columns}, row {@code i / columns}, with {@code columns = ceil(sqrt(N))}.
 */
@Command(name = "preview", mixinStandardHelpOptions = true,
        description = {"Read the first batch of an image feature through the training path (a random resized crop "
                + "to 224×224 and a coin-flip mirror, as bench --image runs it, but not normalized) and write its "
                + "images as one PNG grid, ceil(sqrt(N)) cells a row, row i of the batch in cell i, left to right."},
        footer = {"%nExample:%n  loader preview flowers-of/ --image encoded --batch 16 --seed 7 -o grid.png", ExitCodes.HELP})
final class PreviewCommand implements Callable<Integer> {
    /** The side of one cell: the training path's 224 × 224. */
    private static final int CELL = 224;

    @ParentCommand
    private Loader loader;

    @Mixin
    private RecordInputs inputs;

    @Option(names = "--image", paramLabel = "FEATURE", required = true, description = "the bytes feature of one JPEG or PNG a record")
    private String image;

    @Option(names = {"-o", "--output"}, paramLabel = "PNG", required = true, description = "the grid's file (replaced if it exists)")
    private Path output;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "16", description = "images in the grid: the batch size (default: ${DEFAULT-VALUE})")
    private int batch;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "0", description = "the seed of the random crops and flips (default: ${DEFAULT-VALUE})")
    private long seed;

    /** The transform whose first batch the grid shows: the training path, on 0–255, channels last. */
    private static ImageTransform transform(String feature, long seed) {
        return ImageTransform.training(feature, seed).normalize(new float[] {0, 0, 0}, new float[] {1, 1, 1})
                .layout(CropMirrorNormalize.Layout.NHWC);
    }

    @Override
    public Integer call() throws IOException {
        if (batch < 1) {
            throw new IllegalArgumentException("--batch must be > 0: batch=" + batch);
        }
        ImageTransform transform = transform(image, seed);
        BufferedImage grid;
        int count;
        int columns;
        try (InputFiles opened = inputs.open();
             DataReader reader = build(opened.files(), inputs.formatOf(opened.files().get(0)).framing(), transform)) {
            Batch b = reader.read();
            if (b == null) {
                throw new CliException(ExitCodes.BAD_DATA, inputs.shown() + ": no records");
            }
            count = b.size();
            columns = (int) Math.ceil(Math.sqrt(count));
            grid = grid(b.tensor(image).toFloatArray(), count, columns);
        }
        try (OutputStream out = Files.newOutputStream(output)) {
            if (!ImageIO.write(grid, "png", out)) {
                throw new IllegalStateException("ImageIO has no PNG writer");
            }
        }
        loader.terminal().out().printf("wrote %s: %d %s of %s in %d x %d cells of %dx%d (seed %d)%n", output, count,
                count == 1 ? "image" : "images", image, columns, grid.getHeight() / CELL, CELL, CELL, seed);
        return ExitCodes.OK;
    }

    private DataReader build(List<InputFile> files, Framing framing, ImageTransform transform) {
        if (framing == Framing.OFRECORD) {
            return inputs.readFiles(OFRecordReader.builder(), files).batchSize(batch).reader(o -> o.name("preview"))
                    .imageTransform(transform).build();
        }
        return inputs.readFiles(TFRecordReader.builder(), files).batchSize(batch).reader(o -> o.name("preview"))
                .imageTransform(transform).build();
    }

    /** The {@code count} rows of {@code pixels} (NHWC, RGB, 0–255) in a grid of {@code columns} cells a row. */
    private static BufferedImage grid(float[] pixels, int count, int columns) {
        int rows = (count + columns - 1) / columns;
        BufferedImage grid = new BufferedImage(columns * CELL, rows * CELL, BufferedImage.TYPE_INT_RGB);
        for (int i = 0; i < count; i++) {
            int left = (i % columns) * CELL;
            int top = (i / columns) * CELL;
            int at = i * CELL * CELL * 3;
            for (int y = 0; y < CELL; y++) {
                for (int x = 0; x < CELL; x++, at += 3) {
                    grid.setRGB(left + x, top + y, byteOf(pixels[at]) << 16 | byteOf(pixels[at + 1]) << 8 | byteOf(pixels[at + 2]));
                }
            }
        }
        return grid;
    }

    /** A value on 0–255 rounded to the nearest integer, clamped to a byte's range. */
    private static int byteOf(float v) {
        return Math.clamp(Math.round(v), 0, 255);
    }
}
