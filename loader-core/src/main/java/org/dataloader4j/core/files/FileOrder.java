package org.dataloader4j.core.files;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.dataloader4j.core.dataset.Checks;
import org.dataloader4j.core.parallel.BalancedSplitter;

/**
 * Which files a reader reads, and in what order: OneFlow's file-level sharding and its
 * {@code shuffle_after_epoch}.
 */
public final class FileOrder {
    /** The seed OneFlow uses for the file order when none is given. */
    public static final long ONEFLOW_SEED = 524287;

    private FileOrder() {
    }

    /**
     * The files of epoch {@code epoch}: as given in epoch 0 or without
     * {@code shuffleAfterEpoch}; otherwise shuffled by a generator seeded with
     * {@code seed + epoch}, so that any epoch's order is known without replaying the earlier ones.
     */
    public static <T> List<T> forEpoch(List<T> files, boolean shuffleAfterEpoch, long seed, long epoch) {
        if (!shuffleAfterEpoch || epoch == 0) {
            return files;
        }
        List<T> shuffled = new ArrayList<>(files);
        Collections.shuffle(shuffled, new Random(seed + epoch));
        return List.copyOf(shuffled);
    }

    /**
     * Rank {@code rank}'s files of {@code worldSize}: a contiguous run, the runs balanced as
     * OneFlow's {@code BalancedSplitter} balances them (the first {@code n % worldSize} ranks get
     * one more file).
     *
     * @throws IllegalArgumentException if the rank is out of range, or there are fewer files
     *                                  than ranks (some rank would read nothing)
     */
    public static <T> List<T> shard(List<T> files, int rank, int worldSize) {
        Checks.positive("worldSize", worldSize);
        if (rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank must be in [0, worldSize): rank=" + rank + " worldSize=" + worldSize);
        }
        if (files.size() < worldSize) {
            throw new IllegalArgumentException("file-level sharding needs at least one file per rank: "
                    + files.size() + " files for worldSize=" + worldSize
                    + "; write more part files or shard by record instead");
        }
        BalancedSplitter split = new BalancedSplitter(files.size(), worldSize);
        return List.copyOf(files.subList((int) split.start(rank), (int) split.end(rank)));
    }
}
