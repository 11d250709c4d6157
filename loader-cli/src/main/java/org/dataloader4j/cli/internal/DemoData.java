package org.dataloader4j.cli.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.samples.MnistLike;

/**
 * The cache folder of {@code loader demo} and {@code loader soak}, and the synthetic dataset
 * {@code soak} streams there: MNIST-like OFRecord part files written once by
 * {@link MnistLike#writeData} and reused by every later run. Its training files are all the parts
 * but the last. (The demo trains on real digits, which it copies into the same folder.)
 *
 * <p>The folder is complete when the marker file beside it ({@code mnist-like}{@value #MARKER})
 * names the same settings. The folder is written as a temporary folder, renamed into place, and
 * only then marked, so a run stopped halfway leaves no half dataset that a later run would
 * trust; the marker is outside the folder, which holds record files only.
 */
public final class DemoData {
    /** The file that marks a complete dataset, with the settings it was written with. */
    static final String MARKER = ".complete";
    /** Records written. */
    public static final int RECORDS = 10_000;
    /** Part files written; the last one is the test set. */
    public static final int PARTS = 5;
    /** The seed of the data. */
    public static final long SEED = 7;

    private DemoData() {
    }

    /** The folder the demo caches its data in: {@code cache}, else under XDG_CACHE_HOME, else under ~/.cache. */
    public static Path cacheDir(Path cache, Map<String, String> env) {
        if (cache != null) {
            return cache;
        }
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "dataloader4j", "demo");
        }
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        return Path.of(home, ".cache", "dataloader4j", "demo");
    }

    /**
     * The dataset folder under {@code cacheDir}, written first if it is missing or incomplete.
     *
     * @param written set to true if it was written by this call
     */
    public static Path ensure(Path cacheDir, boolean[] written) throws IOException {
        Path dir = cacheDir.resolve("mnist-like");
        String settings = "records=" + RECORDS + " parts=" + PARTS + " seed=" + SEED + " format=1\n";
        Path marker = cacheDir.resolve(dir.getFileName() + MARKER);
        if (Files.isRegularFile(marker) && Files.readString(marker, StandardCharsets.UTF_8).equals(settings)) {
            written[0] = false;
            return dir;
        }
        Files.createDirectories(cacheDir);
        Files.deleteIfExists(marker);
        Path temp = Files.createTempDirectory(cacheDir, "mnist-like.tmp");
        try {
            MnistLike.writeData(temp, RECORDS, PARTS, SEED);
            deleteTree(dir);
            try {
                Files.move(temp, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, dir);
            }
        } finally {
            deleteTree(temp);
        }
        Files.writeString(marker, settings, StandardCharsets.UTF_8);
        written[0] = true;
        return dir;
    }

    /** The training part files of the dataset in {@code dir}. */
    public static List<Path> trainFiles(Path dir) {
        List<Path> files = new ArrayList<>();
        for (int p = 0; p < PARTS - 1; p++) {
            files.add(dir.resolve(String.format("%s%05d", PartWriter.PREFIX, p)));
        }
        return files;
    }

    /** The held-out test part of the dataset in {@code dir}. */
    public static Path testFile(Path dir) {
        return dir.resolve(String.format("%s%05d", PartWriter.PREFIX, PARTS - 1));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
