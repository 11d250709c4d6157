/**
 * Record files on plain Java 17: OFRecord and TFRecord framing, OneFlow's record schema and
 * TensorFlow's example schema as protobuf-java classes, streaming readers and writers, and
 * feature helpers; where files are kept (the file stores).
 */
module org.dataloader4j.format {
    requires transitive com.google.protobuf;

    exports org.dataloader4j.format;
    exports org.dataloader4j.format.proto;
    exports org.dataloader4j.format.tf;
    exports org.dataloader4j.format.store;

    // File stores of other schemes (HDFS, S3 through loader-hadoop), found at run time.
    uses org.dataloader4j.format.store.FileStoreProvider;
}
