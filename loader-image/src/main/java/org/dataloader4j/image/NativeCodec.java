package org.dataloader4j.image;

import org.dataloader4j.image.internal.NativeLibraries;

/**
 * The native codec: JPEG through the project's shim over libjpeg-turbo (ISLOW IDCT, fancy
 * upsampling, partial decoding of a window), PNG through libpng's simplified API. Immutable and
 * shared; each thread decodes through a {@link NativeContext} of its own.
 */
final class NativeCodec implements ImageCodec {
    private final NativeLibraries libraries;

    NativeCodec(NativeLibraries libraries) {
        this.libraries = libraries;
    }

    @Override
    public String name() {
        return "native";
    }

    @Override
    public Context newContext() {
        return new NativeContext(libraries);
    }
}
