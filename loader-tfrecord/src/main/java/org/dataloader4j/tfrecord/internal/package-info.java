/**
 * The machinery of {@link org.dataloader4j.tfrecord.ExampleParser}, not exported: the feature specs
 * flattened into columns, the scan that finds their map entries in a tf.Example or
 * SequenceExample, the steps of a feature list, and the tf.io rules of each spec, plugged into the
 * row routine both record parsers share ({@code org.dataloader4j.core.decode}: the passes,
 * feature resolution and the casting copies).
 *
 * <p>Nothing here builds a protobuf object: every value is read from the record's bytes and
 * written once, in place, to its tensor.
 */
package org.dataloader4j.tfrecord.internal;
