/**
 * The dataloader4j runtime: the dataset decorators, part-file naming, the {@code DataReader}
 * (load thread, Disruptor ring of preallocated slots, parse stage), the {@code ParallelLoop}
 * that parsers split their rows over, and the protobuf wire-format reader and feature-map
 * machinery of zero-copy parsers.
 */
module org.dataloader4j.core {
    requires transitive org.dataloader4j.api;
    requires com.lmax.disruptor;
    requires org.slf4j;
    // Used only where a JVM is started with --add-modules jdk.incubator.vector (SimdSupport).
    requires static jdk.incubator.vector;

    exports org.dataloader4j.core;
    exports org.dataloader4j.core.features;
    exports org.dataloader4j.core.parallel;
    exports org.dataloader4j.core.reader;
    exports org.dataloader4j.core.wire;
}
