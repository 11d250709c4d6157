/**
 * The dataloader4j runtime. Exported to every module: the {@code DataReader} and its options
 * ({@code reader}), the dataset decorators ({@code dataset}), a standalone batch for testing
 * parsers ({@code batch}) and the parallel loop ({@code parallel}). Exported only to the format
 * modules and the command line: part files, mappings and record indexes ({@code files}), the
 * protobuf wire reader ({@code wire}) and the row decoding both record parsers share
 * ({@code decode}). Not exported: the reader's threads ({@code reader.internal}) and the
 * decoding fast paths ({@code decode.fast}).
 */
module org.dataloader4j.core {
    requires transitive org.dataloader4j.api;
    // Bad framing is worded by the format exception's factories (files.FrameErrors).
    requires org.dataloader4j.format;
    requires com.lmax.disruptor;
    requires org.slf4j;
    // Used only where a JVM is started with --add-modules jdk.incubator.vector (SimdSupport).
    requires static jdk.incubator.vector;

    exports org.dataloader4j.core.batch;
    exports org.dataloader4j.core.dataset;
    exports org.dataloader4j.core.parallel;
    exports org.dataloader4j.core.reader;
    exports org.dataloader4j.core.files to
            org.dataloader4j.mini, org.dataloader4j.ofrecord, org.dataloader4j.tfrecord, org.dataloader4j.cli;
    exports org.dataloader4j.core.wire to org.dataloader4j.ofrecord, org.dataloader4j.tfrecord;
    exports org.dataloader4j.core.decode to org.dataloader4j.ofrecord, org.dataloader4j.tfrecord, org.dataloader4j.cli;
}
