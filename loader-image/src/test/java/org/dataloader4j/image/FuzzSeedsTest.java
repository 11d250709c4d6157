package org.dataloader4j.image;

import static java.awt.color.ColorSpace.CS_GRAY;
import static java.awt.color.ColorSpace.CS_sRGB;
import static org.dataloader4j.core.testing.FuzzSeeds.randomBytes;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Transparency;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.IndexColorModel;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageTypeSpecifier;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.metadata.IIOMetadata;
import javax.imageio.metadata.IIOMetadataNode;
import javax.imageio.stream.ImageOutputStream;
import org.dataloader4j.core.testing.ByteMutations;
import org.dataloader4j.core.testing.FuzzSeeds;
import org.junit.jupiter.api.Test;

/**
 * The seed inputs of {@link ImageDecoderFuzzTest}, generated from a fixed seed and written by
 * the JDK's own JPEG and PNG writers: small images of every layout the decoders read
 * differently, then the first of them truncated, cut after its header, and with bytes flipped;
 * each followed by the {@link ImageDecoderFuzzTest#WINDOW_BYTES} that place a window. The
 * committed files must be what this writes ({@link FuzzSeeds}); {@code -Dfuzz.seeds.write=true}
 * rewrites them.
 */
class FuzzSeedsTest {
    private static final long SEED = 0x5EED_1A6EL;
    private static final String JPEG_FORMAT = "javax_imageio_jpeg_image_1.0";
    /** The most bytes a seed may have: small inputs keep a fuzzing run fast. */
    private static final int MAX_SEED_BYTES = 4096;

    @Test
    void jpegSeeds() {
        Random random = new Random(SEED);
        BufferedImage color = picture(random, BufferedImage.TYPE_3BYTE_BGR, 37, 21);
        Map<String, byte[]> images = new LinkedHashMap<>();
        images.put("seed-baseline-420", jpeg(color, 2, 2, false, 0));
        images.put("seed-baseline-422", jpeg(color, 2, 1, false, 0));
        images.put("seed-baseline-440", jpeg(color, 1, 2, false, 0));
        images.put("seed-baseline-444", jpeg(color, 1, 1, false, 0));
        images.put("seed-progressive-420", jpeg(color, 2, 2, true, 0));
        images.put("seed-restart-420", jpeg(color, 2, 2, false, 1));
        images.put("seed-gray", jpeg(picture(random, BufferedImage.TYPE_BYTE_GRAY, 29, 17), 1, 1, false, 0));
        images.put("seed-cmyk", cmykJpeg(random, 23, 19));
        byte[] valid = images.get("seed-baseline-420");
        images.put("seed-header-only", Arrays.copyOf(valid, jpegScanStart(valid)));
        putDamaged(images, random, valid, images.get("seed-progressive-420"));
        FuzzSeeds.writeOrCheck(ImageDecoderFuzzTest.class, "decodeJpeg", withWindows(random, images));
    }

    @Test
    void pngSeeds() {
        Random random = new Random(SEED + 1);
        int width = 19;
        int height = 13;
        BufferedImage rgb = picture(random, BufferedImage.TYPE_3BYTE_BGR, width, height);
        Map<String, byte[]> images = new LinkedHashMap<>();
        images.put("seed-rgb", png(rgb, false));
        images.put("seed-rgb-interlaced", png(rgb, true));
        images.put("seed-gray", png(picture(random, BufferedImage.TYPE_BYTE_GRAY, width, height), false));
        images.put("seed-gray-2-bit", png(palette(random, 2, width, height, false), false));
        images.put("seed-palette", png(palette(random, 8, width, height, false), false));
        images.put("seed-palette-transparent", png(palette(random, 4, width, height, true), false));
        images.put("seed-rgb-alpha", png(picture(random, BufferedImage.TYPE_4BYTE_ABGR, width, height), false));
        images.put("seed-gray-alpha", png(noise(random, model(CS_GRAY, true, DataBuffer.TYPE_BYTE), width, height), false));
        images.put("seed-gray-16", png(noise(random, model(CS_GRAY, false, DataBuffer.TYPE_USHORT), width, height), false));
        images.put("seed-rgb-16", png(noise(random, model(CS_sRGB, false, DataBuffer.TYPE_USHORT), 11, 7), false));
        byte[] valid = images.get("seed-rgb");
        // The signature and IHDR: 8 + 4 + 4 + 13 + 4 bytes.
        images.put("seed-header-only", Arrays.copyOf(valid, 33));
        putDamaged(images, random, valid, images.get("seed-rgb-interlaced"));
        FuzzSeeds.writeOrCheck(ImageDecoderFuzzTest.class, "decodePng", withWindows(random, images));
    }

    /** {@code valid[0]} cut in half, and each of {@code valid} with one byte flipped and with a seeded mutation. */
    private static void putDamaged(Map<String, byte[]> images, Random random, byte[]... valid) {
        images.put("seed-truncated", Arrays.copyOf(valid[0], valid[0].length / 2));
        for (int i = 0; i < valid.length; i++) {
            images.put("seed-flipped-" + i, ByteMutations.flipBit(random, valid[i]));
            images.put("seed-mutated-" + i, ByteMutations.mutate(random, valid[i]));
        }
    }

    /** Each image followed by the bytes that place a window in it. */
    private static Map<String, byte[]> withWindows(Random random, Map<String, byte[]> images) {
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        images.forEach((name, image) -> {
            byte[] seed = Arrays.copyOf(image, image.length + ImageDecoderFuzzTest.WINDOW_BYTES);
            System.arraycopy(randomBytes(random, ImageDecoderFuzzTest.WINDOW_BYTES), 0, seed, image.length,
                    ImageDecoderFuzzTest.WINDOW_BYTES);
            assertTrue(seed.length <= MAX_SEED_BYTES, name + " has " + seed.length + " bytes");
            seeds.put(name, seed);
        });
        return seeds;
    }

    /** A picture with smooth gradients and some noise, as a photograph has both. */
    private static BufferedImage picture(Random random, int type, int width, int height) {
        BufferedImage image = new BufferedImage(width, height, type);
        WritableRaster raster = image.getRaster();
        int[] pixel = new int[raster.getNumBands()];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                for (int band = 0; band < pixel.length; band++) {
                    pixel[band] = Math.min(255, (x * (band + 3) + y * (7 - band)) * 4 + random.nextInt(32));
                }
                raster.setPixel(x, y, pixel);
            }
        }
        return image;
    }

    /**
     * An image of a palette of {@code 2^bits} colours, random ones, or a gray ramp (which the
     * writer stores as gray of {@code bits} bits) if {@code bits} is 2; some see-through if asked.
     */
    private static BufferedImage palette(Random random, int bits, int width, int height, boolean transparent) {
        int size = 1 << bits;
        byte[] red = randomBytes(random, size);
        if (bits == 2) {
            for (int i = 0; i < size; i++) {
                red[i] = (byte) (i * 255 / (size - 1));
            }
        }
        byte[] green = bits == 2 ? red : randomBytes(random, size);
        byte[] blue = bits == 2 ? red : randomBytes(random, size);
        IndexColorModel model;
        if (transparent) {
            byte[] alpha = randomBytes(random, size);
            alpha[0] = 0;
            model = new IndexColorModel(bits, size, red, green, blue, alpha);
        } else {
            model = new IndexColorModel(bits, size, red, green, blue);
        }
        BufferedImage image = bits == 8
                ? new BufferedImage(width, height, BufferedImage.TYPE_BYTE_INDEXED, model)
                : new BufferedImage(width, height, BufferedImage.TYPE_BYTE_BINARY, model);
        WritableRaster raster = image.getRaster();
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                raster.setSample(x, y, 0, random.nextInt(size));
            }
        }
        return image;
    }

    /** The channels of {@code colorSpace} ({@code java.awt.color.ColorSpace.CS_*}), alpha if asked, in samples of {@code dataType}. */
    private static ComponentColorModel model(int colorSpace, boolean alpha, int dataType) {
        return new ComponentColorModel(java.awt.color.ColorSpace.getInstance(colorSpace), alpha, false,
                alpha ? Transparency.TRANSLUCENT : Transparency.OPAQUE, dataType);
    }

    /** An image of {@code model} whose samples are all random. */
    private static BufferedImage noise(Random random, ComponentColorModel model, int width, int height) {
        WritableRaster raster = model.createCompatibleWritableRaster(width, height);
        int max = (1 << model.getComponentSize(0)) - 1;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                for (int band = 0; band < raster.getNumBands(); band++) {
                    raster.setSample(x, y, band, random.nextInt(max + 1));
                }
            }
        }
        return new BufferedImage(model, raster, false, null);
    }

    private static byte[] png(BufferedImage image, boolean interlaced) {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("png").next();
        ImageWriteParam param = writer.getDefaultWriteParam();
        if (interlaced) {
            param.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
        }
        return write(writer, new IIOImage(image, null, null), param);
    }

    /**
     * A JFIF JPEG of {@code image} at quality 0.75 whose luma is sampled {@code h × v} times the
     * chroma, progressive if asked, with a restart marker every {@code restartInterval} MCUs
     * (none if 0).
     */
    private static byte[] jpeg(BufferedImage image, int h, int v, boolean progressive, int restartInterval) {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ImageWriteParam param = writer.getDefaultWriteParam();
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(0.75f);
        if (progressive) {
            param.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
        }
        IIOMetadata metadata = writer.getDefaultImageMetadata(new ImageTypeSpecifier(image), param);
        IIOMetadataNode root = (IIOMetadataNode) metadata.getAsTree(JPEG_FORMAT);
        IIOMetadataNode markers = (IIOMetadataNode) root.getElementsByTagName("markerSequence").item(0);
        IIOMetadataNode sof = (IIOMetadataNode) markers.getElementsByTagName("sof").item(0);
        IIOMetadataNode luma = (IIOMetadataNode) sof.getElementsByTagName("componentSpec").item(0);
        if (sof.getElementsByTagName("componentSpec").getLength() > 1) {
            luma.setAttribute("HsamplingFactor", Integer.toString(h));
            luma.setAttribute("VsamplingFactor", Integer.toString(v));
        }
        if (restartInterval > 0) {
            IIOMetadataNode dri = new IIOMetadataNode("dri");
            dri.setAttribute("interval", Integer.toString(restartInterval));
            markers.insertBefore(dri, sof);
        }
        try {
            metadata.setFromTree(JPEG_FORMAT, root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return write(writer, new IIOImage(image, null, metadata), param);
    }

    /** A CMYK JPEG with Adobe's marker, written from a raster of four random-ish bands. */
    private static byte[] cmykJpeg(Random random, int width, int height) {
        WritableRaster raster = Raster.createInterleavedRaster(DataBuffer.TYPE_BYTE, width, height, 4, null);
        int[] pixel = new int[4];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                for (int band = 0; band < 4; band++) {
                    pixel[band] = Math.min(255, (x * (band + 2) + y * (5 - band)) * 5 + random.nextInt(24));
                }
                raster.setPixel(x, y, pixel);
            }
        }
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ImageWriteParam param = writer.getDefaultWriteParam();
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(0.75f);
        return write(writer, new IIOImage(raster, null, null), param);
    }

    private static byte[] write(ImageWriter writer, IIOImage image, ImageWriteParam param) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ImageOutputStream out = ImageIO.createImageOutputStream(bytes)) {
            writer.setOutput(out);
            writer.write(null, image, param);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }

    /** Where the entropy-coded data of a JPEG's first scan starts: after the SOS segment. */
    private static int jpegScanStart(byte[] jpeg) {
        int pos = 2;
        while (true) {
            int marker = jpeg[pos + 1] & 0xFF;
            int length = ((jpeg[pos + 2] & 0xFF) << 8) | (jpeg[pos + 3] & 0xFF);
            pos += 2 + length;
            if (marker == 0xDA) {
                return pos;
            }
        }
    }
}
