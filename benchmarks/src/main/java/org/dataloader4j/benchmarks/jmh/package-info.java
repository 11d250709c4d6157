/**
 * JMH benchmarks of dataloader4j's parts: the decoders per record kind beside protobuf-java, the
 * masked CRC32C, the ring hand-off, the parallel loop's overhead and the shuffle buffer. Run
 * them with {@code benchmarks/run-jmh.sh}.
 */
package org.dataloader4j.benchmarks.jmh;
