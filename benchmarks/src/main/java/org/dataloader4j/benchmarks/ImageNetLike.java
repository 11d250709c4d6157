package org.dataloader4j.benchmarks;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.SplittableRandom;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * ImageNet-like JPEGs made from real photographs: 500 × 375 pictures, baseline, 4:2:0, of 85 to
 * 110 kB each (kB = 1,000 bytes; the bounds are aimed at, not enforced), about what a training
 * image of ImageNet is.
 *
 * <p>Picture {@code i} is drawn from its own generator, seeded by the seed and {@code i}, so any
 * picture can be made alone, on any thread, and is the same every time:
 *
 * <ol>
 *   <li>a mosaic of FSNS views: square cells of 165 to 255 pixels, rows shifted at random, each
 *       cell a window of a view scaled 1.1 to 1.7 times (bilinear), maybe mirrored;</li>
 *   <li>4 to 9 tiles over it: a window of a view or a CIFAR-10 photograph, scaled to 80 to 220
 *       pixels a side, anywhere, maybe mirrored;</li>
 *   <li>each channel's gain (0.85 to 1.15) and offset (-12 to 12), and a Gaussian grain of 5 to 9
 *       levels: scaled-up photographs are smoother than a camera's, and the grain gives the
 *       picture the fine detail that makes its JPEG as large as an ImageNet photograph's at a
 *       usual quality;</li>
 *   <li>encoded by ImageIO's JPEG writer (baseline, 4:2:0, its standard Huffman tables) at the
 *       quality, found by bisection between 0.80 and 0.99 in five encodings, whose size is
 *       nearest a target drawn from 88 to 107 kB.</li>
 * </ol>
 *
 * <p>A maker is single-threaded and holds an ImageIO writer until closed; make one per thread
 * (they share the read-only sources).
 */
final class ImageNetLike implements AutoCloseable {
    /** Width of every picture. */
    static final int WIDTH = 500;
    /** Height of every picture. */
    static final int HEIGHT = 375;
    /** The smallest size a picture may have: 85 kB. */
    static final int MIN_BYTES = 85_000;
    /** The largest size a picture may have: 110 kB. */
    static final int MAX_BYTES = 110_000;
    /** Labels are drawn from {@code [0, CLASSES)}, as ImageNet's 1,000 classes. */
    static final int CLASSES = 1000;
    private static final int TARGET_MIN = 88_000;
    private static final int TARGET_MAX = 107_000;
    private static final int SEARCH_STEPS = 5;

    /**
     * One picture.
     *
     * @param jpeg    the encoded picture
     * @param label   its class, in {@code [0, CLASSES)}
     * @param quality the ImageIO quality it was encoded at
     */
    record Picture(byte[] jpeg, int label, float quality) {
    }

    private final SourcePictures sources;
    private final long seed;
    private final ImageWriter writer;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(MAX_BYTES * 2);

    /** A maker of the pictures of {@code seed} from {@code sources}. */
    ImageNetLike(SourcePictures sources, long seed) {
        this.sources = sources;
        this.seed = seed;
        this.writer = ImageIO.getImageWritersByFormatName("jpeg").next();
    }

    /** Picture {@code index}. */
    Picture make(int index) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
        int label = random.nextInt(CLASSES);
        BufferedImage picture = compose(random);
        jitter(picture, random);
        int target = random.nextInt(TARGET_MIN, TARGET_MAX + 1);
        return encodeNear(picture, target, label);
    }

    private BufferedImage compose(SplittableRandom random) {
        BufferedImage picture = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = picture.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            // A mosaic of views, each scaled 1.1 to 1.7 times, under the tiles.
            int cell = random.nextInt(165, 256);
            for (int y = -random.nextInt(cell); y < HEIGHT; y += cell) {
                for (int x = -random.nextInt(cell); x < WIDTH; x += cell) {
                    BufferedImage view = pick(sources.views(), random);
                    int side = Math.min(view.getWidth(), (int) (cell / random.nextDouble(1.1, 1.7)));
                    draw(g, view, random.nextInt(view.getWidth() - side + 1), random.nextInt(view.getHeight() - side + 1),
                            side, side, x, y, cell, cell, random.nextBoolean());
                }
            }
            int tiles = random.nextInt(4, 10);
            for (int t = 0; t < tiles; t++) {
                BufferedImage source = random.nextBoolean() ? pick(sources.views(), random) : pick(sources.thumbnails(), random);
                int sw = Math.max(8, (int) (source.getWidth() * random.nextDouble(0.6, 1.0)));
                int sh = Math.max(8, (int) (source.getHeight() * random.nextDouble(0.6, 1.0)));
                int sx = random.nextInt(source.getWidth() - sw + 1);
                int sy = random.nextInt(source.getHeight() - sh + 1);
                int side = random.nextInt(80, 221);
                int dw = sw >= sh ? side : side * sw / sh;
                int dh = sw >= sh ? side * sh / sw : side;
                int dx = random.nextInt(-dw / 3, WIDTH - dw * 2 / 3);
                int dy = random.nextInt(-dh / 3, HEIGHT - dh * 2 / 3);
                draw(g, source, sx, sy, sw, sh, dx, dy, dw, dh, random.nextBoolean());
            }
        } finally {
            g.dispose();
        }
        return picture;
    }

    private static BufferedImage pick(List<BufferedImage> images, SplittableRandom random) {
        return images.get(random.nextInt(images.size()));
    }

    /** Draws {@code source}'s window {@code (sx, sy, sw, sh)} into {@code (dx, dy, dw, dh)}, mirrored if {@code mirror}. */
    private static void draw(Graphics2D g, BufferedImage source, int sx, int sy, int sw, int sh, int dx, int dy, int dw, int dh,
                             boolean mirror) {
        int left = mirror ? dx + dw : dx;
        int right = mirror ? dx : dx + dw;
        g.drawImage(source, left, dy, right, dy + dh, sx, sy, sx + sw, sy + sh, null);
    }

    /** Each channel's gain and offset, and the grain, in place. */
    private static void jitter(BufferedImage picture, SplittableRandom random) {
        double[] gain = new double[3];
        double[] offset = new double[3];
        for (int c = 0; c < 3; c++) {
            gain[c] = random.nextDouble(0.85, 1.15);
            offset[c] = random.nextDouble(-12, 12);
        }
        double grain = random.nextDouble(5, 9);
        int[] pixels = ((DataBufferInt) picture.getRaster().getDataBuffer()).getData();
        for (int i = 0; i < pixels.length; i++) {
            int p = pixels[i];
            // One grain for the three channels, as a sensor's luminance noise, and a little of its own each.
            double shared = random.nextGaussian() * grain;
            int rgb = 0;
            for (int c = 0; c < 3; c++) {
                int v = (p >> (16 - 8 * c)) & 0xFF;
                double out = v * gain[c] + offset[c] + shared + random.nextGaussian() * grain * 0.5;
                rgb = (rgb << 8) | (int) Math.max(0, Math.min(255, Math.round(out)));
            }
            pixels[i] = rgb;
        }
    }

    /** The encoding of {@code picture} whose size is nearest {@code target}, by bisection on the quality. */
    private Picture encodeNear(BufferedImage picture, int target, int label) {
        float low = 0.80f;
        float high = 0.99f;
        byte[] best = null;
        float bestQuality = 0;
        for (int step = 0; step < SEARCH_STEPS; step++) {
            float quality = (low + high) / 2;
            byte[] jpeg = encode(picture, quality);
            if (best == null || Math.abs(jpeg.length - target) < Math.abs(best.length - target)) {
                best = jpeg;
                bestQuality = quality;
            }
            if (jpeg.length < target) {
                low = quality;
            } else {
                high = quality;
            }
        }
        return new Picture(best, label, bestQuality);
    }

    private byte[] encode(BufferedImage picture, float quality) {
        ImageWriteParam param = writer.getDefaultWriteParam();
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(quality);
        bytes.reset();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            writer.setOutput(out);
            writer.write(null, new IIOImage(picture, null, null), param);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Releases the writer. */
    @Override
    public void close() {
        writer.dispose();
    }
}
