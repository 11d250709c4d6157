/**
 * The fast paths of the row decoding in {@code org.dataloader4j.core.decode}: learning a record's
 * layout and copying long rows first ({@link org.dataloader4j.core.decode.fast.RecordLayout}),
 * reading records ahead ({@link org.dataloader4j.core.decode.fast.RecordPrefetch}) and decoding
 * packed varints with the Vector API ({@link org.dataloader4j.core.decode.fast.SimdVarints}, where
 * {@link org.dataloader4j.core.decode.fast.SimdSupport} finds it fast).
 *
 * <p>Each one gives the bytes and the errors the plain path gives, only sooner. They are used
 * only by the decoding routine, behind one switch that turns them all off; not exported, and
 * nothing here depends on the routine: it takes primitives, wire views and record slices.
 */
package org.dataloader4j.core.decode.fast;
