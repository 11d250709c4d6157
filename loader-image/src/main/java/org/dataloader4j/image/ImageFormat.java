package org.dataloader4j.image;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** The encodings the decoders read, told apart by their first bytes, never by a name. */
public enum ImageFormat {
    /** JPEG: {@code FF D8 FF}. */
    JPEG,
    /** PNG: the eight-byte signature {@code 89 50 4E 47 0D 0A 1A 0A}. */
    PNG;

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    /** The format {@code bytes} start with, or null if neither. */
    public static ImageFormat detect(MemorySegment bytes) {
        long n = bytes.byteSize();
        if (n >= 3 && at(bytes, 0) == (byte) 0xFF && at(bytes, 1) == (byte) 0xD8 && at(bytes, 2) == (byte) 0xFF) {
            return JPEG;
        }
        if (n >= PNG_SIGNATURE.length) {
            for (int i = 0; i < PNG_SIGNATURE.length; i++) {
                if (at(bytes, i) != PNG_SIGNATURE[i]) {
                    return null;
                }
            }
            return PNG;
        }
        return null;
    }

    private static byte at(MemorySegment bytes, long i) {
        return bytes.get(ValueLayout.JAVA_BYTE, i);
    }

    /** {@code "jpeg"} or {@code "png"}. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
