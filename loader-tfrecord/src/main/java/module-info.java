/**
 * TensorFlow TFRecord files: a CRC-checked dataset (memory-mapped, or inflated from GZIP or ZLIB
 * on the load thread), a zero-copy tf.Example and SequenceExample parser, and the
 * {@code TFRecordReader} builder.
 */
module org.dataloader4j.tfrecord {
    requires transitive org.dataloader4j.core;
    requires transitive org.dataloader4j.format;
    requires transitive org.dataloader4j.image;
    requires org.slf4j;

    exports org.dataloader4j.tfrecord;
}
