package org.dataloader4j.image.internal;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * libpng's simplified read API ({@code png.h}, libpng 1.6), called directly: it reports errors in
 * the {@code png_image} it is given, never by a long jump out of the call. One {@code png_image}
 * ({@link #newImage}) serves one thread, image after image: {@link #beginRead} reads the header,
 * {@link #finishRead} the pixels, and {@link #free} releases what libpng holds in between.
 */
public final class LibPng {
    /** {@code PNG_FORMAT_FLAG_ALPHA}: the format has an alpha channel. */
    public static final int FORMAT_ALPHA = 0x01;
    /** {@code PNG_FORMAT_FLAG_COLOR}: three color channels, else one gray. */
    public static final int FORMAT_COLOR = 0x02;
    /** {@code PNG_FORMAT_FLAG_BGR}: blue, green, red. */
    public static final int FORMAT_BGR = 0x10;
    /**
     * {@code PNG_IMAGE_FLAG_16BIT_sRGB}: a 16-bit image without gAMA or sRGB chunk is taken as
     * sRGB-encoded, as other decoders take it, not as linear light to be gamma-encoded.
     */
    public static final int FLAG_16BIT_SRGB = 0x04;

    /** {@code png_image}, as {@code png.h} lays it out for 64-bit Linux. */
    static final StructLayout PNG_IMAGE = MemoryLayout.structLayout(
            ADDRESS.withName("opaque"),
            JAVA_INT.withName("version"),
            JAVA_INT.withName("width"),
            JAVA_INT.withName("height"),
            JAVA_INT.withName("format"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("colormap_entries"),
            JAVA_INT.withName("warning_or_error"),
            MemoryLayout.sequenceLayout(64, JAVA_BYTE).withName("message"),
            MemoryLayout.paddingLayout(4));
    private static final int PNG_IMAGE_VERSION = 1;
    private static final long VERSION = offset("version");
    private static final long WIDTH = offset("width");
    private static final long HEIGHT = offset("height");
    private static final long FORMAT = offset("format");
    private static final long FLAGS = offset("flags");
    private static final long MESSAGE = offset("message");

    private final MethodHandle beginReadFromMemory;
    private final MethodHandle finishRead;
    private final MethodHandle imageFree;

    LibPng(SymbolLookup png) {
        Linker linker = Linker.nativeLinker();
        beginReadFromMemory = NativeLibraries.bind(linker, png, "png_image_begin_read_from_memory",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        finishRead = NativeLibraries.bind(linker, png, "png_image_finish_read",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        imageFree = NativeLibraries.bind(linker, png, "png_image_free", FunctionDescriptor.ofVoid(ADDRESS));
    }

    private static long offset(String field) {
        return PNG_IMAGE.byteOffset(groupElement(field));
    }

    /** A zeroed {@code png_image} in {@code arena}. */
    public static MemorySegment newImage(Arena arena) {
        return arena.allocate(PNG_IMAGE);
    }

    /**
     * Resets {@code image} and reads the header of the PNG in {@code data}; whether it succeeded
     * ({@link #message} says why not). Call {@link #free} after, in either case.
     */
    public boolean beginRead(MemorySegment image, MemorySegment data) {
        image.fill((byte) 0);
        image.set(JAVA_INT, VERSION, PNG_IMAGE_VERSION);
        try {
            return (int) beginReadFromMemory.invokeExact(image, data, data.byteSize()) != 0;
        } catch (Throwable t) {
            throw NativeLibraries.unexpected(t);
        }
    }

    /**
     * Decodes the pixels of the image {@link #beginRead} opened into {@code buffer}, in the format
     * set by {@link #setFormat}, rows {@code rowStride} bytes apart (8-bit formats); whether it
     * succeeded. An alpha channel the file has and the format lacks would be composited on black:
     * callers keep it and drop it themselves.
     */
    public boolean finishRead(MemorySegment image, MemorySegment buffer, int rowStride) {
        try {
            return (int) finishRead.invokeExact(image, MemorySegment.NULL, buffer, rowStride, MemorySegment.NULL) != 0;
        } catch (Throwable t) {
            throw NativeLibraries.unexpected(t);
        }
    }

    /** Releases what libpng holds for {@code image}; harmless when it holds nothing. */
    public void free(MemorySegment image) {
        try {
            imageFree.invokeExact(image);
        } catch (Throwable t) {
            throw NativeLibraries.unexpected(t);
        }
    }

    /** The width in pixels, after {@link #beginRead}: up to 2<sup>31</sup> - 1, as PNG allows. */
    public static int width(MemorySegment image) {
        return image.get(JAVA_INT, WIDTH);
    }

    /** The height in rows, after {@link #beginRead}. */
    public static int height(MemorySegment image) {
        return image.get(JAVA_INT, HEIGHT);
    }

    /** The file's own format flags, after {@link #beginRead}. */
    public static int format(MemorySegment image) {
        return image.get(JAVA_INT, FORMAT);
    }

    /** Sets the format {@link #finishRead} writes, and the {@code flags} that change how it reads. */
    public static void setFormat(MemorySegment image, int format, int flags) {
        image.set(JAVA_INT, FORMAT, format);
        image.set(JAVA_INT, FLAGS, image.get(JAVA_INT, FLAGS) | flags);
    }

    /** libpng's message for the last failed call. */
    public static String message(MemorySegment image) {
        return image.asSlice(MESSAGE, 64).getString(0);
    }
}
