package org.dataloader4j.image;

import java.util.Optional;

/** Loads the native codec. (Placeholder until it is written.) */
final class NativeCodecs {
    private NativeCodecs() {
    }

    static Optional<ImageCodec> codec() {
        return Optional.empty();
    }

    static String unavailableReason() {
        return "not built";
    }
}
