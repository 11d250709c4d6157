/**
 * {@link org.dataloader4j.benchmarks.Compare}: dataloader4j against the reader a user would write
 * with protobuf-java, TensorFlow's own reader and parser through TensorFlow Java, and a plain
 * copy of the record bytes, over the same seeded datasets in one run. The JMH benchmarks of the
 * parts are in {@code org.dataloader4j.benchmarks.jmh}.
 */
package org.dataloader4j.benchmarks;
