package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.dataloader4j.api.Batch;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.image.CropMirrorNormalize;
import org.dataloader4j.image.ImageTransform;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code loader preview}: the first batch of the training path, un-normalized, as a PNG grid. */
@Timeout(120)
class PreviewCommandTest {
    private static final int CELL = 224;

    @TempDir
    Path dir;

    /**
     * Seven images make a grid of three columns and three rows of 224 × 224 cells; each cell holds
     * the row the reader gives for the same transform and seed (training path, mean 0, std 1, NHWC),
     * rounded to bytes; the cells after the last image are black.
     */
    @Test
    void writesTheFirstBatchAsAGridOfTheReadersRows() throws IOException {
        Path data = dir.resolve("data");
        TestImages.writeRecords(data, 20, 2, 5);
        Path grid = dir.resolve("grid.png");
        Cli.Result r = Cli.run("preview", data.toString(), "--image", "encoded", "--batch", "7", "--seed", "9",
                "-o", grid.toString());
        assertEquals(0, r.code(), r::toString);
        assertEquals(List.of("wrote " + grid + ": 7 images of encoded in 3 x 3 cells of 224x224 (seed 9)"), r.lines());
        BufferedImage png = ImageIO.read(grid.toFile());
        assertNotNull(png, "a PNG ImageIO reads");
        assertEquals(3 * CELL, png.getWidth());
        assertEquals(3 * CELL, png.getHeight());

        ImageTransform unnormalized = ImageTransform.training("encoded", 9)
                .normalize(new float[] {0, 0, 0}, new float[] {1, 1, 1}).layout(CropMirrorNormalize.Layout.NHWC);
        float[] rows;
        try (DataReader reader = OFRecordReader.builder().files(List.of(data.resolve("part-00000"), data.resolve("part-00001")))
                .batchSize(7).reader(o -> o.name("preview-check")).imageTransform(unnormalized).build()) {
            Batch b = reader.read();
            assertEquals(7, b.size());
            rows = b.tensor("encoded").toFloatArray();
        }
        for (int row : new int[] {0, 4, 6}) {
            int left = (row % 3) * CELL;
            int top = (row / 3) * CELL;
            for (int y = 0; y < CELL; y++) {
                for (int x = 0; x < CELL; x++) {
                    int at = ((row * CELL + y) * CELL + x) * 3;
                    int want = rounded(rows[at]) << 16 | rounded(rows[at + 1]) << 8 | rounded(rows[at + 2]);
                    assertEquals(want, png.getRGB(left + x, top + y) & 0xFFFFFF, "row " + row + " pixel " + x + "," + y);
                }
            }
        }
        assertEquals(0, png.getRGB(2 * CELL + 100, 2 * CELL + 100) & 0xFFFFFF, "the last cell has no image");
    }

    @Test
    void anImageFeatureAndAnOutputAreRequired() {
        Cli.Result r = Cli.run("preview", dir.toString(), "--image", "encoded");
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().startsWith("loader: Missing required option: '--output=PNG'"), r::toString);
    }

    private static int rounded(float v) {
        return Math.clamp(Math.round(v), 0, 255);
    }
}
