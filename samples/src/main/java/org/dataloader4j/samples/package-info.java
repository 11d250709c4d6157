/**
 * Runnable examples, one idea each. Start with {@link org.dataloader4j.samples.LinearRegression}:
 * it writes a mini dataset and fits a line to it with batches from a
 * {@link org.dataloader4j.mini.MiniReader}. {@link org.dataloader4j.samples.SoftmaxRegression} classifies
 * real handwritten digits ({@link org.dataloader4j.samples.Digits}, shipped as OFRecord part files).
 */
package org.dataloader4j.samples;
