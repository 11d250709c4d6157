package org.dataloader4j.samples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.format.proto.Feature;

/**
 * Real handwritten digits as OFRecord part files: the test set of the UCI "Optical Recognition
 * of Handwritten Digits" (E. Alpaydin, C. Kaynak, 1998, CC BY 4.0), {@value #RECORDS} images of
 * 8x8 pixels, shipped in this module's resources ({@code digits/}, with its {@code NOTICE.md}).
 *
 * <p>Each record has {@code images}, {@value #PIXELS} float32 pixels, row-major, each the
 * original 0..16 ink count divided by 16 (exact in binary), and {@code labels}, the digit as one
 * int64. Record {@code i} of the source CSV is in part {@code i % }{@value #PARTS}: the first four
 * parts are for training, the last, a fifth of the images, is held out for testing.
 *
 * <p>{@link #main} regenerates the part files from the CSV ({@link #convert}); a test checks that
 * the committed files equal what it writes.
 */
public final class Digits {
    /** Images in the dataset. */
    public static final int RECORDS = 1797;
    /** Pixels per image: 8x8. */
    public static final int PIXELS = 64;
    /** The digits 0..9. */
    public static final int CLASSES = 10;
    /** Part files; the last is the test set. */
    public static final int PARTS = 5;
    /** Images in the last part, the test set (record {@code i} is in part {@code i % PARTS}). */
    public static final int TEST_RECORDS = RECORDS / PARTS;
    /** The largest pixel value of the source. */
    private static final int INK = 16;
    private static final String RESOURCES = "digits/";

    private Digits() {
    }

    /**
     * Regenerates the part files from the source CSV.
     *
     * <pre>
     * java -cp ... org.dataloader4j.samples.Digits ../shared/testdata/real/digits/digits.csv.gz samples/src/main/resources/org/dataloader4j/samples/digits
     * </pre>
     *
     * @param args the CSV ({@code digits.csv.gz}) and the output folder
     * @throws IOException if the CSV cannot be read or the parts written
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: Digits <digits.csv.gz> <output folder>");
            System.exit(2);
        }
        List<Path> files = convert(Path.of(args[0]), Path.of(args[1]));
        System.out.println("wrote " + RECORDS + " records in " + files.size() + " part files: " + files);
    }

    /**
     * Writes the part files into {@code dir} from the source CSV {@code csvGz} (gzipped, no
     * header, 64 pixels then the digit on each line) and returns them in order.
     *
     * @throws IOException if the CSV cannot be read, is malformed, or the parts cannot be written
     */
    public static List<Path> convert(Path csvGz, Path dir) throws IOException {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                     new GZIPInputStream(Files.newInputStream(csvGz)), StandardCharsets.US_ASCII));
             PartWriter out = PartWriter.create(dir, PARTS)) {
            float[] pixels = new float[PIXELS];
            int line = 0;
            for (String text = lines.readLine(); text != null; text = lines.readLine()) {
                line++;
                String[] fields = text.split(",");
                if (fields.length != PIXELS + 1) {
                    throw new IOException(csvGz + ":" + line + ": expected " + (PIXELS + 1) + " fields, found " + fields.length);
                }
                for (int i = 0; i < PIXELS; i++) {
                    pixels[i] = (float) value(fields[i], INK, csvGz, line) / INK;
                }
                // A sorted map, so that the features are written in the same order on every run.
                Map<String, Feature> features = new TreeMap<>();
                features.put("images", Features.floatFeature(pixels));
                features.put("labels", Features.int64Feature(value(fields[PIXELS], CLASSES - 1, csvGz, line)));
                out.write(Features.record(features));
            }
            if (line != RECORDS) {
                throw new IOException(csvGz + ": expected " + RECORDS + " lines, found " + line);
            }
            return out.files();
        }
    }

    /**
     * Copies the shipped part files into {@code dir} (created if needed, old copies replaced)
     * and returns them in order: the reader maps files, not class-path resources.
     *
     * @throws IOException if they cannot be written
     */
    public static List<Path> copyTo(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        for (int p = 0; p < PARTS; p++) {
            String name = String.format("%s%05d", PartWriter.PREFIX, p);
            Path file = dir.resolve(name);
            try (InputStream in = Digits.class.getResourceAsStream(RESOURCES + name)) {
                if (in == null) {
                    throw new IOException("resource " + RESOURCES + name + " is missing beside " + Digits.class.getName());
                }
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
            files.add(file);
        }
        return files;
    }

    /** The training parts of {@code files} (as {@link #copyTo} returns them): all but the last. */
    public static List<Path> train(List<Path> files) {
        return files.subList(0, PARTS - 1);
    }

    /** The held-out test part of {@code files} (as {@link #copyTo} returns them): the last. */
    public static Path test(List<Path> files) {
        return files.get(PARTS - 1);
    }

    private static int value(String field, int max, Path csv, int line) throws IOException {
        try {
            int v = Integer.parseInt(field.strip());
            if (v >= 0 && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below, as an out-of-range value is
        }
        throw new IOException(csv + ":" + line + ": expected an integer in 0.." + max + ", found '" + field + "'");
    }
}
