package org.dataloader4j.core.dataset;

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
     * Returns {@code epochs} if it is {@code >= 1} or {@link org.dataloader4j.api.Dataset#FOREVER}.
     *
     * @throws IllegalArgumentException naming the value otherwise
     */
    public static long epochs(long epochs) {
        if (epochs < 1 && epochs != org.dataloader4j.api.Dataset.FOREVER) {
            throw new IllegalArgumentException("epochs must be >= 1 or FOREVER (-1): epochs=" + epochs);
        }
        return epochs;
    }
}
