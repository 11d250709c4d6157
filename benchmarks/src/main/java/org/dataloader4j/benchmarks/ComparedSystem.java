package org.dataloader4j.benchmarks;

/**
 * One system that {@link Compare} runs over a dataset: dataloader4j, a peer, or the copy that
 * bounds them all. A system is opened once per dataset and thread count, then runs its warm-up
 * and timed passes; each pass reads every record once and hands every batch to a consumer that
 * touches it.
 */
public interface ComparedSystem {

    /** The name in RESULT lines. */
    String name();

    /** Whether it reads {@code dataset}. */
    boolean reads(CompareDataset dataset);

    /**
     * Prepares passes over {@code data} with {@code threads} threads (what "threads" means is the
     * system's: parse threads, reader threads, TensorFlow's parallel calls).
     *
     * @throws Unavailable if the system cannot run here
     */
    Run open(DataFiles data, int threads, Settings settings) throws Exception;

    /** Passes over one dataset. */
    interface Run extends AutoCloseable {
        /** One pass over every record. */
        Pass pass() throws Exception;

        @Override
        void close();
    }

    /**
     * What every system is given alike.
     *
     * @param batchSize     records per batch
     * @param shuffleBuffer the shuffle buffer of the systems that shuffle
     * @param seed          the shuffle seed
     * @param reuse         whether a system that can keeps what it opened (a reader, the files'
     *                      mappings) from one pass to the next, as a training loop's epochs do,
     *                      instead of opening everything anew for every pass
     */
    record Settings(int batchSize, int shuffleBuffer, long seed, boolean reuse) {
    }

    /** A system that cannot run on this machine, with the reason. */
    final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        /** A system unavailable for {@code reason}. */
        public Unavailable(String reason, Throwable cause) {
            super(reason, cause);
        }
    }
}
