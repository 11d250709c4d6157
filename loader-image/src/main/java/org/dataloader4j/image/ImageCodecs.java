package org.dataloader4j.image;

import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two image codecs and the choice between them: the native one (libjpeg-turbo through the
 * project's shim, libpng) where its libraries load, else JDK ImageIO, which is always there. The
 * system property {@code dataloader4j.image.native=false} makes {@link #preferred()} the ImageIO
 * one; tests and benchmarks ask for either by name.
 */
public final class ImageCodecs {
    private static final Logger LOG = LoggerFactory.getLogger(ImageCodecs.class);
    /** The switch that turns the native codec off. */
    public static final String NATIVE_PROPERTY = "dataloader4j.image.native";

    private ImageCodecs() {
    }

    /** The JDK ImageIO codec: always available. */
    public static ImageCodec imageIO() {
        return ImageIoCodec.INSTANCE;
    }

    /**
     * The native codec, or empty where its libraries cannot be loaded ({@link #nativeUnavailableReason()}).
     * It loads them through {@code java.lang.foreign}: start the JVM with
     * {@code --enable-native-access=org.dataloader4j.image} (module path) or
     * {@code --enable-native-access=ALL-UNNAMED} (class path), else the JVM warns.
     */
    public static Optional<ImageCodec> nativeCodec() {
        return NativeCodecs.codec();
    }

    /** Why the native codec cannot be used, or null if it can. */
    public static String nativeUnavailableReason() {
        return NativeCodecs.unavailableReason();
    }

    /**
     * The native codec if it loads and is not switched off, else ImageIO; which one, and why, is
     * logged once, at INFO.
     */
    public static ImageCodec preferred() {
        return Preferred.CODEC;
    }

    /** Holds the choice, made on first use. */
    private static final class Preferred {
        static final ImageCodec CODEC = choose();

        private static ImageCodec choose() {
            if (!Boolean.parseBoolean(System.getProperty(NATIVE_PROPERTY, "true"))) {
                LOG.info("images decode with JDK ImageIO: -D{}=false", NATIVE_PROPERTY);
                return imageIO();
            }
            Optional<ImageCodec> codec = nativeCodec();
            if (codec.isPresent()) {
                LOG.info("images decode with the native codec (libjpeg-turbo, libpng)");
                return codec.get();
            }
            LOG.info("images decode with JDK ImageIO: the native codec is unavailable ({})", nativeUnavailableReason());
            return imageIO();
        }
    }

    /** Throws unless {@code scale} is one a codec decodes at: 1, 2, 4 or 8. */
    static void checkScale(int scale) {
        if (scale != 1 && scale != 2 && scale != 4 && scale != 8) {
            throw new IllegalArgumentException("scale must be 1, 2, 4 or 8: scale=" + scale);
        }
    }
}
