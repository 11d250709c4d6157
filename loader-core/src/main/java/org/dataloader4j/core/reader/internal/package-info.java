/**
 * The threads behind a {@code DataReader}, not exported: the {@link
 * org.dataloader4j.core.reader.internal.Pipeline} that wires and stops them, the
 * {@link org.dataloader4j.core.reader.internal.LoadLoop}, the
 * {@link org.dataloader4j.core.reader.internal.ParseWorker}s, the
 * {@link org.dataloader4j.core.reader.internal.Watchdog}, the consumer's
 * {@link org.dataloader4j.core.reader.internal.Delivery}, and between them the Disruptor ring of
 * {@link org.dataloader4j.core.reader.internal.Slot}s ({@link
 * org.dataloader4j.core.reader.internal.SlotRing}) with its wait strategy ({@link
 * org.dataloader4j.core.reader.internal.ParkingWaitStrategy}). Disruptor types stay inside this
 * package.
 */
package org.dataloader4j.core.reader.internal;
