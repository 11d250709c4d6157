package org.dataloader4j.benchmarks;

import java.util.List;
import org.tensorflow.ConcreteFunction;
import org.tensorflow.Graph;
import org.tensorflow.GraphOperation;
import org.tensorflow.Operand;
import org.tensorflow.Session;
import org.tensorflow.Signature;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.data.IteratorGetNext;
import org.tensorflow.op.data.MakeIterator;
import org.tensorflow.op.image.DecodeAndCropJpeg;
import org.tensorflow.op.image.DecodeJpeg;
import org.tensorflow.op.image.ResizeBilinear;
import org.tensorflow.op.image.SampleDistortedBoundingBox;
import org.tensorflow.op.io.ParseSingleExample;
import org.tensorflow.op.random.RandomUniform;
import org.tensorflow.proto.ConfigProto;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;
import org.tensorflow.types.TUint8;
import org.tensorflow.types.family.TType;

/**
 * TensorFlow's own image pipeline through TensorFlow Java in graph mode, over the TFRecord part
 * files: {@code TFRecordDataset → shuffle → ParallelMapDataset(f, parallel calls = threads) →
 * batch → prefetch(2)} on a private pool of {@code threads} threads, pulled by
 * {@code IteratorGetNext} in a session whose op parallelism is {@code threads} too (the pipeline
 * of {@link TensorFlowJavaSystem}, with a map where that one parses). The map function {@code f}
 * is what TensorFlow's ImageNet input functions do to one record:
 *
 * <ul>
 *   <li>{@link ImagePath#DECODE}: {@code ParseSingleExample} ({@code image/encoded},
 *       {@code image/class/label}), then {@code DecodeJpeg(channels=3)}: uint8 HWC;</li>
 *   <li>{@link ImagePath#FUSED}: {@code ParseSingleExample}, {@code ExtractJpegShape},
 *       {@code SampleDistortedBoundingBoxV2} over the whole picture (area 0.08 to 1, aspect ratio
 *       3/4 to 4/3, 10 attempts, then the whole picture: RandomResizedCrop's window),
 *       {@code DecodeAndCropJpeg} of that window only, {@code ResizeBilinear} to 224 × 224 (half
 *       pixel centres, as {@code tf.image.resize}), a mirror where a {@code RandomUniform} draw is
 *       under 0.5 ({@code tf.image.random_flip_left_right}), and {@code (v - mean) / std} with
 *       ImageNet's mean and std on 0–255 values: float32 NHWC, TensorFlow's own layout.</li>
 * </ul>
 *
 * The consumer adds up the first value of every row of both outputs. The shuffle buffer holds a
 * copy of each record (a string tensor); dataloader4j's holds slices of its mapped files.
 */
final class TensorFlowImageSystem implements ImageSystem {
    static final String NAME = "tensorflow-java";
    private static final long READ_BUFFER = 256 * 1024;
    private static final int SIDE = 224;
    private static final float[] MEAN = {123.68f, 116.779f, 103.939f};
    private static final float[] STD = {58.393f, 57.12f, 57.375f};

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ComparedSystem.Run open(ImageFiles data, ImagePath path, int threads, ComparedSystem.Settings settings)
            throws ComparedSystem.Unavailable {
        Graph graph;
        try {
            graph = new Graph();
        } catch (LinkageError e) {
            throw new ComparedSystem.Unavailable("TensorFlow's native library did not load (build with -Ptf-native, as "
                    + "run-images.sh does): " + e, e);
        }
        try {
            return new TfRun(graph, data, path, threads, settings);
        } catch (RuntimeException e) {
            graph.close();
            throw e;
        }
    }

    /** One graph and session: the pipeline of one path at one thread count. */
    private static final class TfRun implements ComparedSystem.Run {
        private final Graph graph;
        private final ConcreteFunction map;
        private final Session session;
        private final MakeIterator makeIterator;
        private final IteratorGetNext next;

        TfRun(Graph graph, ImageFiles data, ImagePath path, int threads, ComparedSystem.Settings settings) {
            this.graph = graph;
            Ops tf = Ops.create(graph);
            long seed = settings.seed();
            this.map = ConcreteFunction.create(f -> path == ImagePath.DECODE ? decode(f) : fused(f, seed));
            List<Class<? extends TType>> types = List.of(path == ImagePath.DECODE ? TUint8.class : TFloat32.class, TInt64.class);
            Shape imageShape = path == ImagePath.DECODE ? Shape.of(Shape.UNKNOWN_SIZE, Shape.UNKNOWN_SIZE, 3) : Shape.of(SIDE, SIDE, 3);
            List<Shape> rowShapes = List.of(imageShape, Shape.of(1));
            List<Shape> batchShapes = List.of(Shape.of(Shape.UNKNOWN_SIZE).append(imageShape), Shape.of(Shape.UNKNOWN_SIZE, 1));
            String[] files = data.tfrecord().stream().map(p -> p.toAbsolutePath().toString()).toArray(String[]::new);
            // TFRecordDataset (version 1) by name, as TensorFlowJavaSystem builds it, and for the same reason.
            GraphOperation records = graph.opBuilder("TFRecordDataset", "records", tf.scope())
                    .addInput(tf.constant(NdArrays.vectorOfObjects(files)).asOutput())
                    .addInput(tf.constant("").asOutput())
                    .addInput(tf.constant(READ_BUFFER).asOutput())
                    .build();
            Operand<TType> source = records.output(0);
            var shuffled = tf.data.shuffleDataset(source, tf.constant((long) settings.shuffleBuffer()), tf.constant(seed),
                    tf.constant(seed + 1), tf.random.dummySeedGenerator(), List.of(TString.class), List.of(Shape.scalar()));
            var mapped = tf.data.parallelMapDataset(shuffled, List.of(), tf.constant((long) threads), map, types, rowShapes);
            var batched = tf.data.batchDataset(mapped, tf.constant((long) settings.batchSize()), tf.constant(false), types,
                    batchShapes);
            var prefetched = tf.data.prefetchDataset(batched, tf.constant(2L), types, batchShapes);
            var pooled = tf.data.privateThreadPoolDataset(prefetched, tf.constant((long) threads), types, batchShapes);
            var iterator = tf.data.iterator("", "", types, batchShapes);
            this.makeIterator = tf.data.makeIterator(pooled, iterator);
            this.next = tf.data.iteratorGetNext(iterator, types, batchShapes);
            ConfigProto config = ConfigProto.newBuilder()
                    .setInterOpParallelismThreads(threads)
                    .setIntraOpParallelismThreads(threads)
                    .build();
            this.session = new Session(graph, config);
        }

        /** One serialized tf.Example's encoded picture and label. */
        private static List<Operand<?>> parse(Ops f, Operand<TString> record) {
            ParseSingleExample parsed = f.io.parseSingleExample(record, List.of(f.constant(""), f.constant(new long[] {-1})), 0L,
                    List.of(), List.of("image/encoded", "image/class/label"), List.of(), List.of(Shape.scalar(), Shape.of(1)));
            return parsed.denseValues().stream().<Operand<?>>map(o -> o).toList();
        }

        private static Signature decode(Ops f) {
            Placeholder<TString> record = f.placeholder(TString.class);
            List<Operand<?>> parsed = parse(f, record);
            @SuppressWarnings("unchecked")
            DecodeJpeg image = f.image.decodeJpeg((Operand<TString>) parsed.get(0), DecodeJpeg.channels(3L));
            return Signature.builder().input("record", record).output("image", image).output("label", parsed.get(1)).build();
        }

        private static Signature fused(Ops f, long seed) {
            Placeholder<TString> record = f.placeholder(TString.class);
            List<Operand<?>> parsed = parse(f, record);
            @SuppressWarnings("unchecked")
            Operand<TString> jpeg = (Operand<TString>) parsed.get(0);
            SampleDistortedBoundingBox<TInt32> box = f.image.sampleDistortedBoundingBox(f.image.extractJpegShape(jpeg),
                    f.constant(new float[][][] {{{0, 0, 1, 1}}}), f.constant(0f),
                    SampleDistortedBoundingBox.areaRange(0.08f, 1f), SampleDistortedBoundingBox.aspectRatioRange(0.75f, 4f / 3),
                    SampleDistortedBoundingBox.maxAttempts(10L), SampleDistortedBoundingBox.useImageIfNoBoundingBoxes(true),
                    SampleDistortedBoundingBox.seed(seed), SampleDistortedBoundingBox.seed2(seed + 2));
            Operand<TInt32> two = f.constant(new int[] {2});
            Operand<TInt32> zero = f.constant(new int[] {0});
            Operand<TInt32> window = f.concat(List.of(f.slice(box.begin(), zero, two), f.slice(box.sizeOutput(), zero, two)),
                    f.constant(0));
            DecodeAndCropJpeg crop = f.image.decodeAndCropJpeg(jpeg, window, DecodeAndCropJpeg.channels(3L));
            Operand<TFloat32> resized = f.squeeze(f.image.resizeBilinear(f.expandDims(crop, f.constant(0)),
                    f.constant(new int[] {SIDE, SIDE}), ResizeBilinear.halfPixelCenters(true)));
            Operand<TFloat32> coin = f.random.randomUniform(f.constant(new int[0]), TFloat32.class,
                    RandomUniform.seed(seed), RandomUniform.seed2(seed + 3));
            Operand<TFloat32> mirrored = f.select(f.math.less(coin, f.constant(0.5f)),
                    f.reverse(resized, f.constant(new int[] {1})), resized);
            Operand<TFloat32> normalized = f.math.div(f.math.sub(mirrored, f.constant(MEAN)), f.constant(STD));
            return Signature.builder().input("record", record).output("image", normalized).output("label", parsed.get(1)).build();
        }

        @Override
        public Pass pass() {
            return TensorFlowJavaSystem.drain(session, makeIterator, next, TfRun::touch);
        }

        /** The first value of every row of {@code t}. */
        private static double touch(Tensor t, long rows) {
            double sum = 0;
            for (long row = 0; row < rows; row++) {
                sum += switch (t) {
                    case TFloat32 v -> v.getFloat(row, 0, 0, 0);
                    case TUint8 v -> v.getByte(row, 0, 0, 0);
                    case TInt64 v -> v.getLong(row, 0);
                    default -> 0;
                };
            }
            return sum;
        }

        @Override
        public void close() {
            session.close();
            map.close();
            graph.close();
        }
    }
}
