package org.dataloader4j.cli;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import javax.imageio.ImageIO;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;

/** Pictures made with the JDK for the image commands' tests, and their pixels as the decoders give them. */
final class TestImages {
    private TestImages() {
    }

    /**
     * A picture of {@code width × height}: smooth gradients (so that a JPEG of it stays close to
     * it) with noise from {@code random}.
     */
    static BufferedImage picture(int width, int height, Random random) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        int phase = random.nextInt(256);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int r = (x * 255 / width + phase) & 0xFF;
                int g = (y * 255 / height) & 0xFF;
                int b = random.nextInt(256);
                image.setRGB(x, y, r << 16 | g << 8 | b);
            }
        }
        return image;
    }

    /**
     * Writes {@code records} OFRecords to {@code parts} part files in {@code dir}: each an
     * {@code encoded} picture of its own size between 40 and 119 pixels a side (PNG and JPEG in
     * turn) and its index as {@code label}.
     */
    static void writeRecords(Path dir, int records, int parts, long seed) throws IOException {
        Random random = new Random(seed);
        try (PartWriter w = PartWriter.create(dir, parts)) {
            for (int i = 0; i < records; i++) {
                BufferedImage image = picture(40 + random.nextInt(80), 40 + random.nextInt(80), random);
                w.write(Features.record(Map.of("encoded", Features.bytesFeature(encode(image, i % 2 == 0 ? "png" : "jpeg")),
                        "label", Features.int64Feature(i))));
            }
        }
    }

    /** {@code image} encoded as {@code format} ({@code png}, {@code jpeg}) by ImageIO. */
    static byte[] encode(BufferedImage image, String format) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            if (!ImageIO.write(image, format, out)) {
                throw new IllegalStateException("no ImageIO writer for " + format);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The RGB bytes of {@code image}, row-major, height × width × 3. */
    static byte[] rgb(BufferedImage image) {
        byte[] out = new byte[image.getWidth() * image.getHeight() * 3];
        int at = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int p = image.getRGB(x, y);
                out[at++] = (byte) (p >> 16);
                out[at++] = (byte) (p >> 8);
                out[at++] = (byte) p;
            }
        }
        return out;
    }

    /** The SHA-256 of {@code bytes}, in lower-case hex. */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
