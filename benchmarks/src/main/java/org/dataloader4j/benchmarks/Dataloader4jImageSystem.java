package org.dataloader4j.benchmarks;

import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.image.ColorSpace;
import org.dataloader4j.image.ImageCodec;
import org.dataloader4j.image.ImageCodecs;
import org.dataloader4j.image.ImageDecoder;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;

/**
 * dataloader4j over the OFRecord part files, with one codec (libjpeg-turbo through the native
 * codec, or JDK ImageIO), an {@code OFRecordReader} built anew for every pass (so a pass includes
 * opening the files and closing the reader) with a shuffle buffer, batches, the default ring and
 * {@code threads} parse threads:
 *
 * <ul>
 *   <li>{@link ImagePath#DECODE}: {@code ImageDecoder.of("image").colorSpace(RGB)}, each picture's
 *       pixels into a ragged uint8 output, and the label;</li>
 *   <li>{@link ImagePath#FUSED}: {@code OFRecordReader.imageClassification("image", "label", true,
 *       seed)}, OneFlow's image-classification reader: only each picture's random window decoded,
 *       resized to 224 × 224, mirrored on a coin flip and normalized into float32 NCHW rows; the
 *       label as int32.</li>
 * </ul>
 *
 * The consumer adds up the first value of every row of every output.
 */
final class Dataloader4jImageSystem implements ImageSystem {
    static final String NATIVE = "dataloader4j-native";
    static final String IMAGEIO = "dataloader4j-imageio";
    private static final String READER = "d4j-images";

    private final boolean nativeCodec;

    /** dataloader4j with the native codec if {@code nativeCodec}, else with ImageIO. */
    Dataloader4jImageSystem(boolean nativeCodec) {
        this.nativeCodec = nativeCodec;
    }

    @Override
    public String name() {
        return nativeCodec ? NATIVE : IMAGEIO;
    }

    @Override
    public ComparedSystem.Run open(ImageFiles data, ImagePath path, int threads, ComparedSystem.Settings settings)
            throws ComparedSystem.Unavailable {
        ImageCodec codec = nativeCodec ? ImageCodecs.nativeCodec().orElseThrow(() -> new ComparedSystem.Unavailable(
                "the native codec does not load: " + ImageCodecs.nativeUnavailableReason(), null)) : ImageCodecs.imageIO();
        return new ComparedSystem.Run() {
            @Override
            public Pass pass() {
                long start = System.nanoTime();
                long first = -1;
                long images = 0;
                double sum = 0;
                try (DataReader reader = build(data, path, threads, settings, codec)) {
                    for (Batch b = reader.read(); b != null; b = reader.read()) {
                        sum += path == ImagePath.DECODE ? touchPixels(b) : touchRows(b.tensor("image"), b.size());
                        sum += touchRows(b.tensor("label"), b.size());
                        images += b.size();
                        if (first < 0) {
                            first = System.nanoTime() - start;
                        }
                    }
                }
                long nanos = System.nanoTime() - start;
                Sink.consume(sum);
                return new Pass(images, nanos, first, -1, 0);
            }

            @Override
            public void close() {
            }
        };
    }

    private static DataReader build(ImageFiles data, ImagePath path, int threads, ComparedSystem.Settings settings,
                                    ImageCodec codec) {
        OFRecordReader.Builder b = path == ImagePath.FUSED
                ? OFRecordReader.imageClassification("image", "label", true, settings.seed())
                : OFRecordReader.builder()
                        .imageDecoder(ImageDecoder.of("image").colorSpace(ColorSpace.RGB)
                                .batchPixels((long) settings.batchSize() * ImageNetLike.WIDTH * ImageNetLike.HEIGHT))
                        .decoder(OFRecordRawDecoder.of("label", Shape.of(1), DataType.INT64))
                        .randomShuffle(true).seed(settings.seed());
        return b.imageCodec(codec).files(data.ofrecord()).batchSize(settings.batchSize())
                .shuffleBufferSize(settings.shuffleBuffer())
                .reader(o -> o.name(READER).parseThreads(threads))
                .build();
    }

    /** The first byte of every row's pixels. */
    private static double touchPixels(Batch b) {
        RaggedTensor pixels = b.ragged("image");
        Tensor values = pixels.values();
        double sum = 0;
        for (int row = 0; row < b.size(); row++) {
            sum += values.getByte(pixels.offset(row));
        }
        return sum;
    }

    /** The first value of every row of {@code t}. */
    private static double touchRows(Tensor t, int rows) {
        long width = t.elementCount() / Math.max(1, rows);
        double sum = 0;
        for (int row = 0; row < rows; row++) {
            long i = row * width;
            sum += switch (t.dataType()) {
                case FLOAT32 -> t.getFloat(i);
                case INT64 -> t.getLong(i);
                case INT32 -> t.getInt(i);
                default -> t.getByte(i);
            };
        }
        return sum;
    }
}
