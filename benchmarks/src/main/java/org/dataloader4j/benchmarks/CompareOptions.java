package org.dataloader4j.benchmarks;

import static org.dataloader4j.benchmarks.OptionValues.bool;
import static org.dataloader4j.benchmarks.OptionValues.list;
import static org.dataloader4j.benchmarks.OptionValues.positive;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link Compare} runs, from its command line ({@code --name value}, every one optional).
 *
 * @param data          where the datasets are written and reused ({@code --data}, default
 *                      {@code benchmarks/target/compare-data})
 * @param records       records per dataset ({@code --records}, 100000)
 * @param parts         part files per dataset ({@code --parts}, 4)
 * @param seed          the data's and the shuffles' seed ({@code --seed}, 1)
 * @param threads       the thread counts to run each system with ({@code --threads}, {@code 1,2})
 * @param warmup        untimed passes first ({@code --warmup}, 1)
 * @param passes        timed passes, whose median is reported ({@code --passes}, 3)
 * @param batchSize     records per batch ({@code --batch}, 256)
 * @param shuffleBuffer shuffle buffer of the systems that shuffle ({@code --shuffle-buffer}, 1024)
 * @param systems       the systems' names ({@code --systems}, {@code all}; {@code none} only
 *                      writes the datasets)
 * @param datasets      the datasets ({@code --datasets}, {@code all})
 * @param tfShuffle     whether TensorFlow's pipeline shuffles through the same buffer as
 *                      dataloader4j's ({@code --tf-shuffle}, true); without it TensorFlow does
 *                      less work than dataloader4j, as the pipeline of the peer does
 * @param fork          whether each system runs each dataset in a JVM of its own, started with
 *                      this one's options and class path ({@code --fork}, true): code compiled
 *                      for one dataset does not then run another, and no system's garbage or
 *                      threads reach the next
 * @param reuse         whether dataloader4j and the two copies keep what they open across passes
 *                      ({@code --reuse}, false): one reader over endless epochs, the files'
 *                      mappings, as a training loop's epochs through one reader do; without it
 *                      every pass opens (and maps) the files anew
 * @param paired        whether the systems run each dataset in one JVM, pass by pass in turns,
 *                      with a report of each system against the first ({@code --paired}, false;
 *                      with {@code --fork true}, one JVM per dataset instead of per system and
 *                      dataset); see {@link Pairing}
 */
public record CompareOptions(Path data, int records, int parts, long seed, List<Integer> threads, int warmup, int passes,
                             int batchSize, int shuffleBuffer, List<String> systems, List<CompareDataset> datasets,
                             boolean tfShuffle, boolean fork, boolean reuse, boolean paired) {
    /** The systems {@code all} stands for, in the order they run. */
    public static final List<String> ALL_SYSTEMS = List.of(Dataloader4jSystem.NAME, ProtobufJavaSystem.NAME,
            MmapCopySystem.NAME, MmapCopySystem.SHUFFLED_NAME, TensorFlowJavaSystem.NAME);

    /** Checks the values. */
    public CompareOptions {
        threads = List.copyOf(threads);
        systems = List.copyOf(systems);
        datasets = List.copyOf(datasets);
        positive("records", records);
        positive("parts", parts);
        positive("passes", passes);
        positive("batch", batchSize);
        positive("shuffle-buffer", shuffleBuffer);
        if (warmup < 0) {
            throw new IllegalArgumentException("--warmup must be >= 0: warmup=" + warmup);
        }
        for (int t : threads) {
            positive("threads", t);
            if (t > parts) {
                throw new IllegalArgumentException("--threads must not exceed --parts (threads split the files): threads="
                        + t + " parts=" + parts);
            }
        }
        OptionValues.known(systems, ALL_SYSTEMS);
    }

    /**
     * Parses {@code --name value} pairs.
     *
     * @throws IllegalArgumentException for an unknown name, a missing or bad value
     */
    public static CompareOptions parse(String... args) {
        Path data = Path.of("benchmarks", "target", "compare-data");
        int records = 100_000;
        int parts = 4;
        long seed = 1;
        List<Integer> threads = List.of(1, 2);
        int warmup = 1;
        int passes = 3;
        int batch = 256;
        int shuffle = 1024;
        List<String> systems = ALL_SYSTEMS;
        List<CompareDataset> datasets = List.of(CompareDataset.values());
        boolean tfShuffle = true;
        boolean fork = true;
        boolean reuse = false;
        boolean paired = false;
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            String value = args[i + 1];
            switch (name) {
                case "--data" -> data = Path.of(value);
                case "--records" -> records = Integer.parseInt(value);
                case "--parts" -> parts = Integer.parseInt(value);
                case "--seed" -> seed = Long.parseLong(value);
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
                case "--datasets" -> datasets = value.equals("all") ? List.of(CompareDataset.values())
                        : list(value).stream().map(CompareDataset::of).toList();
                case "--tf-shuffle" -> tfShuffle = bool(name, value);
                case "--fork" -> fork = bool(name, value);
                case "--reuse" -> reuse = bool(name, value);
                case "--paired" -> paired = bool(name, value);
                default -> throw new IllegalArgumentException("unknown option " + name + "; options are --data --records"
                        + " --parts --seed --threads --warmup --passes --batch --shuffle-buffer --systems --datasets --tf-shuffle"
                        + " --fork --reuse --paired");
            }
        }
        return new CompareOptions(data, records, parts, seed, threads, warmup, passes, batch, shuffle, systems, datasets,
                tfShuffle, fork, reuse, paired);
    }

    /**
     * The command line that runs {@code system} (with {@link #paired}, the systems, comma-separated)
     * over {@code dataset} alone, with these settings, in this JVM.
     */
    List<String> forOne(String system, CompareDataset dataset) {
        List<String> args = new ArrayList<>(List.of("--data", data.toString(), "--records", Integer.toString(records),
                "--parts", Integer.toString(parts), "--seed", Long.toString(seed),
                "--threads", String.join(",", threads.stream().map(String::valueOf).toList()),
                "--warmup", Integer.toString(warmup), "--passes", Integer.toString(passes), "--batch", Integer.toString(batchSize),
                "--shuffle-buffer", Integer.toString(shuffleBuffer), "--systems", system, "--datasets", dataset.id(),
                "--tf-shuffle", Boolean.toString(tfShuffle), "--fork", "false", "--reuse", Boolean.toString(reuse)));
        if (paired) {
            args.addAll(List.of("--paired", "true"));
        }
        return args;
    }
}
