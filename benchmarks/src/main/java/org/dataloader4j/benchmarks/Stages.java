package org.dataloader4j.benchmarks;

import org.dataloader4j.core.reader.ReaderMetrics;

/**
 * Where one dataloader4j pass that built its reader went: the build and the close, timed around
 * them, and the reader's own counters over its life, which is the pass
 * ({@code DataReader.metrics()}).
 *
 * @param buildNanos    building the reader (opening and mapping the files, starting its threads)
 * @param closeNanos    closing the reader (stopping its threads, unmapping the files)
 * @param parseNanos    the parse workers' time in the parser (with several, their mean)
 * @param loadNanos     the load thread's time in the dataset: reading frames, shuffling, and the
 *                      page faults of the files' first reads
 * @param loadWaitNanos the load thread's time waiting for a free slot
 */
public record Stages(long buildNanos, long closeNanos, long parseNanos, long loadNanos, long loadWaitNanos) {

    /** A pass that built and closed its reader, whose counters at the end were {@code counted}. */
    static Stages ofReader(long buildNanos, long closeNanos, ReaderMetrics counted) {
        return new Stages(buildNanos, closeNanos, counted.parseBusy().toNanos(), counted.loadBusy().toNanos(),
                counted.loadBlocked().toNanos());
    }
}
