/**
 * Dataset decorators and helpers that compose into a pipeline.
 *
 * <pre>
 *  part files ──► Dataset stack (load thread) ──► ring of slots ──► parse stage ──► read()
 *                 reader of a format                preallocated     Parser.parse    training loop
 *                 └► DistributedTrainingDataset     off-heap         over a          gets a Batch,
 *                    └► RandomShuffleDataset        tensors          ParallelLoop    valid until the
 *                       └► BatchDataset /                                            next read()
 *                          GroupBatchDataset
 * </pre>
 *
 * <p>Decorators take the dataset they wrap first and own it. Every dataset here is
 * single-threaded: the {@link org.dataloader4j.core.reader.DataReader}'s load thread drives it.
 */
package org.dataloader4j.core;

