package org.dataloader4j.image;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageTypeSpecifier;

/**
 * The codec of the JDK's own ImageIO readers, always available. Its JPEG reader is IJG libjpeg 6b
 * with the default ISLOW inverse DCT and fancy upsampling, so that baseline and progressive JPEGs
 * decode to the same bytes as libjpeg-turbo's defaults (Pillow, OpenCV); PNG is lossless. Headers
 * are read by {@link ImageHeaders}, without ImageIO. Only the window asked for is decoded
 * ({@link ImageReadParam#setSourceRegion}); the rows above it are decoded and dropped, as JPEG
 * and PNG require.
 *
 * <p>Pixels as Pillow's {@code convert} gives them (see {@link RasterPixels}), with these
 * choices:
 * <ul>
 *   <li>an embedded colour profile is ignored, as libjpeg, Pillow and OpenCV ignore it;</li>
 *   <li>CMYK and YCCK JPEGs (Adobe's inverted CMYK) are converted to RGB as Pillow converts
 *       them;</li>
 *   <li>16-bit PNG samples are rounded to 8 bits as libpng rounds them;</li>
 *   <li>a JPEG whose chroma has all the columns and half the rows of its luma (4:4:0, as a
 *       lossless quarter turn makes of 4:2:2) has its chroma upsampled by repeating rows, libjpeg
 *       6b's only way; libjpeg-turbo (the native codec, Pillow, OpenCV) interpolates, so the
 *       pixels of such images differ slightly from theirs;</li>
 *   <li>a JPEG whose entropy-coded data is cut short or corrupt is refused, not padded: libjpeg
 *       only warns about it, and this codec turns such warnings into an {@link ImageException}.
 *       Extraneous bytes before a marker, which lose no pixel, are let through;</li>
 *   <li>a JPEG of 2<sup>31</sup> - 2 pixels or more is refused whatever the window: the JDK's
 *       reader will not read one.</li>
 * </ul>
 */
final class ImageIoCodec implements ImageCodec {
    static final ImageIoCodec INSTANCE = new ImageIoCodec();

    private ImageIoCodec() {
    }

    @Override
    public String name() {
        return "imageio";
    }

    @Override
    public Context newContext() {
        return new IoContext();
    }

    /**
     * One thread's decoding through ImageIO. Each image gets a reader of its own: the JDK's JPEG
     * reader keeps libjpeg's quantization and Huffman tables from one stream for the next, so a
     * JPEG that lacks a table would decode with the last image's, and its {@code reset} leaves
     * them. Not thread-safe.
     */
    private static final class IoContext implements Context {
        private final List<String> warnings = new ArrayList<>();
        private boolean closed;

        @Override
        public ImageInfo header(MemorySegment bytes) {
            ensureOpen();
            return ImageHeaders.read(Objects.requireNonNull(bytes, "bytes"));
        }

        @Override
        public void decode(MemorySegment bytes, ColorSpace colorSpace, CropWindow window, MemorySegment out) {
            ensureOpen();
            Objects.requireNonNull(colorSpace, "colorSpace");
            Objects.requireNonNull(window, "window");
            Objects.requireNonNull(out, "out");
            ImageInfo info = header(bytes);
            if (!window.fits(info.width(), info.height())) {
                throw new IllegalArgumentException("window does not fit the image: window=" + window
                        + " width=" + info.width() + " height=" + info.height());
            }
            long needed = (long) window.width() * window.height() * colorSpace.channels();
            if (out.byteSize() < needed) {
                throw new IllegalArgumentException("out is too small for the window: out.byteSize()=" + out.byteSize()
                        + " needed=" + needed + " window=" + window + " colorSpace=" + colorSpace);
            }
            BufferedImage image = read(info.format(), bytes, window);
            if (image.getWidth() != window.width() || image.getHeight() != window.height()) {
                throw new ImageException(info.format().id() + " decoded to " + image.getWidth() + "x" + image.getHeight()
                        + " pixels where its header and the window ask for " + window.width() + "x" + window.height());
            }
            RasterPixels.write(image, colorSpace, out);
        }

        private BufferedImage read(ImageFormat format, MemorySegment bytes, CropWindow window) {
            ImageReader reader = reader(format);
            warnings.clear();
            try (SegmentImageInputStream in = new SegmentImageInputStream(bytes)) {
                reader.setInput(in, true, true);
                ImageReadParam param = reader.getDefaultReadParam();
                param.setSourceRegion(new Rectangle(window.x(), window.y(), window.width(), window.height()));
                if (format == ImageFormat.JPEG) {
                    leaveEmbeddedProfileUnapplied(reader, param, window);
                }
                BufferedImage image = reader.read(0, param);
                if (format == ImageFormat.JPEG) {
                    refuseLostData();
                }
                return image;
            } catch (ImageException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                // ImageIO reports damage as IIOException, and at times as IllegalArgumentException,
                // IndexOutOfBoundsException or others from deeper down: all are the image's fault.
                throw new ImageException(format.id() + " cannot be decoded: " + e, e);
            } finally {
                reader.dispose();
            }
        }

        /**
         * Where a JPEG embeds an RGB colour profile, the JDK converts libjpeg's bytes from it to
         * sRGB, unless the destination is an image of the very colour space it made of the
         * profile; one such image is handed to it (as a destination, not a destination type,
         * which the JDK would compare with a copy of itself and refuse).
         */
        private static void leaveEmbeddedProfileUnapplied(ImageReader reader, ImageReadParam param, CropWindow window)
                throws IOException {
            for (Iterator<ImageTypeSpecifier> types = reader.getImageTypes(0); types.hasNext(); ) {
                ImageTypeSpecifier type = types.next();
                java.awt.color.ColorSpace space = type.getColorModel().getColorSpace();
                if (space.getType() == java.awt.color.ColorSpace.TYPE_RGB && !space.isCS_sRGB()) {
                    param.setDestination(type.createBufferedImage(window.width(), window.height()));
                    return;
                }
            }
        }

        private void refuseLostData() {
            for (String warning : warnings) {
                if (losesData(warning)) {
                    throw new ImageException("truncated or corrupt JPEG: " + String.join("; ", warnings));
                }
            }
        }

        /**
         * Whether a warning of the JDK's JPEG reader or of libjpeg says that pixels are missing
         * or wrong: the JDK's "Truncated File - Missing EOI marker", libjpeg's "Premature end of
         * JPEG file" and its "Corrupt JPEG data: ..." other than extraneous bytes before a marker.
         */
        static boolean losesData(String warning) {
            return warning.contains("Missing EOI")
                    || warning.contains("Premature end")
                    || (warning.contains("Corrupt JPEG data") && !warning.contains("extraneous bytes"));
        }

        private ImageReader reader(ImageFormat format) {
            Iterator<ImageReader> found = ImageIO.getImageReadersByFormatName(format.id());
            if (!found.hasNext()) {
                throw new ImageException("no ImageIO reader for " + format.id());
            }
            ImageReader reader = found.next();
            reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
            return reader;
        }

        private void ensureOpen() {
            if (closed) {
                throw new IllegalStateException("the ImageIO codec context is closed");
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
