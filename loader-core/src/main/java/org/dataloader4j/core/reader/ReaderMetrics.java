package org.dataloader4j.core.reader;

import java.time.Duration;

/**
 * What a {@link DataReader} has done so far, as counted by its threads: enough to tell whether
 * the loader or the training loop is the bottleneck. A snapshot: each value was read at about the
 * same moment, without stopping the reader.
 *
 * <p>If {@link #inputStall()} grows with the training time, the training loop waits for data and
 * the loader is the bottleneck: look at {@link #loadBusy()} (reading and decorating samples) and
 * {@link #parseBusy()} (parsing into tensors) to see which stage. If the ring is mostly full
 * ({@link #ringOccupancy()} near {@link #ringSize()}) and {@link #loadBlocked()} grows, the
 * loader waits for the training loop instead.
 *
 * @param samples       samples the load thread has taken from the dataset
 * @param payloadBytes  their bytes in their files (records' payloads, lines' text), for samples
 *                      that know it ({@code RecordSlice}, {@code MiniLine})
 * @param corruptSkipped corrupt records skipped under a skip policy, replaced by the next good
 *                      ones (see {@code SkipCorruptDataset}); 0 when the reader is strict
 * @param batchesParsed batches the parse stage has finished
 * @param batchesRead   batches {@code read()} has handed to the caller
 * @param ringOccupancy slots published by the load thread and not yet released by the caller
 * @param ringSize      the ring's slots
 * @param inputStall    time the caller spent inside {@code read()} waiting for a batch
 * @param loadBusy      time the load thread spent in the dataset ({@code next()}, {@code state()})
 * @param loadBlocked   time the load thread waited for a free slot (backpressure)
 * @param parseBusy     time the parse stage spent in the parser: with several parse workers
 *                      (each taking whole batches), the mean over them
 * @param elapsed       time since the reader started
 * @param parser        what parses the batches: the parser's own description (an image parser's
 *                      names its codec, native or ImageIO)
 */
public record ReaderMetrics(long samples, long payloadBytes, long corruptSkipped, long batchesParsed, long batchesRead,
                            int ringOccupancy, int ringSize, Duration inputStall, Duration loadBusy,
                            Duration loadBlocked, Duration parseBusy, Duration elapsed, String parser) {

    /** One line: counts, then times in milliseconds. */
    @Override
    public String toString() {
        return "samples=" + samples + " payloadBytes=" + payloadBytes + " corruptSkipped=" + corruptSkipped
                + " batchesParsed=" + batchesParsed
                + " batchesRead=" + batchesRead + " ring=" + ringOccupancy + "/" + ringSize
                + " inputStallMs=" + inputStall.toMillis() + " loadBusyMs=" + loadBusy.toMillis()
                + " loadBlockedMs=" + loadBlocked.toMillis() + " parseBusyMs=" + parseBusy.toMillis()
                + " elapsedMs=" + elapsed.toMillis() + " parser=" + parser;
    }
}
