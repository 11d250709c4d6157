/**
 * {@link org.dataloader4j.benchmarks.Compare}: dataloader4j against the reader a user would write
 * with protobuf-java, TensorFlow's own reader and parser through TensorFlow Java, and a plain
 * copy of the record bytes, over the same seeded datasets in one run.
 * {@link org.dataloader4j.benchmarks.ImageCompare}: dataloader4j's image paths, with each codec,
 * against TensorFlow's image pipeline through TensorFlow Java, over the same ImageNet-like JPEGs
 * made from real photographs (the PyTorch peers run outside the JVM, from {@code peers/}). The
 * JMH benchmarks of the parts are in {@code org.dataloader4j.benchmarks.jmh}.
 */
package org.dataloader4j.benchmarks;
