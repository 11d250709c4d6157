package org.dataloader4j.core.dataset;

import java.util.List;
import org.dataloader4j.api.Dataset;

/**
 * A dataset that yields one sample per step, as readers of formats do: it implements
 * {@link #nextSample()}, and {@link #nextInto} hands the sample on without a list.
 *
 * @param <T> the sample type
 */
public abstract class SampleAtATimeDataset<T> implements Dataset<T> {

    /** Makes the dataset; subclasses set up their input. */
    protected SampleAtATimeDataset() {
    }

    /**
     * The next sample, or {@code null} at the end of the data (and from then on).
     *
     * @throws org.dataloader4j.api.CorruptDataException if the input is malformed
     */
    protected abstract T nextSample();

    @Override
    public final List<T> next() {
        T sample = nextSample();
        return sample == null ? List.of() : List.of(sample);
    }

    @Override
    public final int nextInto(List<? super T> out) {
        T sample = nextSample();
        if (sample == null) {
            return 0;
        }
        out.add(sample);
        return 1;
    }
}
