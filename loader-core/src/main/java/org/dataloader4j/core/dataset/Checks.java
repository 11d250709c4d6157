package org.dataloader4j.core.dataset;

import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.SampleLocator;

/** Eager argument checks with {@code name=value} messages, for builders and constructors. */
public final class Checks {
    private Checks() {
    }

    /**
     * Returns {@code value} if it is {@code > 0}.
     *
     * @throws IllegalArgumentException {@code "<name> must be > 0: <name>=<value>"} otherwise
     */
    public static int positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be > 0: " + name + "=" + value);
        }
        return value;
    }

    /**
     * The locator of {@code upstream}, which {@code decorator} (a buffering decorator) saves its
     * buffered samples by.
     *
     * @throws IllegalArgumentException naming the decorator and the dataset if it has none
     */
    public static <T> SampleLocator<T> locatable(Dataset<T> upstream, String decorator) {
        return upstream.locator().orElseThrow(() -> new IllegalArgumentException(decorator
                + " saves its buffer by the locations of the samples in it, and " + upstream.getClass().getName()
                + " locates none: give it a SampleLocator (Dataset.locator())"));
    }

    /**
     * Returns {@code epochs} if it is {@code >= 1} or {@link Dataset#FOREVER}.
     *
     * @throws IllegalArgumentException naming the value otherwise
     */
    public static long epochs(long epochs) {
        if (epochs < 1 && epochs != Dataset.FOREVER) {
            throw new IllegalArgumentException("epochs must be >= 1 or FOREVER (-1): epochs=" + epochs);
        }
        return epochs;
    }
}
