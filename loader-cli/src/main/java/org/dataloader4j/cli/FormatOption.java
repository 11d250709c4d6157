package org.dataloader4j.cli;

import org.dataloader4j.format.Framing;

/** The record-file formats a command line can name. */
enum FormatOption {
    /** OneFlow's OFRecord framing. */
    ofrecord(Framing.OFRECORD),
    /** TensorFlow's TFRecord framing. */
    tfrecord(Framing.TFRECORD);

    private final Framing framing;

    FormatOption(Framing framing) {
        this.framing = framing;
    }

    /** The framing, or null for no option given. */
    static Framing framing(FormatOption option) {
        return option == null ? null : option.framing;
    }
}
