package org.dataloader4j.core.dataset;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.api.TensorSpec;

/**
 * Parses the samples of a {@link DistributedTrainingDataset} with
 * {@link DistributedTrainingOptions.Remainder#PAD_WITH_MASK}: the wrapped parser fills its outputs from the
 * samples themselves, and this one adds {@link #VALID}, a UINT8 tensor of shape {@code (batch,)}
 * holding 1 for a real sample and 0 for padding, so that evaluation can weigh padding by zero and
 * stay exact while every rank takes the same number of steps.
 *
 * @param <T> the sample type of the wrapped parser
 */
public final class ValidMaskParser<T> implements Parser<Sharded<T>> {
    /** The name of the mask output. */
    public static final String VALID = "valid";

    private final Parser<T> parser;

    /** Parses samples with {@code parser} and adds the {@code valid} mask. */
    public ValidMaskParser(Parser<T> parser) {
        this.parser = Objects.requireNonNull(parser, "parser");
    }

    @Override
    public List<TensorSpec> outputs(int batchCapacity) {
        List<TensorSpec> specs = new ArrayList<>(parser.outputs(batchCapacity));
        for (TensorSpec spec : specs) {
            if (spec.name().equals(VALID)) {
                throw new IllegalArgumentException("the wrapped parser already has an output named " + VALID);
            }
        }
        specs.add(TensorSpec.dense(VALID, DataType.UINT8, Shape.of(batchCapacity)));
        return specs;
    }

    @Override
    public void parse(List<? extends Sharded<T>> samples, Batch out, ParallelLoop loop) {
        List<T> unwrapped = new ArrayList<>(samples.size());
        for (Sharded<T> s : samples) {
            unwrapped.add(s.sample());
        }
        parser.parse(unwrapped, out, loop);
        Tensor valid = out.tensor(VALID);
        for (int i = 0; i < samples.size(); i++) {
            valid.setByte(i, samples.get(i).padding() ? 0 : 1);
        }
    }
}
