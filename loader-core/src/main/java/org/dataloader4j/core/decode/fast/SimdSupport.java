package org.dataloader4j.core.decode.fast;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this JVM and its processor run the Vector API decoder of packed varints
 * ({@link SimdVarints}) fast, decided once per JVM. This class names no vector type, so it loads
 * where {@code jdk.incubator.vector} is absent.
 *
 * <p>The decoder is used only on the fast path, which the fast-path switch turns off as a whole
 * (docs/ofrecord-parser.md, "Fast paths"); on it, only where all of these hold:
 * <ul>
 *   <li>the JVM was started with {@code --add-modules jdk.incubator.vector}: the Vector API is
 *       an incubator module;</li>
 *   <li>the steps run as single instructions: an x86 processor with AVX-512 VBMI2 (Intel from Ice
 *       Lake, AMD from Zen 4) under a JVM whose preferred vectors are 512 bits wide; elsewhere the
 *       same steps would be slower than the scalar decoder;</li>
 *   <li>the decoder decodes a test list right ({@link SimdVarints#selfCheck}), so that a later
 *       JDK whose incubating API changed gets the scalar decoder rather than a failure in a
 *       parse.</li>
 * </ul>
 * Both decoders write the same values and report the same errors.
 */
public final class SimdSupport {
    private static final String MODULE = "jdk.incubator.vector";
    private static final Logger LOG = LoggerFactory.getLogger(SimdSupport.class);

    /** Whether the fast path decodes packed varints into INT32 and INT64 rows with {@link SimdVarints}. */
    public static final boolean VARINTS = decide();

    private SimdSupport() {
    }

    /** Whether this JVM and processor run {@link SimdVarints} fast, and it decodes right. */
    static boolean decide() {
        if (ModuleLayer.boot().findModule(MODULE).isEmpty()) {
            return false;
        }
        boolean on;
        try {
            on = SimdVarints.preferredWidthFits() && cpuFlag("avx512_vbmi2");
            if (on && !SimdVarints.selfCheck()) {
                LOG.warn("the Vector API decoder decoded a test list wrongly: packed varints are decoded without it");
                return false;
            }
        } catch (LinkageError e) {
            // A JDK whose incubating API no longer has what the decoder was compiled against.
            LOG.warn("the Vector API decoder cannot load ({}): packed varints are decoded without it", e.toString());
            return false;
        }
        LOG.debug("packed varints into INT32 and INT64 rows on the fast path: {}",
                on ? "Vector API decoder" : "scalar decoder");
        return on;
    }

    /** Whether Linux lists {@code flag} among the processor's flags; false where it cannot tell. */
    static boolean cpuFlag(String flag) {
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
