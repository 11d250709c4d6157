/**
 * The format-independent machinery of zero-copy parsers of protobuf {@code Feature} maps
 * (OneFlow's OFRecord, TensorFlow's tf.Example and SequenceExample): a scan that finds the map
 * entries a parser asks for ({@link org.dataloader4j.core.wire.MapScanner}), the resolution
 * of a {@code Feature} into the regions of its values under protobuf's merge rules
 * ({@link org.dataloader4j.core.wire.FeatureView}, with the field numbers of a
 * {@link org.dataloader4j.core.wire.FeatureSchema}), the casting copies into tensor memory
 * ({@link org.dataloader4j.core.decode.ValueCopier}) and the two-pass batch fill
 * ({@link org.dataloader4j.core.decode.TwoPassParse} over
 * {@link org.dataloader4j.core.decode.BatchOutputs}).
 *
 * <p>Nothing here builds a protobuf object: every value is read from the record's bytes and
 * written once, in place, to its tensor. What a format means by its features (missing features,
 * defaults, truncation, which list fits which output type) stays in the format's parser.
 */
package org.dataloader4j.core.features;
