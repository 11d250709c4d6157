/**
 * The OFRecord semantics of {@link org.dataloader4j.ofrecord.OFRecordParser}, not exported: the
 * decoders flattened into columns ({@link org.dataloader4j.ofrecord.internal.Column}) and the
 * decoding of each feature with OneFlow's rules (defaults, truncation, bytes into UINT8 or INT8),
 * plugged into the row routine both record parsers share ({@code org.dataloader4j.core.decode}:
 * the scan, the passes, feature resolution and the casting copies).
 *
 * <p>Nothing here builds a protobuf object: every value is read from the record's bytes and
 * written once, in place, to its tensor.
 */
package org.dataloader4j.ofrecord.internal;
