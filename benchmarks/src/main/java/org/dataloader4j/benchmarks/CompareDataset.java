package org.dataloader4j.benchmarks;

import java.util.Arrays;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;

/** The datasets {@link Compare} writes and reads: one kind of record in one kind of file. */
public enum CompareDataset {
    /** MNIST-like OFRecords, uncompressed. */
    MNIST_OFRECORD("mnist-ofrecord", SyntheticRecords.Kind.MNIST, Framing.OFRECORD, Compression.NONE),
    /** The same records as tf.Examples in uncompressed TFRecord files. */
    MNIST_TFRECORD("mnist-tfrecord", SyntheticRecords.Kind.MNIST, Framing.TFRECORD, Compression.NONE),
    /** BERT-like OFRecords, uncompressed. */
    BERT_OFRECORD("bert-ofrecord", SyntheticRecords.Kind.BERT, Framing.OFRECORD, Compression.NONE),
    /** The MNIST-like tf.Examples in GZIP-compressed TFRecord files. */
    MNIST_TFRECORD_GZIP("mnist-tfrecord-gzip", SyntheticRecords.Kind.MNIST, Framing.TFRECORD, Compression.GZIP);

    private final String id;
    private final SyntheticRecords.Kind kind;
    private final Framing framing;
    private final Compression compression;

    CompareDataset(String id, SyntheticRecords.Kind kind, Framing framing, Compression compression) {
        this.id = id;
        this.kind = kind;
        this.framing = framing;
        this.compression = compression;
    }

    /** The name in RESULT lines and on the command line, e.g. {@code mnist-tfrecord-gzip}. */
    public String id() {
        return id;
    }

    /** The records it holds. */
    public SyntheticRecords.Kind kind() {
        return kind;
    }

    /** OFRecord files hold OFRecords; TFRecord files hold tf.Examples. */
    public Framing framing() {
        return framing;
    }

    /** How its files are compressed. */
    public Compression compression() {
        return compression;
    }

    /**
     * The dataset named {@code id}.
     *
     * @throws IllegalArgumentException naming the datasets there are
     */
    public static CompareDataset of(String id) {
        for (CompareDataset d : values()) {
            if (d.id.equals(id)) {
                return d;
            }
        }
        throw new IllegalArgumentException("no dataset " + id + ": datasets are "
                + Arrays.stream(values()).map(CompareDataset::id).toList());
    }
}
