package org.dataloader4j.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongFunction;
import java.util.function.ToLongFunction;

/**
 * Names the samples of a dataset by a few numbers and fetches them again by those numbers.
 *
 * <p>This is what makes resuming a buffering decorator cheap: a shuffle or group buffer saves one
 * location per buffered sample in its state, never the sample's bytes, and a restore fetches
 * exactly those samples instead of replaying the stream. A file reader locates a record by its
 * file, its byte offset and its index in the file; an in-memory dataset by its index.
 *
 * <p>A location is {@link #width()} {@code long}s of the dataset's choosing. It stays valid for
 * every dataset built with the same arguments over the same data, so it can be saved in a
 * {@link DatasetState} and used after a restart. Like its dataset, a locator is single-threaded.
 *
 * @param <T> the sample type
 */
public interface SampleLocator<T> {

    /** The number of {@code long}s in one location, at least 1. */
    int width();

    /**
     * Writes the location of {@code sample}, a sample the dataset returned from {@link
     * Dataset#next()}, into {@code to[at] .. to[at + width() - 1]}.
     */
    void locate(T sample, long[] to, int at);

    /**
     * The samples at {@code locations}: {@code locations.length / width()} of them, in order.
     * A location may occur more than once.
     *
     * @throws IllegalArgumentException if the length is not a multiple of {@link #width()} or a
     *                                  location names no sample of this dataset
     * @throws CorruptDataException     if the data there is malformed
     */
    List<T> fetch(long[] locations);

    /**
     * A locator of one {@code long} per sample: its index, {@code indexOf(sample)}, and the sample
     * at an index, {@code at(index)}. For a dataset whose samples are numbered, such as one that
     * yields the records of an index or the elements of a list.
     *
     * @throws NullPointerException if an argument is {@code null}
     */
    static <T> SampleLocator<T> byIndex(ToLongFunction<? super T> indexOf, LongFunction<? extends T> at) {
        Objects.requireNonNull(indexOf, "indexOf");
        Objects.requireNonNull(at, "at");
        return new SampleLocator<>() {
            @Override
            public int width() {
                return 1;
            }

            @Override
            public void locate(T sample, long[] to, int at) {
                to[at] = indexOf.applyAsLong(sample);
            }

            @Override
            public List<T> fetch(long[] locations) {
                List<T> samples = new ArrayList<>(locations.length);
                for (long index : locations) {
                    samples.add(at.apply(index));
                }
                return samples;
            }
        };
    }
}
