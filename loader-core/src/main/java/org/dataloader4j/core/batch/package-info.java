/**
 * Batch memory outside a reader: {@link org.dataloader4j.core.batch.BatchBuffer}, a batch a caller
 * owns for running or testing a parser on samples in hand, and
 * {@link org.dataloader4j.core.batch.OutputSet}, the memory of one batch of outputs that a reader's
 * slots hold too.
 */
package org.dataloader4j.core.batch;

