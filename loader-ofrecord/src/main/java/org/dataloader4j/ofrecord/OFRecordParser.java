package org.dataloader4j.ofrecord;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.decode.DecodeMode;
import org.dataloader4j.ofrecord.internal.BatchParse;
import org.dataloader4j.ofrecord.internal.Column;

/**
 * Parses OFRecords straight from their bytes into a batch's tensors: one output per decoder,
 * named after the feature it reads, with the semantics of OneFlow's
 * {@link OFRecordRawDecoder} and {@link OFRecordBytesDecoder}.
 *
 * <p>No protobuf object is built: each record is scanned once for the decoders' features, and
 * each value is written once, in place; a packed float or double list stored as the output's
 * own type is one bulk copy. The wire format is read as protobuf reads it (fields in any order,
 * unknown fields skipped, the last of repeated map keys wins, packed and unpacked lists), so
 * any record protobuf-java parses gives the same values.
 *
 * <pre>{@code
 * OFRecordParser parser = OFRecordParser.of(
 *         OFRecordRawDecoder.of("images", Shape.of(28, 28), DataType.FLOAT32),
 *         OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT32));
 * }</pre>
 *
 * <p>A malformed record, a missing feature without a default, or a feature that does not fit
 * its decoder is a {@link CorruptDataException} naming the file, the record, its offset and the
 * feature; of several bad records in a batch, the first one's. Immutable and stateless: rows are
 * parsed in parallel over the {@link ParallelLoop}, and one parser may serve several readers.
 *
 * <p>Records are decoded with the fast paths (docs/ofrecord-parser.md) unless the system property
 * {@code dataloader4j.fastpaths} is {@code false}; either way they give the same bytes and errors.
 */
public final class OFRecordParser implements Parser<RecordSlice> {
    private final List<OFRecordDecoder> decoders;
    private final BatchParse parse;

    /**
     * A parser running {@code decoders}, whose outputs come in that order.
     *
     * @throws IllegalArgumentException if {@code decoders} is empty, a name is empty or two share one
     */
    public OFRecordParser(List<? extends OFRecordDecoder> decoders) {
        this(decoders, DecodeMode.configured());
    }

    /** A parser running {@code decoders} on {@code mode}'s path, whatever this JVM's setting. */
    OFRecordParser(List<? extends OFRecordDecoder> decoders, DecodeMode mode) {
        this.decoders = List.copyOf(Objects.requireNonNull(decoders, "decoders"));
        if (this.decoders.isEmpty()) {
            throw new IllegalArgumentException("decoders must not be empty");
        }
        Set<String> names = new HashSet<>();
        Column[] columns = new Column[this.decoders.size()];
        for (int c = 0; c < columns.length; c++) {
            OFRecordDecoder d = this.decoders.get(c);
            if (d.name().isEmpty()) {
                // The decoders accept it, but an output needs a name: fail here, not at the first read.
                throw new IllegalArgumentException("decoder names must not be empty: decoder=" + d);
            }
            if (!names.add(d.name())) {
                throw new IllegalArgumentException("decoder names must be unique: name=" + d.name());
            }
            columns[c] = column(d);
        }
        parse = new BatchParse(columns, mode);
    }

    /** The column the row decoding runs for {@code decoder}. */
    private static Column column(OFRecordDecoder decoder) {
        return switch (decoder) {
            case OFRecordRawDecoder raw -> new Column(raw.name(), raw.dataType(), raw.rowElements(),
                    raw.dim1VaryingLength(), raw.truncate(), raw.defaultValue().isPresent(),
                    raw.defaultValue().orElse(0), false);
            case OFRecordBytesDecoder bytes -> new Column(bytes.name(), DataType.UINT8, bytes.maxBytes(),
                    true, false, false, 0, true);
        };
    }

    /** A parser running {@code decoders}; see {@link #OFRecordParser(List)}. */
    public static OFRecordParser of(OFRecordDecoder... decoders) {
        return new OFRecordParser(List.of(decoders));
    }

    /** The decoders, in the order of the outputs. */
    public List<OFRecordDecoder> decoders() {
        return decoders;
    }

    /** Each decoder's output, in order. */
    @Override
    public List<TensorSpec> outputs(int batchCapacity) {
        List<TensorSpec> specs = new ArrayList<>(decoders.size());
        for (OFRecordDecoder d : decoders) {
            specs.add(d.spec(batchCapacity));
        }
        return List.copyOf(specs);
    }

    /**
     * Fills rows {@code [0, samples.size())} of every output; ragged outputs get their offsets.
     *
     * @throws CorruptDataException for the first record that is malformed or does not fit
     * @throws IllegalArgumentException if {@code out} was not made from {@link #outputs}, or
     *                                  does not hold one row per sample
     */
    @Override
    public void parse(List<? extends RecordSlice> samples, Batch out, ParallelLoop loop) {
        parse.run(samples, out, loop);
    }

    @Override
    public String toString() {
        return "OFRecordParser" + decoders;
    }
}
