package org.dataloader4j.core.dataset;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.RandomAccessDataset;
import org.dataloader4j.api.SampleLocator;

/**
 * The samples of a list, in order, for a number of epochs: a dataset for tests, examples and
 * data that fits in memory. Its {@link #locator()} locates a sample by its index in the list
 * (found by identity), so shuffles and groups over it resume by index. Single-threaded.
 *
 * @param <T> the sample type
 */
public final class ListDataset<T> extends SampleAtATimeDataset<T> implements RandomAccessDataset<T> {
    static final String KIND = "list";

    private final List<T> samples;
    private final long epochs;
    private long epoch;
    private long index;
    private IdentityHashMap<T, Integer> indexes;

    /**
     * The samples of {@code samples} (copied), repeated for {@code epochs} epochs, or forever
     * for {@link #FOREVER}.
     *
     * @throws IllegalArgumentException if {@code epochs} is neither {@code >= 1} nor FOREVER
     */
    public ListDataset(List<T> samples, long epochs) {
        this.samples = List.copyOf(samples);
        this.epochs = Checks.epochs(epochs);
    }

    /** One epoch of {@code samples}. */
    public static <T> ListDataset<T> of(List<T> samples) {
        return new ListDataset<>(samples, 1);
    }

    @Override
    protected T nextSample() {
        if (index == samples.size()) {
            if (samples.isEmpty() || epoch + 1 == epochs) {
                return null;
            }
            epoch++;
            index = 0;
        }
        return samples.get((int) index++);
    }

    @Override
    public T at(long i) {
        return samples.get(java.util.Objects.checkIndex((int) i, samples.size()));
    }

    @Override
    public long size() {
        return samples.size();
    }

    @Override
    public long epoch() {
        return epoch;
    }

    @Override
    public Optional<SampleLocator<T>> locator() {
        return Optional.of(new SampleLocator<>() {
            @Override
            public int width() {
                return 1;
            }

            @Override
            public void locate(T sample, long[] to, int at) {
                if (indexes == null) {
                    indexes = new IdentityHashMap<>(samples.size());
                    for (int i = samples.size() - 1; i >= 0; i--) {
                        indexes.put(samples.get(i), i);
                    }
                }
                Integer i = indexes.get(sample);
                if (i == null) {
                    throw new IllegalArgumentException("not a sample of this list: " + sample);
                }
                to[at] = i;
            }

            @Override
            public List<T> fetch(long[] locations) {
                List<T> out = new ArrayList<>(locations.length);
                for (long i : locations) {
                    if (i < 0 || i >= samples.size()) {
                        throw new IllegalArgumentException("no sample at index " + i + " of " + samples.size());
                    }
                    out.add(samples.get((int) i));
                }
                return out;
            }
        });
    }

    @Override
    public DatasetState state() {
        return DatasetState.of(KIND, null).with("epoch", epoch).with("index", index);
    }

    @Override
    public void restore(DatasetState state) {
        state.expect(KIND);
        long e = state.field("epoch");
        long i = state.field("index");
        if (i < 0 || i > samples.size() || e < 0 || (epochs != FOREVER && e >= epochs)) {
            throw new IllegalArgumentException("state does not fit " + samples.size() + " samples and "
                    + epochs + " epochs: " + state);
        }
        epoch = e;
        index = i;
    }

    /** The list's size. */
    @Override
    public OptionalLong samplesPerEpoch() {
        return OptionalLong.of(samples.size());
    }
}
