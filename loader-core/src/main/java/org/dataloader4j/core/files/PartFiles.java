package org.dataloader4j.core.files;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dataloader4j.core.dataset.Checks;
import org.dataloader4j.format.PartFileNames;

/**
 * The files of a dataset: named as OneFlow names part files, or listed explicitly. Every file
 * is checked to exist when the list is made, so a missing file fails the build of a reader,
 * not a read hours later.
 */
public final class PartFiles {
    /** OneFlow's default part name prefix. */
    public static final String DEFAULT_PREFIX = "part-";
    /** A {@code partNameSuffixLength} meaning "no zero padding". */
    public static final int NO_PADDING = -1;

    private PartFiles() {
    }

    /**
     * OneFlow's part files: {@code dataDir/<prefix><index>} for index {@code 0 .. partNum - 1},
     * the index zero-padded to {@code suffixLength} digits ({@link #NO_PADDING} for none).
     * With prefix {@code "part-"} and suffix length 5, part 3 is {@code part-00003}.
     *
     * @throws IllegalArgumentException naming the arguments if they are out of range
     * @throws UncheckedIOException     wrapping a {@link NoSuchFileException} that names a
     *                                  missing file
     */
    public static List<Path> oneflow(Path dataDir, String prefix, int suffixLength, int partNum) {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(prefix, "prefix");
        Checks.positive("dataPartNum", partNum);
        if (suffixLength < NO_PADDING) {
            throw new IllegalArgumentException("partNameSuffixLength must be >= -1: partNameSuffixLength=" + suffixLength);
        }
        List<Path> files = new ArrayList<>(partNum);
        for (int i = 0; i < partNum; i++) {
            files.add(dataDir.resolve(partName(prefix, suffixLength, i)));
        }
        return of(files);
    }

    /** The name of part {@code index}: {@code prefix} and the index, zero-padded to {@code suffixLength}. */
    public static String partName(String prefix, int suffixLength, int index) {
        return PartFileNames.partName(prefix, suffixLength, index);
    }

    /**
     * An explicit list of files, in the given order.
     *
     * @throws IllegalArgumentException if the list is empty
     * @throws UncheckedIOException     wrapping a {@link NoSuchFileException} that names a
     *                                  missing file
     */
    public static List<Path> of(List<Path> files) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("a dataset needs at least one file");
        }
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                throw new UncheckedIOException(new NoSuchFileException(file.toString(), null,
                        Files.exists(file) ? "not a regular file" : "no such file"));
            }
        }
        return List.copyOf(files);
    }
}
