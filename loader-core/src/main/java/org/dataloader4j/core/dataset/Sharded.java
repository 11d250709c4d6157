package org.dataloader4j.core.dataset;

import org.dataloader4j.api.ByteSized;

/**
 * One sample of a rank's share, as {@link DistributedTrainingDataset} yields it: the sample and
 * whether it is padding. Padding samples exist only under {@link DistributedTrainingOptions.Remainder#PAD_WITH_MASK}:
 * they repeat samples from the start of the epoch's global order so that every rank takes the
 * same number of steps, and a consumer should give them zero weight (a {@code valid} mask of
 * {@code !padding()}).
 *
 * @param sample  the sample, never {@code null}
 * @param index   the sample's index in the wrapped dataset
 * @param padding whether the sample only fills this rank's share up to the common count
 * @param <T>     the sample type
 */
public record Sharded<T>(T sample, long index, boolean padding) implements ByteSized {

    /** Checks that the sample is not {@code null}. */
    public Sharded {
        java.util.Objects.requireNonNull(sample, "sample");
    }

    /** The sample's bytes if it knows them, else 0. */
    @Override
    public long byteSize() {
        return sample instanceof ByteSized sized ? sized.byteSize() : 0;
    }
}
