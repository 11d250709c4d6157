package org.dataloader4j.benchmarks;

import static org.dataloader4j.benchmarks.OptionValues.bool;
import static org.dataloader4j.benchmarks.OptionValues.list;
import static org.dataloader4j.benchmarks.OptionValues.positive;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link ImageCompare} runs, from its command line ({@code --name value}, every one optional).
 *
 * @param data          where the pictures are written and reused ({@code --data}, default
 *                      {@code benchmarks/target/image-data})
 * @param images        pictures in the dataset ({@code --images}, 2000)
 * @param parts         part files of each record format ({@code --parts}, 4)
 * @param seed          the pictures' seed, and the shuffles' and random windows' ({@code --seed}, 1)
 * @param sources       the real photographs the pictures are made from ({@code --sources}, default
 *                      the nearest {@code shared/testdata/real/images} at or above the working
 *                      directory; null where there is none), read only when the pictures are
 *                      written
 * @param threads       the thread counts to run each system with ({@code --threads}, {@code 1,2})
 * @param warmup        untimed passes first ({@code --warmup}, 1)
 * @param passes        timed passes, whose median is reported ({@code --passes}, 3)
 * @param batchSize     pictures per batch ({@code --batch}, 64)
 * @param shuffleBuffer the shuffle buffer of the record readers ({@code --shuffle-buffer}, 1024)
 * @param systems       the systems' names ({@code --systems}, {@code all}; {@code none} only
 *                      writes the pictures)
 * @param paths         what each system does with a picture ({@code --paths}, {@code decode,fused})
 * @param fork          whether each system runs in a JVM of its own, started with this one's
 *                      options and class path ({@code --fork}, true)
 */
public record ImageCompareOptions(Path data, int images, int parts, long seed, Path sources, List<Integer> threads, int warmup,
                                  int passes, int batchSize, int shuffleBuffer, List<String> systems, List<ImagePath> paths,
                                  boolean fork) {
    /** The systems {@code all} stands for, in the order they run. */
    public static final List<String> ALL_SYSTEMS = List.of(Dataloader4jImageSystem.NATIVE, Dataloader4jImageSystem.IMAGEIO,
            TensorFlowImageSystem.NAME);

    /** Checks the values. */
    public ImageCompareOptions {
        threads = List.copyOf(threads);
        systems = List.copyOf(systems);
        paths = List.copyOf(paths);
        positive("images", images);
        positive("parts", parts);
        positive("passes", passes);
        positive("batch", batchSize);
        positive("shuffle-buffer", shuffleBuffer);
        if (warmup < 0) {
            throw new IllegalArgumentException("--warmup must be >= 0: warmup=" + warmup);
        }
        threads.forEach(t -> positive("threads", t));
        OptionValues.known(systems, ALL_SYSTEMS);
    }

    /**
     * Parses {@code --name value} pairs.
     *
     * @throws IllegalArgumentException for an unknown name, a missing or bad value
     */
    public static ImageCompareOptions parse(String... args) {
        Path data = Path.of("benchmarks", "target", "image-data");
        int images = 2000;
        int parts = 4;
        long seed = 1;
        Path sources = SourcePictures.find().orElse(null);
        List<Integer> threads = List.of(1, 2);
        int warmup = 1;
        int passes = 3;
        int batch = 64;
        int shuffle = 1024;
        List<String> systems = ALL_SYSTEMS;
        List<ImagePath> paths = List.of(ImagePath.values());
        boolean fork = true;
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            String value = args[i + 1];
            switch (name) {
                case "--data" -> data = Path.of(value);
                case "--images" -> images = Integer.parseInt(value);
                case "--parts" -> parts = Integer.parseInt(value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--sources" -> sources = Path.of(value);
                case "--threads" -> threads = list(value).stream().map(Integer::valueOf).toList();
                case "--warmup" -> warmup = Integer.parseInt(value);
                case "--passes" -> passes = Integer.parseInt(value);
                case "--batch" -> batch = Integer.parseInt(value);
                case "--shuffle-buffer" -> shuffle = Integer.parseInt(value);
                case "--systems" -> systems = switch (value) {
                    case "all" -> ALL_SYSTEMS;
                    case "none" -> List.of();
                    default -> list(value);
                };
                case "--paths" -> paths = value.equals("all") ? List.of(ImagePath.values())
                        : list(value).stream().map(ImagePath::of).toList();
                case "--fork" -> fork = bool(name, value);
                default -> throw new IllegalArgumentException("unknown option " + name + "; options are --data --images"
                        + " --parts --seed --sources --threads --warmup --passes --batch --shuffle-buffer --systems --paths --fork");
            }
        }
        return new ImageCompareOptions(data, images, parts, seed, sources, threads, warmup, passes, batch, shuffle, systems,
                paths, fork);
    }

    /** The command line that runs {@code system} alone, with these settings, in this JVM. */
    List<String> forOne(String system) {
        List<String> args = new ArrayList<>(List.of("--data", data.toString(), "--images", Integer.toString(images),
                "--parts", Integer.toString(parts), "--seed", Long.toString(seed),
                "--threads", String.join(",", threads.stream().map(String::valueOf).toList()),
                "--warmup", Integer.toString(warmup), "--passes", Integer.toString(passes), "--batch", Integer.toString(batchSize),
                "--shuffle-buffer", Integer.toString(shuffleBuffer), "--systems", system,
                "--paths", String.join(",", paths.stream().map(ImagePath::id).toList()), "--fork", "false"));
        if (sources != null) {
            args.addAll(List.of("--sources", sources.toString()));
        }
        return args;
    }
}
