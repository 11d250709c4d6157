/**
 * The row decoding that the zero-copy parsers of protobuf {@code Feature} maps (OneFlow's
 * OFRecord, TensorFlow's tf.Example and SequenceExample) share: one routine
 * ({@link org.dataloader4j.core.decode.BatchDecoder}) runs the passes over a batch into
 * {@link org.dataloader4j.core.decode.BatchOutputs}, finds and resolves each record's entries
 * with the wire views of {@code org.dataloader4j.core.wire}, and hands each entry to the format's
 * {@link org.dataloader4j.core.decode.EntryDecoder}, which writes it with the casting copies of
 * {@link org.dataloader4j.core.decode.ValueCopier}.
 *
 * <p>Nothing here builds a protobuf object: every value is read from the record's bytes and
 * written once, in place, to its tensor. What a format means by its features (missing features,
 * defaults, truncation, which list fits which output type) stays in the format's entry decoder.
 * The fast paths ({@code org.dataloader4j.core.decode.fast}: layouts, copying first, reading
 * ahead, SIMD varints) are used only here, on {@link org.dataloader4j.core.decode.DecodeMode#FAST}.
 * Exported only to the format modules (and to the command line, for
 * {@link org.dataloader4j.core.decode.ValueCopier#vectorVarints()}).
 */
package org.dataloader4j.core.decode;
