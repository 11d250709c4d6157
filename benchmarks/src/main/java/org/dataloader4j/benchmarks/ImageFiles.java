package org.dataloader4j.benchmarks;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.format.tf.BytesList;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.format.tf.Feature;
import org.dataloader4j.format.tf.Int64List;

/**
 * The ImageNet-like dataset of {@link ImageCompare} on disk: the same {@link ImageNetLike}
 * pictures three ways, one per reader.
 *
 * <pre>
 * &lt;root&gt;/ofrecord/part-00000 …   OFRecords: "image" (bytes, the JPEG), "label" (int64)
 * &lt;root&gt;/tfrecord/part-00000 …   tf.Examples: "image/encoded" (bytes), "image/class/label" (int64)
 * &lt;root&gt;/jpeg/&lt;label&gt;/&lt;i&gt;.jpg     one file a picture, a folder a class (torchvision's ImageFolder)
 * &lt;root&gt;/images.manifest         the settings, then the sizes of the JPEGs, written last
 * </pre>
 *
 * <p>Picture {@code i} goes to part {@code i % parts} of both record formats, and is
 * {@code jpeg/<label>/<i>.jpg} with its label in four digits and {@code i} in six. {@link #ensure}
 * writes the dataset unless a complete one with the same settings is there; the manifest is
 * written last, so a run stopped halfway leaves nothing that a later one would trust.
 *
 * @param root         the folder
 * @param ofrecord     the OFRecord part files, in order
 * @param tfrecord     the TFRecord part files, in order
 * @param jpegDir      the folder of the JPEG files
 * @param images       pictures in the dataset
 * @param sizes        the JPEGs' sizes
 */
public record ImageFiles(Path root, List<Path> ofrecord, List<Path> tfrecord, Path jpegDir, int images, JpegSizes sizes) {
    private static final int FORMAT = 1;
    private static final String MANIFEST = "images.manifest";
    /** Pictures made at a time (by as many threads as there are processors) and then written in order. */
    private static final int CHUNK = 128;

    /** Copies the lists. */
    public ImageFiles {
        ofrecord = List.copyOf(ofrecord);
        tfrecord = List.copyOf(tfrecord);
    }

    /**
     * The sizes of the JPEGs and the qualities they were encoded at.
     *
     * @param totalBytes  all JPEGs together
     * @param min         the smallest, in bytes
     * @param p10         the 10th percentile (nearest rank)
     * @param median      the median (nearest rank)
     * @param p90         the 90th percentile (nearest rank)
     * @param max         the largest
     * @param minQuality  the lowest ImageIO quality a picture was encoded at
     * @param maxQuality  the highest
     */
    public record JpegSizes(long totalBytes, int min, int p10, int median, int p90, int max, float minQuality, float maxQuality) {

        static JpegSizes of(int[] bytes, float minQuality, float maxQuality) {
            int[] sorted = bytes.clone();
            Arrays.sort(sorted);
            return new JpegSizes(Arrays.stream(bytes).asLongStream().sum(), sorted[0], rank(sorted, 0.10), rank(sorted, 0.50),
                    rank(sorted, 0.90), sorted[sorted.length - 1], minQuality, maxQuality);
        }

        private static int rank(int[] sorted, double q) {
            return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
        }

        /** The mean size in bytes over {@code images} pictures. */
        public double mean(int images) {
            return (double) totalBytes / images;
        }
    }

    /**
     * The dataset of {@code images} pictures drawn from {@code seed} over {@code parts} part files
     * a format under {@code root}, made from the photographs in {@code sources} (read only when it
     * is written) unless a complete one with the same settings is there.
     */
    public static ImageFiles ensure(Path root, int images, int parts, long seed, Supplier<SourcePictures> sources)
            throws IOException, InterruptedException {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("format", Integer.toString(FORMAT));
        settings.put("images", Integer.toString(images));
        settings.put("parts", Integer.toString(parts));
        settings.put("seed", Long.toString(seed));
        settings.put("width", Integer.toString(ImageNetLike.WIDTH));
        settings.put("height", Integer.toString(ImageNetLike.HEIGHT));
        Path manifest = root.resolve(MANIFEST);
        List<Path> ofrecord = partFiles(root.resolve("ofrecord"), parts);
        List<Path> tfrecord = partFiles(root.resolve("tfrecord"), parts);
        Path jpegDir = root.resolve("jpeg");
        if (Files.isRegularFile(manifest)) {
            Map<String, String> found = read(manifest);
            if (found.entrySet().containsAll(settings.entrySet())
                    && Stream.concat(ofrecord.stream(), tfrecord.stream()).allMatch(Files::isRegularFile)
                    && Files.isDirectory(jpegDir)) {
                return new ImageFiles(root, ofrecord, tfrecord, jpegDir, images, sizes(found));
            }
        }
        Files.createDirectories(root);
        Files.deleteIfExists(manifest);
        deleteJpegs(jpegDir);
        JpegSizes sizes = write(root, images, parts, seed, sources.get(), jpegDir);
        settings.put("jpeg_bytes", Long.toString(sizes.totalBytes()));
        settings.put("jpeg_min", Integer.toString(sizes.min()));
        settings.put("jpeg_p10", Integer.toString(sizes.p10()));
        settings.put("jpeg_median", Integer.toString(sizes.median()));
        settings.put("jpeg_p90", Integer.toString(sizes.p90()));
        settings.put("jpeg_max", Integer.toString(sizes.max()));
        settings.put("quality_min", Float.toString(sizes.minQuality()));
        settings.put("quality_max", Float.toString(sizes.maxQuality()));
        StringBuilder text = new StringBuilder();
        settings.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.writeString(manifest, text, StandardCharsets.UTF_8);
        return new ImageFiles(root, ofrecord, tfrecord, jpegDir, images, sizes);
    }

    private static JpegSizes write(Path root, int images, int parts, long seed, SourcePictures sources, Path jpegDir)
            throws IOException, InterruptedException {
        int threads = Runtime.getRuntime().availableProcessors();
        int[] bytes = new int[images];
        float minQuality = Float.MAX_VALUE;
        float maxQuality = 0;
        List<ImageNetLike> makers = new ArrayList<>();
        AtomicInteger names = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "image-data-" + names.getAndIncrement()));
        try (PartWriter of = PartWriter.create(root.resolve("ofrecord"), PartWriter.PREFIX, PartWriter.SUFFIX_LENGTH, parts,
                Framing.OFRECORD, Compression.NONE);
             PartWriter tf = PartWriter.create(root.resolve("tfrecord"), PartWriter.PREFIX, PartWriter.SUFFIX_LENGTH, parts,
                     Framing.TFRECORD, Compression.NONE)) {
            for (int t = 0; t < threads; t++) {
                makers.add(new ImageNetLike(sources, seed));
            }
            for (int start = 0; start < images; start += CHUNK) {
                int end = Math.min(images, start + CHUNK);
                ImageNetLike.Picture[] chunk = new ImageNetLike.Picture[end - start];
                List<Callable<Void>> tasks = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    // Maker t makes every threads-th picture of the chunk: one task a maker, so none is shared.
                    ImageNetLike maker = makers.get(t);
                    int from = start;
                    int first = start + t;
                    tasks.add(() -> {
                        for (int i = first; i < end; i += threads) {
                            chunk[i - from] = maker.make(i);
                        }
                        return null;
                    });
                }
                for (Future<Void> f : pool.invokeAll(tasks)) {
                    f.get();
                }
                for (int i = start; i < end; i++) {
                    ImageNetLike.Picture p = chunk[i - start];
                    of.write(Features.record(Map.of("image", Features.bytesFeature(p.jpeg()),
                            "label", Features.int64Feature(p.label()))));
                    tf.write(example(p));
                    Path file = jpegDir.resolve(String.format("%04d", p.label())).resolve(String.format("%06d.jpg", i));
                    Files.createDirectories(file.getParent());
                    Files.write(file, p.jpeg());
                    bytes[i] = p.jpeg().length;
                    minQuality = Math.min(minQuality, p.quality());
                    maxQuality = Math.max(maxQuality, p.quality());
                }
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("making the pictures failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
            makers.forEach(ImageNetLike::close);
        }
        return JpegSizes.of(bytes, minQuality, maxQuality);
    }

    /** Picture {@code p} as the tf.Example of TensorFlow's ImageNet files ({@code image/encoded}, {@code image/class/label}). */
    private static Example example(ImageNetLike.Picture p) {
        return Example.newBuilder().setFeatures(org.dataloader4j.format.tf.Features.newBuilder()
                .putFeature("image/encoded", Feature.newBuilder()
                        .setBytesList(BytesList.newBuilder().addValue(ByteString.copyFrom(p.jpeg()))).build())
                .putFeature("image/class/label", Feature.newBuilder()
                        .setInt64List(Int64List.newBuilder().addValue(p.label())).build()))
                .build();
    }

    private static void deleteJpegs(Path jpegDir) throws IOException {
        if (!Files.isDirectory(jpegDir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(jpegDir)) {
            for (Path p : files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static JpegSizes sizes(Map<String, String> m) {
        return new JpegSizes(Long.parseLong(m.get("jpeg_bytes")), Integer.parseInt(m.get("jpeg_min")),
                Integer.parseInt(m.get("jpeg_p10")), Integer.parseInt(m.get("jpeg_median")), Integer.parseInt(m.get("jpeg_p90")),
                Integer.parseInt(m.get("jpeg_max")), Float.parseFloat(m.get("quality_min")), Float.parseFloat(m.get("quality_max")));
    }

    private static List<Path> partFiles(Path dir, int parts) {
        return IntStream.range(0, parts).mapToObj(p -> dir.resolve(String.format("%s%05d", PartWriter.PREFIX, p))).toList();
    }

    private static Map<String, String> read(Path manifest) throws IOException {
        Map<String, String> map = new LinkedHashMap<>();
        for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                map.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return map;
    }

    /** The JPEG files, in the order of their pictures. */
    public List<Path> jpegFiles() {
        try (Stream<Path> files = Files.walk(jpegDir)) {
            return files.filter(p -> p.toString().endsWith(".jpg"))
                    .sorted((a, b) -> a.getFileName().compareTo(b.getFileName())).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads every file once (both record formats and the JPEGs), so that the passes find them in the page cache. */
    public void readOnce() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        for (Path f : Stream.of(ofrecord, tfrecord, jpegFiles()).flatMap(List::stream).toList()) {
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                while (ch.read(buffer) >= 0) {
                    buffer.clear();
                }
            }
        }
    }
}
