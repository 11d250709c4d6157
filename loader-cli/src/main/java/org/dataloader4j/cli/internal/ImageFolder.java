package org.dataloader4j.cli.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;

/**
 * A folder of images in one subfolder per class ({@code flowers/daisy/1.jpg}), as OFRecords the
 * way OneFlow's image-classification reader expects them: the file's bytes, undecoded, as
 * {@value #ENCODED} (a bytes list of one value) and the class's index as {@value #LABEL} (an
 * int64 list of one value). Classes are the subfolders in name order, numbered from 0; images
 * are the files with an image extension ({@link #EXTENSIONS}), in name order within a class,
 * or shuffled with a seed.
 */
public final class ImageFolder {
    /** The feature of the image bytes. */
    public static final String ENCODED = "encoded";
    /** The feature of the class index. */
    public static final String LABEL = "class/label";
    /** The extensions taken for images, in lower case. */
    public static final Set<String> EXTENSIONS = Set.of("jpg", "jpeg", "png", "bmp", "gif", "webp", "tif", "tiff", "ppm", "pgm");

    private final List<String> classes;
    private final List<Image> images;
    private final long skipped;

    /** One image and its class index. */
    private record Image(Path file, int label) {
    }

    private ImageFolder(List<String> classes, List<Image> images, long skipped) {
        this.classes = classes;
        this.images = images;
        this.skipped = skipped;
    }

    /**
     * The classes and images of {@code dir}.
     *
     * @throws CliException (bad data) if {@code dir} has no class subfolders or no images
     */
    public static ImageFolder of(Path dir) throws IOException {
        List<Path> classDirs;
        try (Stream<Path> list = Files.list(dir)) {
            classDirs = list.filter(p -> Files.isDirectory(p) && !p.getFileName().toString().startsWith(".")).sorted().toList();
        }
        if (classDirs.isEmpty()) {
            throw new CliException(ExitCodes.BAD_DATA, dir + ": no class subfolders (expected DIR/<class>/<image>)");
        }
        List<String> classes = new ArrayList<>();
        List<Image> images = new ArrayList<>();
        long skipped = 0;
        for (Path classDir : classDirs) {
            int label = classes.size();
            classes.add(classDir.getFileName().toString());
            List<Path> files;
            try (Stream<Path> list = Files.list(classDir)) {
                files = list.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path f : files) {
                if (isImage(f)) {
                    images.add(new Image(f, label));
                } else {
                    skipped++;
                }
            }
        }
        if (images.isEmpty()) {
            throw new CliException(ExitCodes.BAD_DATA, dir + ": no images in its class subfolders (extensions: "
                    + new java.util.TreeSet<>(EXTENSIONS) + ")");
        }
        return new ImageFolder(List.copyOf(classes), images, skipped);
    }

    /**
     * Whether {@code dir} holds only folders (hidden entries aside), and one of them an image:
     * a folder of class folders, not a folder of record files.
     */
    public static boolean looksLikeOne(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        List<Path> entries;
        try (Stream<Path> list = Files.list(dir)) {
            entries = list.filter(p -> !p.getFileName().toString().startsWith(".")).toList();
        }
        if (entries.isEmpty() || !entries.stream().allMatch(Files::isDirectory)) {
            return false;
        }
        for (Path classDir : entries) {
            try (Stream<Path> list = Files.list(classDir)) {
                if (list.anyMatch(f -> Files.isRegularFile(f) && isImage(f))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isImage(Path f) {
        String name = f.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return !name.startsWith(".") && dot > 0 && EXTENSIONS.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    /** Shuffles the images with {@code seed} (Fisher–Yates, {@link Collections#shuffle}). */
    public void shuffle(long seed) {
        Collections.shuffle(images, new Random(seed));
    }

    /** The class names, by index. */
    public List<String> classes() {
        return classes;
    }

    /** How many images each class has, by index. */
    public long[] counts() {
        long[] counts = new long[classes.size()];
        images.forEach(i -> counts[i.label]++);
        return counts;
    }

    /** The files left out for not having an image extension. */
    public long skipped() {
        return skipped;
    }

    /** Writes one record per image to {@code out}; calls {@code progress} after each. */
    public long writeTo(PartWriter out, Runnable progress) throws IOException {
        for (Image image : images) {
            out.write(Features.record(Map.of(
                    ENCODED, Features.bytesFeature(Files.readAllBytes(image.file)),
                    LABEL, Features.int64Feature(image.label))));
            progress.run();
        }
        return images.size();
    }

    /** The number of images. */
    public int size() {
        return images.size();
    }
}
