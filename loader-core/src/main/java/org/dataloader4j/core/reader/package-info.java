/**
 * The runtime a training loop drives: the {@link org.dataloader4j.core.reader.DataReader}, its
 * {@link org.dataloader4j.core.reader.ReaderOptions} and
 * {@link org.dataloader4j.core.reader.ReaderMetrics}, and the builder base of the part-file
 * readers. A load thread drives the dataset stack into a Disruptor ring of preallocated slots,
 * parse workers fill each slot's off-heap tensors, and {@code read()} hands the parsed slots out in
 * order; the threads live in the unexported {@code internal} package below.
 */
package org.dataloader4j.core.reader;
