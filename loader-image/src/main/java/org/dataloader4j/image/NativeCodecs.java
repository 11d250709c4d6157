package org.dataloader4j.image;

import java.util.Optional;
import org.dataloader4j.image.internal.NativeLibraries;

/**
 * Loads the native codec, once, on first use: the project's JPEG shim and libpng
 * ({@link NativeLibraries}). Where either does not load (another platform, a build without the
 * shim, no libpng, native access denied), the codec is absent and the reason is kept.
 */
final class NativeCodecs {
    private NativeCodecs() {
    }

    /** The native codec, or empty where its libraries do not load. */
    static Optional<ImageCodec> codec() {
        return Optional.ofNullable(Loaded.CODEC);
    }

    /** Why the native codec is absent, or null if it is there. */
    static String unavailableReason() {
        return Loaded.REASON;
    }

    /** The outcome of the one load. */
    private static final class Loaded {
        static final ImageCodec CODEC;
        static final String REASON;

        static {
            ImageCodec codec = null;
            String reason = null;
            try {
                codec = new NativeCodec(NativeLibraries.load());
            } catch (RuntimeException | LinkageError e) {
                reason = e.getMessage() == null ? e.toString() : e.getMessage();
            }
            CODEC = codec;
            REASON = reason;
        }
    }
}
