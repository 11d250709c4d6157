/**
 * OneFlow OFRecord files: a memory-mapped dataset, a zero-copy wire-format parser, OneFlow's
 * raw and bytes decoders, and the {@code OFRecordReader} builder.
 */
module org.dataloader4j.ofrecord {
    requires transitive org.dataloader4j.core;
    requires transitive org.dataloader4j.format;
    requires transitive org.dataloader4j.image;
    requires org.slf4j;

    exports org.dataloader4j.ofrecord;
}
