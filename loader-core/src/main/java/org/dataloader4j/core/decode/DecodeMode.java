package org.dataloader4j.core.decode;

import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which way a {@link BatchDecoder} decodes: the plain path alone, or with the fast paths of
 * {@code core.decode.fast} as well. Both give the same bytes and the same errors for every
 * record; the fast paths only give them sooner.
 *
 * <p>A parser built without a mode takes {@link #configured()}: {@link #FAST} unless the system
 * property {@value #PROPERTY} is {@code false}, the one switch of all the fast paths.
 */
public enum DecodeMode {
    /**
     * Each record scanned for its entries and each entry resolved from its bytes, one row after
     * another; varints decoded by the scalar decoder.
     */
    PLAIN,
    /**
     * The plain path, and: records read ahead in groups; a record laid out as the last one learned
     * taken from that layout without a scan, and its long rows copied first; packed varints
     * decoded with the Vector API where this JVM and processor run it fast.
     */
    FAST;

    /** The system property that turns the fast paths off ({@code false}) or on ({@code true}, the default). */
    public static final String PROPERTY = "dataloader4j.fastpaths";

    /**
     * The mode of parsers built without one: {@link #FAST} unless the system property
     * {@value #PROPERTY} says {@code false}; read once per JVM.
     */
    public static DecodeMode configured() {
        return Configured.MODE;
    }

    /** The mode a value of {@value #PROPERTY} chooses: {@code true} or {@code false}, in any case. */
    static DecodeMode of(String setting) {
        String s = setting.trim().toLowerCase(Locale.ROOT);
        if (!s.equals("true") && !s.equals("false")) {
            Configured.LOG.warn("{}={} is not true or false: records are decoded without the fast paths", PROPERTY,
                    setting);
            return PLAIN;
        }
        return s.equals("true") ? FAST : PLAIN;
    }

    /** The property, read when a parser first asks for it. */
    private static final class Configured {
        private static final Logger LOG = LoggerFactory.getLogger(DecodeMode.class);
        private static final DecodeMode MODE = of(System.getProperty(PROPERTY, "true"));
    }
}
