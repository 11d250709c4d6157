package org.dataloader4j.image;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.zip.CRC32;

/**
 * Reads the size and channels of a JPEG or PNG from its header alone, without decoding a pixel
 * or allocating for one, so that a header declaring 60000 × 60000 pixels is known as such before
 * anything is spent on it. JPEG: the markers are walked up to the first frame header (SOF0–SOF15
 * less DHT, JPG and DAC), which gives precision, height, width and components. PNG: the IHDR
 * chunk, which must come first, with its CRC checked, gives width, height, bit depth and colour
 * type. Stateless; safe to share.
 */
final class ImageHeaders {
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);
    private static final int PNG_IHDR = 0x49484452;
    private static final int PNG_IHDR_LENGTH = 13;

    private ImageHeaders() {
    }

    /** The header of the JPEG or PNG in {@code bytes}. */
    static ImageInfo read(MemorySegment bytes) {
        ImageFormat format = ImageFormat.detect(bytes);
        if (format == null) {
            throw notAnImage(bytes);
        }
        return format == ImageFormat.JPEG ? jpeg(bytes) : png(bytes);
    }

    /** The error for bytes that start with neither signature: it shows their first bytes. */
    static ImageException notAnImage(MemorySegment bytes) {
        if (bytes.byteSize() == 0) {
            return new ImageException("not a JPEG or PNG: no bytes");
        }
        int n = (int) Math.min(8, bytes.byteSize());
        byte[] head = bytes.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
        return new ImageException("not a JPEG or PNG: " + bytes.byteSize() + " bytes starting "
                + HexFormat.ofDelimiter(" ").formatHex(head));
    }

    private static ImageInfo jpeg(MemorySegment bytes) {
        long size = bytes.byteSize();
        long pos = 2;
        while (true) {
            if (pos >= size) {
                throw new ImageException("truncated JPEG: " + size + " bytes end before the frame header (SOF)");
            }
            if (u8(bytes, pos) != 0xFF) {
                throw new ImageException(String.format("damaged JPEG: byte 0x%02X at offset %d where a marker should start",
                        u8(bytes, pos), pos));
            }
            // Any number of 0xFF fill bytes may come before a marker code.
            while (pos < size && u8(bytes, pos) == 0xFF) {
                pos++;
            }
            if (pos >= size) {
                throw new ImageException("truncated JPEG: " + size + " bytes end inside a marker");
            }
            int marker = u8(bytes, pos);
            long markerOffset = pos - 1;
            pos++;
            if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
                continue; // TEM and RSTn stand alone, without a length
            }
            if (marker == 0xD9 || marker == 0xDA || marker == 0xD8 || marker == 0x00) {
                throw new ImageException(String.format("damaged JPEG: marker 0x%02X at offset %d before any frame header (SOF)",
                        marker, markerOffset));
            }
            if (pos + 2 > size) {
                throw new ImageException(String.format("truncated JPEG: %d bytes end inside the length of marker 0x%02X at offset %d",
                        size, marker, markerOffset));
            }
            int length = u16(bytes, pos);
            if (length < 2) {
                throw new ImageException(String.format("damaged JPEG: marker 0x%02X at offset %d has length %d",
                        marker, markerOffset, length));
            }
            if (isStartOfFrame(marker)) {
                return jpegFrame(bytes, marker, markerOffset, pos, length);
            }
            pos += length;
        }
    }

    private static boolean isStartOfFrame(int marker) {
        // SOF0..SOF15 are C0..CF, except DHT (C4), JPG (C8) and DAC (CC).
        return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    }

    private static ImageInfo jpegFrame(MemorySegment bytes, int marker, long markerOffset, long pos, int length) {
        long size = bytes.byteSize();
        if (length < 8) {
            throw new ImageException(String.format("damaged JPEG: frame header SOF%d at offset %d has length %d, under 8",
                    marker - 0xC0, markerOffset, length));
        }
        if (pos + length > size) {
            throw new ImageException(String.format("truncated JPEG: %d bytes end inside the frame header at offset %d",
                    size, markerOffset));
        }
        int precision = u8(bytes, pos + 2);
        int height = u16(bytes, pos + 3);
        int width = u16(bytes, pos + 5);
        int components = u8(bytes, pos + 7);
        if (length != 8 + 3 * components) {
            throw new ImageException(String.format("damaged JPEG: frame header at offset %d has length %d for %d components",
                    markerOffset, length, components));
        }
        if (precision < 2 || precision > 16) {
            throw new ImageException("damaged JPEG: sample precision " + precision + " bits");
        }
        if (components == 0) {
            throw new ImageException("damaged JPEG: the frame header declares no components");
        }
        if (width == 0) {
            throw new ImageException("damaged JPEG: the frame header declares width 0");
        }
        if (height == 0) {
            throw new ImageException("JPEG height given by a DNL marker after the first scan: not supported");
        }
        return new ImageInfo(ImageFormat.JPEG, width, height, components);
    }

    private static ImageInfo png(MemorySegment bytes) {
        long size = bytes.byteSize();
        long chunk = 8;
        if (size < chunk + 8 + PNG_IHDR_LENGTH + 4) {
            throw new ImageException("truncated PNG: " + size + " bytes end inside the IHDR chunk");
        }
        int length = bytes.get(U32, chunk);
        int type = bytes.get(U32, chunk + 4);
        if (type != PNG_IHDR || length != PNG_IHDR_LENGTH) {
            throw new ImageException(String.format("damaged PNG: the first chunk is %s of length %d, not IHDR of length 13",
                    chunkName(type), Integer.toUnsignedLong(length)));
        }
        CRC32 crc = new CRC32();
        crc.update(bytes.asSlice(chunk + 4, 4 + PNG_IHDR_LENGTH).toArray(ValueLayout.JAVA_BYTE));
        int stored = bytes.get(U32, chunk + 8 + PNG_IHDR_LENGTH);
        if ((int) crc.getValue() != stored) {
            throw new ImageException(String.format("damaged PNG: IHDR CRC is %08x, computed %08x", stored, (int) crc.getValue()));
        }
        long data = chunk + 8;
        int width = bytes.get(U32, data);
        int height = bytes.get(U32, data + 4);
        int bitDepth = u8(bytes, data + 8);
        int colorType = u8(bytes, data + 9);
        if (width <= 0 || height <= 0) {
            // The PNG specification bounds both by 2^31 - 1; a negative int is over that bound.
            throw new ImageException("damaged PNG: IHDR declares width " + Integer.toUnsignedLong(width)
                    + " and height " + Integer.toUnsignedLong(height));
        }
        int components = pngComponents(colorType, bitDepth);
        if (u8(bytes, data + 10) != 0 || u8(bytes, data + 11) != 0 || u8(bytes, data + 12) > 1) {
            throw new ImageException("damaged PNG: IHDR compression " + u8(bytes, data + 10) + ", filter "
                    + u8(bytes, data + 11) + ", interlace " + u8(bytes, data + 12));
        }
        return new ImageInfo(ImageFormat.PNG, width, height, components);
    }

    /** The samples a pixel stores: a palette image stores one, its index. */
    private static int pngComponents(int colorType, int bitDepth) {
        boolean valid = switch (colorType) {
            case 0 -> bitDepth == 1 || bitDepth == 2 || bitDepth == 4 || bitDepth == 8 || bitDepth == 16;
            case 3 -> bitDepth == 1 || bitDepth == 2 || bitDepth == 4 || bitDepth == 8;
            case 2, 4, 6 -> bitDepth == 8 || bitDepth == 16;
            default -> false;
        };
        if (!valid) {
            throw new ImageException("damaged PNG: colour type " + colorType + " with bit depth " + bitDepth);
        }
        return switch (colorType) {
            case 0, 3 -> 1;
            case 4 -> 2;
            case 2 -> 3;
            default -> 4;
        };
    }

    private static String chunkName(int type) {
        StringBuilder name = new StringBuilder(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            int c = (type >>> shift) & 0xFF;
            name.append(c >= 0x20 && c < 0x7F ? (char) c : '?');
        }
        return name.toString();
    }

    private static int u8(MemorySegment bytes, long offset) {
        return Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, offset));
    }

    private static int u16(MemorySegment bytes, long offset) {
        return Short.toUnsignedInt(bytes.get(U16, offset));
    }
}
