/**
 * {@link org.dataloader4j.djl.ReaderDataset}: a DJL {@code Dataset} whose batches are a
 * {@code DataReader}'s, as {@code NDArray}s over the reader's memory, released when DJL closes
 * them. docs/djl.md has the setup (engine, offline), a training loop and the figures.
 */
package org.dataloader4j.djl;
