package org.dataloader4j.core.dataset;

import java.util.Map;
import java.util.Objects;
import org.dataloader4j.api.Dataset;

/**
 * The options of a {@link DistributedTrainingDataset}: which rank of how many, how the global
 * order is split, whether it is shuffled, and what happens to the {@code size % worldSize}
 * samples that do not split evenly. Immutable; built by {@link #builder()}, which checks every
 * value eagerly.
 *
 * @param rank      this process's rank, in {@code [0, worldSize)}
 * @param worldSize the number of ranks, {@code >= 1}
 * @param mode      how the global order is split among the ranks
 * @param shuffle   whether each epoch's global order is a permutation drawn from {@code seed + epoch}
 * @param seed      the shuffle seed; -1 draws one (only where every rank would draw the same,
 *                  i.e. without shuffle or with one rank)
 * @param epochs    the number of epochs, {@code >= 1}, or {@link Dataset#FOREVER}
 * @param remainder what happens to the samples that do not split evenly
 */
public record DistributedTrainingOptions(int rank, int worldSize, Mode mode, boolean shuffle, long seed,
                                         long epochs, Remainder remainder) {
    /** The environment variable torchrun sets to the global rank. */
    public static final String RANK_ENV = "RANK";
    /** The environment variable torchrun sets to the number of ranks. */
    public static final String WORLD_SIZE_ENV = "WORLD_SIZE";

    /** How the global order of an epoch is split among the ranks. */
    public enum Mode {
        /** Rank {@code r} takes global positions {@code r, r + S, r + 2S, …} (PyTorch's {@code DistributedSampler}). */
        STRIDE,
        /** Rank {@code r} takes the {@code r}-th of {@code S} contiguous blocks of equal size. */
        CONTIGUOUS
    }

    /** What happens to the samples that do not split evenly, so that every rank takes the same number of steps. */
    public enum Remainder {
        /** Every rank takes {@code floor(N / S)} samples; the tail of the global order is dropped. */
        DROP,
        /**
         * Every rank takes {@code ceil(N / S)} samples; the global order is extended by wrapping
         * around to its start, the extra samples marked {@link Sharded#padding()}.
         */
        PAD_WITH_MASK,
        /** As {@link #PAD_WITH_MASK}, but the extra samples are not marked: PyTorch's {@code drop_last=False}. */
        WRAP
    }

    /** Checks every value; the builder is the usual way in. */
    public DistributedTrainingOptions {
        Checks.positive("worldSize", worldSize);
        if (rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank must be in [0, worldSize): rank=" + rank + " worldSize=" + worldSize);
        }
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(remainder, "remainder");
        Checks.epochs(epochs);
        if (seed < -1) {
            throw new IllegalArgumentException("seed must be >= 0 or -1 (random): seed=" + seed);
        }
        if (shuffle && seed == -1 && worldSize > 1) {
            throw new IllegalArgumentException("a shuffle over " + worldSize + " ranks needs the same seed on every rank,"
                    + " but seed=-1 draws one per rank: give a seed >= 0 (worldSize=" + worldSize + ")");
        }
    }

    /** A builder with the defaults: STRIDE, no shuffle, seed -1, 1 epoch, WRAP, rank and world size from the environment. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link DistributedTrainingOptions}; each setter checks its value at once. Not thread-safe. */
    public static final class Builder {
        private Integer rank;
        private Integer worldSize;
        private Mode mode = Mode.STRIDE;
        private boolean shuffle;
        private long seed = -1;
        private long epochs = 1;
        private Remainder remainder = Remainder.WRAP;
        private Map<String, String> environment;

        private Builder() {
        }

        /** This process's rank; if not given, {@code RANK} from the environment. */
        public Builder rank(int rank) {
            if (rank < 0) {
                throw new IllegalArgumentException("rank must be >= 0: rank=" + rank);
            }
            this.rank = rank;
            return this;
        }

        /** The number of ranks; if not given, {@code WORLD_SIZE} from the environment. */
        public Builder worldSize(int worldSize) {
            this.worldSize = Checks.positive("worldSize", worldSize);
            return this;
        }

        /** How the global order is split; STRIDE by default. */
        public Builder mode(Mode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** Whether each epoch's global order is shuffled; false by default. */
        public Builder shuffle(boolean shuffle) {
            this.shuffle = shuffle;
            return this;
        }

        /** The shuffle seed, {@code >= 0}, or -1 (the default) to draw one. */
        public Builder seed(long seed) {
            if (seed < -1) {
                throw new IllegalArgumentException("seed must be >= 0 or -1 (random): seed=" + seed);
            }
            this.seed = seed;
            return this;
        }

        /** The number of epochs, or {@link Dataset#FOREVER}; 1 by default. */
        public Builder epochs(long epochs) {
            this.epochs = Checks.epochs(epochs);
            return this;
        }

        /** What happens to the samples that do not split evenly; WRAP by default. */
        public Builder remainder(Remainder remainder) {
            this.remainder = Objects.requireNonNull(remainder, "remainder");
            return this;
        }

        /**
         * The environment that rank and world size default from ({@link System#getenv()} if not
         * given); tests pass a map.
         */
        public Builder environment(Map<String, String> environment) {
            this.environment = Map.copyOf(environment);
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if rank or world size is neither given nor set in the
         *                                  environment, is malformed there, or any value is out of range
         */
        public DistributedTrainingOptions build() {
            Map<String, String> env = environment != null ? environment : System.getenv();
            int s = worldSize != null ? worldSize : fromEnvironment(env, WORLD_SIZE_ENV, "worldSize", 1);
            int r = rank != null ? rank : fromEnvironment(env, RANK_ENV, "rank", 0);
            return new DistributedTrainingOptions(r, s, mode, shuffle, seed, epochs, remainder);
        }

        private static int fromEnvironment(Map<String, String> env, String variable, String option, int min) {
            String text = env.get(variable);
            if (text == null) {
                throw new IllegalArgumentException(option + " was not given and " + variable
                        + " is not set in the environment (torchrun sets it): give " + option + "(...) or set " + variable);
            }
            int value;
            try {
                value = Integer.parseInt(text.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(variable + " must be an integer >= " + min + ": " + variable + "=" + text, e);
            }
            if (value < min) {
                throw new IllegalArgumentException(variable + " must be an integer >= " + min + ": " + variable + "=" + text);
            }
            return value;
        }
    }
}
