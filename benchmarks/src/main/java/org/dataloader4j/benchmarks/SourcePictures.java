package org.dataloader4j.benchmarks;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.imageio.ImageIO;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.RecordReader;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.format.tf.Feature;

/**
 * The real photographs that {@link ImageNetLike} composes its pictures from, read from the
 * project's real image files ({@code shared/testdata/real/images}, see its {@code SOURCES.md}):
 *
 * <ul>
 *   <li><b>views</b>: the 20 Street View crops of the FSNS records (5 PNGs of 600 × 150, each four
 *       150 × 150 views of one street-name sign), photographs with text, stone and foliage;</li>
 *   <li><b>thumbnails</b>: the 256 CIFAR-10 photographs of the tfx records (32 × 32 PNGs).</li>
 * </ul>
 *
 * The deeplab record's JPEGs are left out: they are noise, not photographs.
 *
 * @param views      the FSNS views, 150 × 150 each
 * @param thumbnails the CIFAR-10 photographs, 32 × 32 each
 */
public record SourcePictures(List<BufferedImage> views, List<BufferedImage> thumbnails) {
    /** Where the real images lie under the shared folder. */
    public static final String RELATIVE = "shared/testdata/real/images";
    private static final String FSNS = "tensorflow-models/attention_ocr/fsns/fsns-00000-of-00001";
    private static final List<String> CIFAR = List.of("tensorflow-tfx/cifar10/train/cifar10_train.tfrecord",
            "tensorflow-tfx/cifar10/test/cifar10_test.tfrecord");
    private static final int VIEW = 150;

    /** Copies the lists. */
    public SourcePictures {
        views = List.copyOf(views);
        thumbnails = List.copyOf(thumbnails);
    }

    /** {@value #RELATIVE} in the nearest folder at or above the working directory, if there is one. */
    public static Optional<Path> find() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve(RELATIVE);
            if (Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Reads the photographs under {@code dir} (a copy of {@value #RELATIVE}).
     *
     * @throws IOException naming a file that is missing or does not hold what {@code SOURCES.md} says
     */
    public static SourcePictures read(Path dir) throws IOException {
        List<BufferedImage> views = new ArrayList<>();
        for (BufferedImage strip : images(dir.resolve(FSNS), "image/encoded")) {
            for (int x = 0; x + VIEW <= strip.getWidth(); x += VIEW) {
                views.add(rgb(strip.getSubimage(x, 0, VIEW, Math.min(VIEW, strip.getHeight()))));
            }
        }
        List<BufferedImage> thumbnails = new ArrayList<>();
        for (String file : CIFAR) {
            images(dir.resolve(file), "image").forEach(p -> thumbnails.add(rgb(p)));
        }
        if (views.isEmpty() || thumbnails.isEmpty()) {
            throw new IOException("no photographs in " + dir + ": views=" + views.size() + " thumbnails=" + thumbnails.size());
        }
        return new SourcePictures(views, thumbnails);
    }

    /** The image in bytes feature {@code key} of every tf.Example of the TFRecord file {@code file}. */
    private static List<BufferedImage> images(Path file, String key) throws IOException {
        List<BufferedImage> out = new ArrayList<>();
        try (RecordReader in = RecordReader.open(file, Framing.TFRECORD, Compression.NONE, true)) {
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                Feature f = Example.parseFrom(r.payload()).getFeatures().getFeatureMap().get(key);
                if (f == null || f.getBytesList().getValueCount() != 1) {
                    throw new IOException(file + ": a record without one image in feature " + key);
                }
                BufferedImage image = ImageIO.read(new ByteArrayInputStream(f.getBytesList().getValue(0).toByteArray()));
                if (image == null) {
                    throw new IOException(file + ": an image in feature " + key + " that ImageIO cannot read");
                }
                out.add(image);
            }
        }
        return out;
    }

    /** {@code image} as a {@code TYPE_INT_RGB} copy of its own. */
    private static BufferedImage rgb(BufferedImage image) {
        BufferedImage copy = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
        copy.createGraphics().drawImage(image, 0, 0, null);
        return copy;
    }
}
