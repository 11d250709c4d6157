package org.dataloader4j.core.dataset;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.SampleLocator;

/**
 * The base of a decorator that yields the samples of the dataset it wraps (reordered, batched,
 * filtered, but never changed or repeated): it holds the {@link #upstream()}, owns it, and
 * forwards {@link #epoch()}, {@link #locator()} and {@link #close()} to it unless it overrides
 * them.
 *
 * <p>Because its samples are its upstream's, what the runtime needs from the dataset that makes
 * them is found under a stack of such decorators once, when a reader is built: the
 * {@linkplain #source source} of the samples, which may take them back when nothing reads them
 * any more ({@link SampleRecycler}), and a decorator of a given kind ({@link #find}), such as the
 * skip policy whose counts the reader's metrics show. A decorator that repeats or changes samples
 * implements {@link Dataset} directly.
 *
 * @param <T> the sample type
 */
public abstract class ForwardingDataset<T> implements Dataset<T> {
    private final Dataset<T> upstream;

    /** A decorator of {@code upstream}, which it owns. */
    protected ForwardingDataset(Dataset<T> upstream) {
        this.upstream = Objects.requireNonNull(upstream, "upstream");
    }

    /** The dataset this one wraps. */
    public final Dataset<T> upstream() {
        return upstream;
    }

    /** The upstream's epoch; a decorator that holds samples back reports its own. */
    @Override
    public long epoch() {
        return upstream.epoch();
    }

    /** The upstream's epoch of its last sample; a decorator that holds samples back reports its own. */
    @Override
    public long sampleEpoch() {
        return upstream.sampleEpoch();
    }

    /** The upstream's count: a decorator that drops or adds samples reports its own. */
    @Override
    public OptionalLong samplesPerEpoch() {
        return upstream.samplesPerEpoch();
    }

    /** The upstream's locator: the samples here are the upstream's. */
    @Override
    public Optional<SampleLocator<T>> locator() {
        return upstream.locator();
    }

    /** Closes the upstream. */
    @Override
    public void close() {
        upstream.close();
    }

    /** The dataset under {@code dataset}'s forwarding decorators, which makes its samples ({@code dataset} itself if it is none). */
    public static Dataset<?> source(Dataset<?> dataset) {
        Dataset<?> d = dataset;
        while (d instanceof ForwardingDataset<?> f) {
            d = f.upstream();
        }
        return d;
    }

    /**
     * The outermost dataset of {@code type} among {@code dataset} and the datasets under its
     * forwarding decorators.
     */
    public static <D> Optional<D> find(Dataset<?> dataset, Class<D> type) {
        for (Dataset<?> d = dataset; ; d = ((ForwardingDataset<?>) d).upstream()) {
            if (type.isInstance(d)) {
                return Optional.of(type.cast(d));
            }
            if (!(d instanceof ForwardingDataset<?>)) {
                return Optional.empty();
            }
        }
    }

    /**
     * The {@link SampleRecycler} that makes {@code dataset}'s samples, if its {@linkplain #source
     * source} is one: each sample it yields came from there, once.
     */
    @SuppressWarnings("unchecked")
    public static <T> Optional<SampleRecycler<T>> recycler(Dataset<T> dataset) {
        // The source yields the same samples as every forwarding decorator above it: of type T.
        return source(dataset) instanceof SampleRecycler<?> r ? Optional.of((SampleRecycler<T>) r) : Optional.empty();
    }
}
