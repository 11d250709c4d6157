/**
 * What the module uses and does not export: how an image feature is found in a record
 * ({@link org.dataloader4j.image.internal.FeatureBytes}), and the native libraries behind the
 * native image codec: the project's JPEG shim
 * ({@link org.dataloader4j.image.internal.JpegShim}, over libjpeg-turbo) and libpng's simplified
 * API ({@link org.dataloader4j.image.internal.LibPng}), bound through {@code java.lang.foreign} by
 * {@link org.dataloader4j.image.internal.NativeLibraries}, and the growable off-heap
 * {@link org.dataloader4j.image.internal.NativeBuffer} a decoding context keeps. Nothing here
 * knows the codec contract: calls return codes and messages, which the codec turns into its
 * exceptions.
 */
package org.dataloader4j.image.internal;
