package org.dataloader4j.tfrecord.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.BatchDecoder;
import org.dataloader4j.core.decode.DecodeMode;
import org.dataloader4j.core.decode.RecordFeatures;

/**
 * The machinery behind one {@code ExampleParser}: its specs flattened into columns (the
 * features first, then the feature lists, in output order; a spec's companion outputs right
 * after its own) and the locator of their keys, built once, and the {@link BatchDecoder} that
 * decodes each batch with an {@link ExampleRowDecoder} per thread. The features are the
 * routine's entries; the feature lists are decoded after them ({@code decodeRest}), so a spec
 * with feature lists learns no layouts. Immutable.
 */
public final class ExampleParse {
    /** Where a tf.Example's features (a SequenceExample's context) lie, for keys that read one feature. */
    public static final RecordFeatures FEATURES = new RecordFeatures(ExampleRowDecoder.SCHEMA, 1, 1);

    private final FeatureColumn[] columns;
    /** Spec {@code s}'s first column; its companions follow it. */
    private final int[] specColumns;
    private final int features;
    private final RecordLocator locator;
    private final String message;
    private final BatchDecoder decoder;

    /**
     * The parse of {@code features}, each spec's columns (of a tf.Example, or a SequenceExample's
     * context) and, for a SequenceExample, of {@code featureLists}, on {@code mode}'s path; null
     * {@code featureLists} means a tf.Example. A spec's first column is named after its key.
     */
    public ExampleParse(List<List<FeatureColumn>> features, List<List<FeatureColumn>> featureLists, DecodeMode mode) {
        List<FeatureColumn> all = new ArrayList<>();
        List<String> featureNames = new ArrayList<>();
        List<String> listNames = new ArrayList<>();
        List<Integer> first = new ArrayList<>();
        for (List<FeatureColumn> f : features) {
            first.add(all.size());
            all.addAll(f);
            featureNames.add(f.getFirst().name());
        }
        for (List<FeatureColumn> f : featureLists == null ? List.<List<FeatureColumn>>of() : featureLists) {
            first.add(all.size());
            all.addAll(f);
            listNames.add(f.getFirst().name());
        }
        this.columns = all.toArray(FeatureColumn[]::new);
        this.specColumns = first.stream().mapToInt(Integer::intValue).toArray();
        this.features = features.size();
        this.locator = new RecordLocator(featureNames, featureLists == null ? null : listNames);
        this.message = featureLists == null ? "Example" : "SequenceExample";
        this.decoder = new BatchDecoder(columns, Arrays.copyOf(specColumns, this.features), ExampleRowDecoder.SCHEMA,
                specColumns.length == this.features, mode,
                (reader, feature, copier) -> new ExampleRowDecoder(this, reader, feature, copier));
    }

    /**
     * Fills rows {@code [0, samples.size())} of {@code out} over {@code loop}.
     *
     * @throws CorruptDataException     for the lowest row whose record is malformed or does not fit
     * @throws IllegalArgumentException if {@code out} does not hold one row per sample, or its
     *                                  outputs are not the specs'
     */
    public void run(List<? extends RecordSlice> samples, Batch out, ParallelLoop loop) {
        decoder.run(samples, out, loop);
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
