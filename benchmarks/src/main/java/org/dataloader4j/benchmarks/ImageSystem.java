package org.dataloader4j.benchmarks;

/**
 * One system that {@link ImageCompare} runs over the ImageNet-like pictures: dataloader4j with
 * one of its codecs, or a peer. A system is opened once per path and thread count, then runs its
 * warm-up and timed passes; each pass reads every picture once, through the path, and hands
 * every batch to a consumer that touches every row.
 */
interface ImageSystem {

    /** The name in RESULT lines. */
    String name();

    /**
     * Prepares passes over {@code data} along {@code path} with {@code threads} threads (what
     * "threads" means is the system's: parse threads, TensorFlow's parallel calls).
     *
     * @throws ComparedSystem.Unavailable if the system cannot run here
     */
    ComparedSystem.Run open(ImageFiles data, ImagePath path, int threads, ComparedSystem.Settings settings) throws Exception;
}
