package org.dataloader4j.image.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * The project's JPEG shim, {@code libd4jjpeg.so} ({@code loader-image/src/main/c/d4j_jpeg.h}):
 * a libjpeg-turbo decompressor that reports errors as return codes and messages. Its functions
 * are bound once; a decompressor handle is used by one thread at a time.
 */
public final class JpegShim {
    /** The call succeeded. */
    public static final int OK = 0;
    /** The image is damaged, truncated or cannot be decoded: see {@link #message}. */
    public static final int BAD_IMAGE = 1;
    /** The call does not fit the image (a window outside it): see {@link #message}. */
    public static final int BAD_ARGUMENT = 2;

    /** Output channels for {@link #decode}: one gray channel. */
    public static final int GRAY = 0;
    /** Output channels for {@link #decode}: red, green, blue. */
    public static final int RGB = 1;
    /** Output channels for {@link #decode}: blue, green, red. */
    public static final int BGR = 2;

    /** The ints {@link #header} writes: width, height, components, libjpeg's stored color space. */
    public static final int INFO_LENGTH = 4;

    /** The longest message, with its NUL: libjpeg's {@code JMSG_LENGTH_MAX}. */
    private static final long MESSAGE_MAX = 200;

    private final MethodHandle create;
    private final MethodHandle destroy;
    private final MethodHandle message;
    private final MethodHandle header;
    private final MethodHandle decode;

    JpegShim(SymbolLookup shim) {
        Linker linker = Linker.nativeLinker();
        create = NativeLibraries.bind(linker, shim, "d4j_jpeg_create", FunctionDescriptor.of(ADDRESS));
        destroy = NativeLibraries.bind(linker, shim, "d4j_jpeg_destroy", FunctionDescriptor.ofVoid(ADDRESS));
        message = NativeLibraries.bind(linker, shim, "d4j_jpeg_message", FunctionDescriptor.of(ADDRESS, ADDRESS));
        header = NativeLibraries.bind(linker, shim, "d4j_jpeg_header",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
        decode = NativeLibraries.bind(linker, shim, "d4j_jpeg_decode", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG));
    }

    /**
     * A new decompressor, to be given to {@link #destroy} when done.
     *
     * @throws OutOfMemoryError if the shim cannot allocate one
     */
    public MemorySegment create() {
        MemorySegment ctx;
        try {
            ctx = (MemorySegment) create.invokeExact();
        } catch (Throwable t) {
            throw NativeLibraries.unexpected(t);
        }
        if (ctx.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("libjpeg could not allocate a decompressor");
        }
        return ctx;
    }

    /** Frees a decompressor from {@link #create}. */
    public void destroy(MemorySegment ctx) {
        try {
            destroy.invokeExact(ctx);
        } catch (Throwable t) {
            throw NativeLibraries.unexpected(t);
        }
    }

    /** The message of the last call on {@code ctx} that did not return {@link #OK}. */
    @SuppressWarnings("restricted") // the shim's message buffer is JMSG_LENGTH_MAX bytes, NUL-terminated
    public String message(MemorySegment ctx) {
        try {
            MemorySegment text = (MemorySegment) message.invokeExact(ctx);
            return text.reinterpret(MESSAGE_MAX).getString(0);
        } catch (Throwable t) {
            throw NativeLibraries.unexpected(t);
        }
    }

    /** Reads the header of the JPEG in {@code data} into {@code info} ({@link #INFO_LENGTH} ints); a result code. */
    public int header(MemorySegment ctx, MemorySegment data, MemorySegment info) {
        try {
            return (int) header.invokeExact(ctx, data, data.byteSize(), info);
        } catch (Throwable t) {
            throw NativeLibraries.unexpected(t);
        }
    }

    /**
     * Decodes the window {@code (x, y, width, height)} of the JPEG in {@code data}, scaled down
     * by {@code scale} (1, 2, 4 or 8; the window is in the scaled image, whose sides are the
     * image's divided by {@code scale}, rounded up), into {@code out} as {@code color}
     * ({@link #GRAY}, {@link #RGB} or {@link #BGR}), rows without padding; a result code. The shim
     * writes no more than {@code out.byteSize()} bytes.
     */
    public int decode(MemorySegment ctx, MemorySegment data, int color, int scale, int x, int y, int width, int height,
            MemorySegment out) {
        try {
            return (int) decode.invokeExact(ctx, data, data.byteSize(), color, scale, x, y, width, height, out,
                    out.byteSize());
        } catch (Throwable t) {
            throw NativeLibraries.unexpected(t);
        }
    }
}
