package org.dataloader4j.image.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Loads the native codec's libraries once for the life of the JVM: the project's JPEG shim,
 * compiled into the jar at {@value #SHIM_RESOURCE} by the build where libjpeg-turbo's headers and
 * gcc are present, and the system's libpng ({@value #LIBPNG}). From a jar the shim is copied to a
 * temporary file first (removed when the JVM exits); from the build's {@code target/classes} it is
 * loaded where it lies.
 *
 * <p>Loading and binding are restricted methods of {@code java.lang.foreign}: the JVM is started
 * with {@code --enable-native-access=ALL-UNNAMED} (class path) or
 * {@code --enable-native-access=org.dataloader4j.image} (module path), else it warns, or refuses
 * where native access is denied.
 *
 * @param jpeg the JPEG shim
 * @param png  libpng's simplified API
 */
public record NativeLibraries(JpegShim jpeg, LibPng png) {
    /** Where the build puts the shim, in the module's resources. */
    public static final String SHIM_RESOURCE = "/native/linux-x86_64/libd4jjpeg.so";
    /** libpng 1.6, by its soname. */
    public static final String LIBPNG = "libpng16.so.16";

    /**
     * Loads and binds both libraries.
     *
     * @throws UnsupportedOperationException if this is not Linux on x86-64, or the shim was not built
     * @throws IllegalStateException         if a library or one of its functions cannot be loaded
     * @throws IllegalCallerException        if native access is denied to this module
     */
    @SuppressWarnings("restricted") // loading libraries is what native access is enabled for
    public static NativeLibraries load() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.equals("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new UnsupportedOperationException("the native codec is built for Linux on x86-64, not "
                    + System.getProperty("os.name") + " on " + System.getProperty("os.arch"));
        }
        Path shim = shimFile();
        SymbolLookup shimLookup = open(shim.toString(), () -> SymbolLookup.libraryLookup(shim, Arena.global()));
        SymbolLookup pngLookup = open(LIBPNG, () -> SymbolLookup.libraryLookup(LIBPNG, Arena.global()));
        return new NativeLibraries(new JpegShim(shimLookup), new LibPng(pngLookup));
    }

    private static SymbolLookup open(String name, Supplier<SymbolLookup> lookup) {
        try {
            return lookup.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(name + " cannot be loaded: " + e.getMessage(), e);
        }
    }

    /** The shim as a file: the resource itself where it is one, else a temporary copy. */
    private static Path shimFile() {
        URL url = NativeLibraries.class.getResource(SHIM_RESOURCE);
        if (url == null) {
            throw new UnsupportedOperationException(SHIM_RESOURCE + " is not in this build of loader-image: it is"
                    + " compiled only where /usr/include/jpeglib.h (libjpeg62-turbo-dev) and gcc are present");
        }
        try {
            if (url.getProtocol().equals("file")) {
                return Path.of(url.toURI());
            }
            Path copy = Files.createTempFile("libd4jjpeg", ".so");
            copy.toFile().deleteOnExit();
            try (InputStream in = url.openStream()) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            return copy;
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException(SHIM_RESOURCE + " cannot be copied out of " + url + ": " + e, e);
        }
    }

    /** A downcall to {@code name} in {@code library}. */
    @SuppressWarnings("restricted") // the descriptors follow d4j_jpeg.h and png.h
    static MethodHandle bind(Linker linker, SymbolLookup library, String name, FunctionDescriptor function) {
        return linker.downcallHandle(library.find(name).orElseThrow(
                () -> new IllegalStateException("no function " + name + " in the loaded library")), function);
    }

    /**
     * What a downcall threw, for rethrowing: an unchecked exception or error as it is (a closed
     * segment's, say), a checked one, which no downcall declares, wrapped.
     */
    static AssertionError unexpected(Throwable t) {
        if (t instanceof Error e) {
            throw e;
        }
        if (t instanceof RuntimeException e) {
            throw e;
        }
        return new AssertionError("a native call threw " + t, t);
    }
}
