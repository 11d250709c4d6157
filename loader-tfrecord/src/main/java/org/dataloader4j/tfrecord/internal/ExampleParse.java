package org.dataloader4j.tfrecord.internal;

import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.BatchOutputs;
import org.dataloader4j.core.decode.TwoPassParse;
import org.dataloader4j.tfrecord.ExampleFeature;
import org.dataloader4j.tfrecord.SequenceFeature;

/**
 * The machinery behind one {@code ExampleParser}: its specs flattened into columns (the
 * features first, then the feature lists, in output order; a spec's companion outputs right
 * after its own) and the locator of their keys, built
 * once; each {@link #run} is one batch's {@link TwoPassParse} with an {@link ExampleRowDecoder}
 * per range. Immutable.
 */
public final class ExampleParse {
    private final FeatureColumn[] columns;
    /** Spec {@code s}'s first column; its companions follow it. */
    private final int[] specColumns;
    private final int features;
    private final RecordLocator locator;
    private final String message;
    /**
     * Each thread's decoder, kept from batch to batch rather than made per range: its scratch
     * is a few hundred heap bytes. It holds the last batch's references until the next.
     */
    private final ThreadLocal<ExampleRowDecoder> decoders = ThreadLocal.withInitial(() -> new ExampleRowDecoder(this));

    /**
     * The parse of {@code features} (of a tf.Example, or a SequenceExample's context) and, for a
     * SequenceExample, of {@code featureLists}; null {@code featureLists} means a tf.Example.
     */
    public ExampleParse(List<? extends ExampleFeature> features, List<? extends SequenceFeature> featureLists) {
        List<FeatureColumn> all = new ArrayList<>();
        List<String> featureNames = new ArrayList<>();
        List<String> listNames = new ArrayList<>();
        List<Integer> first = new ArrayList<>();
        for (ExampleFeature f : features) {
            first.add(all.size());
            all.addAll(FeatureColumn.of(f));
            featureNames.add(f.name());
        }
        for (SequenceFeature f : featureLists == null ? List.<SequenceFeature>of() : featureLists) {
            first.add(all.size());
            all.addAll(FeatureColumn.of(f));
            listNames.add(f.name());
        }
        this.columns = all.toArray(FeatureColumn[]::new);
        this.specColumns = first.stream().mapToInt(Integer::intValue).toArray();
        this.features = features.size();
        this.locator = new RecordLocator(featureNames, featureLists == null ? null : listNames);
        this.message = featureLists == null ? "Example" : "SequenceExample";
    }

    /**
     * Fills rows {@code [0, samples.size())} of {@code out} over {@code loop}.
     *
     * @throws CorruptDataException     for the lowest row whose record is malformed or does not fit
     * @throws IllegalArgumentException if {@code out} does not hold one row per sample, or its
     *                                  outputs are not the specs'
     */
    public void run(List<? extends RecordSlice> samples, Batch out, ParallelLoop loop) {
        BatchOutputs outputs = new BatchOutputs(columns, out, samples.size());
        TwoPassParse.run(loop, samples, outputs, () -> decoders.get().bind(samples, outputs));
    }

    FeatureColumn[] columns() {
        return columns;
    }

    /** The first column of each spec, in spec order (the features, then the feature lists). */
    int[] specColumns() {
        return specColumns;
    }

    /** The number of specs read from {@code features} / {@code context}; the rest are feature lists. */
    int features() {
        return features;
    }

    RecordLocator locator() {
        return locator;
    }

    /** {@code "Example"} or {@code "SequenceExample"}, as TensorFlow's errors name the message. */
    String message() {
        return message;
    }
}
