package org.dataloader4j.api;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A stream of samples, pulled one step at a time: OneFlow's {@code Dataset}.
 *
 * <p>A reader of a format yields one sample per {@link #next()}; decorators such as a batching
 * dataset yield many. Decorators take the dataset they wrap as their first argument and own it:
 * closing the outermost dataset closes the whole stack.
 *
 * <p><b>Threading:</b> a dataset is single-threaded. Inside a reader only the load thread calls
 * it; before the reader starts, the thread that builds it may call {@link #restore}.
 *
 * @param <T> the sample type
 */
public interface Dataset<T> extends AutoCloseable {

    /** An epoch count meaning "never end": OneFlow's cyclic streams. */
    long FOREVER = -1;

    /**
     * The next samples, never {@code null}. An empty list is the end of the data, and every
     * later call returns an empty list too; an endless dataset never ends.
     *
     * @throws CorruptDataException if the input is malformed
     */
    List<T> next();

    /**
     * Adds the next samples to {@code out} and returns how many it added: the samples
     * {@link #next()} would return, without a list of their own. 0 is the end of the data.
     * Decorators pull their upstream through this, so a dataset that yields one sample at a
     * time overrides it to save a list per sample.
     *
     * @throws CorruptDataException if the input is malformed
     */
    default int nextInto(List<? super T> out) {
        List<T> samples = next();
        if (samples == null) {
            throw new NullPointerException("Dataset.next() returned null");
        }
        out.addAll(samples);
        return samples.size();
    }

    /**
     * The position after the last {@link #next()}: restoring it into a dataset built with the
     * same arguments makes that dataset yield exactly what this one yields from here on.
     */
    DatasetState state();

    /**
     * Moves this dataset to {@code state}, taken from {@link #state()} of a dataset built
     * with the same arguments.
     *
     * @throws IllegalArgumentException if the state belongs to another kind of dataset
     */
    void restore(DatasetState state);

    /**
     * The epoch of the newest sample returned so far, counted from 0. A reader returns its
     * samples in epoch order, so this is the epoch of its last sample; a decorator that reorders
     * samples across an epoch boundary (a shuffle buffer) reports the highest epoch among the
     * samples it has returned, so the value never goes back.
     */
    default long epoch() {
        return 0;
    }

    /**
     * The epoch the sample returned last was read in: for a dataset that returns its samples in
     * the order it reads them, {@link #epoch()}; a shuffle buffer returns the epoch of the sample
     * it took out last, which near an epoch boundary may be lower than {@code epoch()}. A
     * batching dataset gives the epoch of its last batch's last sample. A batching dataset reads
     * this after each sample it takes, to know the epoch of every row of its batch.
     */
    default long sampleEpoch() {
        return epoch();
    }

    /**
     * The samples one epoch of this dataset holds, where that is known without reading them (from
     * a record index, a list, a rank's share of an index); empty where it is not: a stream of
     * compressed records, a policy that skips corrupt records out of the stream. A decorator that
     * keeps every sample (a shuffle, a batching dataset) gives its upstream's; a batching dataset
     * counts samples, not batches.
     */
    default OptionalLong samplesPerEpoch() {
        return OptionalLong.empty();
    }

    /**
     * The locator of this dataset's samples, if it can fetch a sample again from a few numbers.
     * Buffering decorators (a shuffle, a group batch) save and restore what they hold by it, so a
     * dataset under one must have one; every built-in dataset does. Decorators that yield their
     * upstream's samples return the upstream's.
     */
    default Optional<SampleLocator<T>> locator() {
        return Optional.empty();
    }

    /** Releases files and buffers; idempotent. Decorators close the dataset they wrap. */
    @Override
    default void close() {
    }
}
