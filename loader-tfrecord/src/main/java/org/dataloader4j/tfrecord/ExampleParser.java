package org.dataloader4j.tfrecord;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.DecodeMode;
import org.dataloader4j.tfrecord.internal.ExampleParse;

/**
 * Parses tf.Example or SequenceExample payloads straight from their bytes into a batch's tensors,
 * as told by tf.io-style specs: one output per spec, named after its feature, plus the companion
 * outputs of the specs of byte strings and variable-length steps ({@code x.lengths},
 * {@code x.steps}), which keep the boundaries one ragged level cannot.
 *
 * <pre>{@code
 * ExampleParser parser = ExampleParser.forExample(List.of(
 *         FixedLenFeature.of("image_floats", Shape.of(28, 28), DataType.FLOAT32),
 *         FixedLenFeature.of("image_class", Shape.of(), DataType.INT32),
 *         VarLenFeature.of("tags", DataType.INT64, 16)));
 * ExampleParser sequences = ExampleParser.forSequenceExample(
 *         List.of(FixedLenFeature.of("length", Shape.of(), DataType.INT64)),
 *         List.of(FixedLenSequenceFeature.of("tokens", Shape.of(), DataType.INT64, 512)));
 * }</pre>
 *
 * <p>No protobuf object is built: each record is scanned once for the specs' keys, and each
 * value is written once, in place; a packed {@code float_list} read into FLOAT32 is one bulk copy
 * per packed run, and so is a byte string into UINT8. The wire format is read as protobuf reads
 * it (fields in any order, unknown fields skipped at every level, repeated {@code features}
 * messages merged, the last of repeated map keys wins, the last list of a {@code Feature} wins,
 * packed and unpacked lists concatenate), so any record protobuf-java parses gives the same values.
 *
 * <p>A malformed record, or a feature that does not fit its spec, is a {@link CorruptDataException}
 * naming the file, the record, its offset and the feature; of several bad records in a batch, the
 * first one's. Dense rows are always fully written; ragged outputs write only
 * {@code [0, offset(rows))} of their values. Immutable and stateless: rows are parsed in parallel
 * over the {@link ParallelLoop}, and one parser may serve several readers.
 *
 * <p>Records are decoded with the fast paths (docs/example-parser.md) unless the system property
 * {@code dataloader4j.fastpaths} is {@code false}; either way they give the same bytes and errors.
 */
public final class ExampleParser implements Parser<RecordSlice> {
    private final List<ExampleFeature> features;
    private final List<SequenceFeature> featureLists;
    private final boolean sequenceExample;
    private final ExampleParse parse;

    private ExampleParser(List<? extends ExampleFeature> features, List<? extends SequenceFeature> featureLists,
                          boolean sequenceExample, DecodeMode mode) {
        this.features = List.copyOf(Objects.requireNonNull(features, "features"));
        this.featureLists = List.copyOf(Objects.requireNonNull(featureLists, "featureLists"));
        this.sequenceExample = sequenceExample;
        if (this.features.isEmpty() && this.featureLists.isEmpty()) {
            throw new IllegalArgumentException("a parser needs at least one feature");
        }
        Set<String> names = new HashSet<>();
        for (TensorSpec spec : outputs(1)) {
            unique(names, spec.name());
        }
        this.parse = new ExampleParse(this.features.stream().map(SpecColumns::of).toList(),
                sequenceExample ? this.featureLists.stream().map(SpecColumns::of).toList() : null, mode);
    }

    /** A parser of {@code parser}'s specs on {@code mode}'s path, whatever this JVM's setting. */
    ExampleParser(ExampleParser parser, DecodeMode mode) {
        this(parser.features, parser.featureLists, parser.sequenceExample, mode);
    }

    private static void unique(Set<String> names, String name) {
        if (!names.add(name)) {
            // Context features, feature lists and their companion outputs (x.lengths) share the batch's names.
            throw new IllegalArgumentException("output names must be unique: name=" + name);
        }
    }

    /**
     * A parser of tf.Example records, one output per spec of {@code features}, in that order.
     *
     * @throws IllegalArgumentException if {@code features} is empty or two outputs share a name
     */
    public static ExampleParser forExample(List<? extends ExampleFeature> features) {
        return new ExampleParser(features, List.of(), false, DecodeMode.configured());
    }

    /** A parser of tf.Example records; see {@link #forExample(List)}. */
    public static ExampleParser forExample(ExampleFeature... features) {
        return forExample(List.of(features));
    }

    /**
     * A parser of SequenceExample records: one output per spec of {@code context}, read from the
     * record's {@code context}, then one per spec of {@code featureLists}, read from its
     * {@code feature_lists}.
     *
     * @throws IllegalArgumentException if both lists are empty or two outputs share a name
     */
    public static ExampleParser forSequenceExample(List<? extends ExampleFeature> context,
                                                   List<? extends SequenceFeature> featureLists) {
        return new ExampleParser(context, featureLists, true, DecodeMode.configured());
    }

    /** Whether records are SequenceExamples (else tf.Examples). */
    public boolean isSequenceExample() {
        return sequenceExample;
    }

    /** The specs of a tf.Example's {@code features}, or of a SequenceExample's {@code context}. */
    public List<ExampleFeature> features() {
        return features;
    }

    /** The specs of a SequenceExample's {@code feature_lists}; empty for tf.Examples. */
    public List<SequenceFeature> featureLists() {
        return featureLists;
    }

    /**
     * Each spec's outputs, the features first, then the feature lists: one per spec, named after
     * its feature, followed by its companions if it has any ({@code x.lengths}, {@code x.steps}).
     */
    @Override
    public List<TensorSpec> outputs(int batchCapacity) {
        List<TensorSpec> specs = new ArrayList<>(features.size() + featureLists.size());
        for (ExampleFeature f : features) {
            specs.addAll(f.outputs(batchCapacity));
        }
        for (SequenceFeature f : featureLists) {
            specs.addAll(f.outputs(batchCapacity));
        }
        return List.copyOf(specs);
    }

    /**
     * Fills rows {@code [0, samples.size())} of every output; ragged outputs get their offsets.
     *
     * @throws CorruptDataException     for the first record that is malformed or does not fit
     * @throws IllegalArgumentException if {@code out} was not made from {@link #outputs}, or does
     *                                  not hold one row per sample
     */
    @Override
    public void parse(List<? extends RecordSlice> samples, Batch out, ParallelLoop loop) {
        parse.run(samples, out, loop);
    }

    /** E.g. {@code ExampleParser[FixedLenFeature[x, FLOAT32(2,)]]} or, for a SequenceExample, with its lists. */
    @Override
    public String toString() {
        return sequenceExample
                ? "ExampleParser[SequenceExample context=" + features + " feature_lists=" + featureLists + "]"
                : "ExampleParser" + features;
    }
}
