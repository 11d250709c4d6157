package org.dataloader4j.core.decode.fast;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.dataloader4j.core.decode.ValueCopier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether packed varints are decoded with the Vector API ({@link SimdVarints}), decided once per
 * JVM. This class names no vector type, so it loads where {@code jdk.incubator.vector} is absent.
 *
 * <p>The Vector API is an incubator module: a JVM has it only when started with
 * {@code --add-modules jdk.incubator.vector}. With it, the system property
 * {@value #PROPERTY} chooses:
 * <ul>
 *   <li>{@code auto} (the default): on where the steps are known to run as single instructions,
 *       an x86 processor with AVX-512 VBMI2 (Intel from Ice Lake, AMD from Zen 4) under a JVM
 *       whose preferred vectors are 512 bits wide; off elsewhere, where the same steps would be
 *       slower than the scalar decoder;</li>
 *   <li>{@code true}: on wherever the module is, fast or not;</li>
 *   <li>{@code false}: off.</li>
 * </ul>
 * Both decoders write the same values and report the same errors.
 */
public final class SimdSupport {
    /** The system property that turns the Vector API decoder on or off. */
    static final String PROPERTY = "dataloader4j.simd";
    private static final String MODULE = "jdk.incubator.vector";
    private static final Logger LOG = LoggerFactory.getLogger(SimdSupport.class);

    /** Whether {@link ValueCopier} decodes packed varints into INT32 and INT64 rows with {@link SimdVarints}. */
    public static final boolean VARINTS = decide(System.getProperty(PROPERTY, "auto"));

    private SimdSupport() {
    }

    /** The choice for a value of {@value #PROPERTY}. */
    public static boolean decide(String setting) {
        String s = setting.trim().toLowerCase(Locale.ROOT);
        if (!s.equals("auto") && !s.equals("true") && !s.equals("false")) {
            LOG.warn("{}={} is not auto, true or false: packed varints are decoded without the Vector API", PROPERTY, setting);
            return false;
        }
        if (s.equals("false") || ModuleLayer.boot().findModule(MODULE).isEmpty()) {
            return false;
        }
        boolean on;
        try {
            on = s.equals("true") || (SimdVarints.preferredWidthFits() && cpuFlag("avx512_vbmi2"));
            if (on && !SimdVarints.selfCheck()) {
                LOG.warn("the Vector API decoder decoded a test list wrongly: packed varints are decoded without it");
                return false;
            }
        } catch (LinkageError e) {
            // A JDK whose incubating API no longer has what the decoder was compiled against.
            LOG.warn("the Vector API decoder cannot load ({}): packed varints are decoded without it", e.toString());
            return false;
        }
        LOG.debug("packed varints into INT32 and INT64 rows: {}", on ? "Vector API decoder" : "scalar decoder");
        return on;
    }

    /** Whether Linux lists {@code flag} among the processor's flags; false where it cannot tell. */
    public static boolean cpuFlag(String flag) {
        try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("flags"))
                    .findFirst()
                    .map(l -> Arrays.asList(l.substring(l.indexOf(':') + 1).trim().split("\\s+")).contains(flag))
                    .orElse(false);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
