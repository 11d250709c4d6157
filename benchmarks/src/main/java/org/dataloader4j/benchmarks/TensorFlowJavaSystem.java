package org.dataloader4j.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleBiFunction;
import org.dataloader4j.api.DataType;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.tensorflow.Graph;
import org.tensorflow.GraphOperation;
import org.tensorflow.Operand;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.Tensor;
import org.tensorflow.exceptions.TFOutOfRangeException;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Ops;
import org.tensorflow.op.data.IteratorGetNext;
import org.tensorflow.op.data.MakeIterator;
import org.tensorflow.proto.ConfigProto;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TType;

/**
 * TensorFlow's own C++ TFRecord reader and Example parser, through TensorFlow Java in graph mode:
 * {@code TFRecordDataset → [shuffle] → batch → ParseExampleDataset(parallel calls = threads) →
 * prefetch(2)}, on a private pool of {@code threads} threads, pulled by {@code IteratorGetNext} in a
 * session whose op parallelism is {@code threads} too. The consumer touches every row of every
 * output tensor, as dataloader4j's does. The shuffle, through a buffer as large as
 * dataloader4j's, is on unless turned off: TensorFlow's buffer holds copies of the records (a
 * string tensor each), where dataloader4j's holds slices of the mapped files, so it costs
 * TensorFlow more.
 *
 * <p>Of the configurations tried (with and without prefetch, the private pool, a 16 MB read
 * buffer, parallel calls = AUTOTUNE), none was faster beyond the noise of a shared 2-core
 * machine; this one keeps every thread count at {@code threads}.
 *
 * <p>The dataset op is TensorFlow's {@code TFRecordDataset} (version 1), built by name: the Java
 * API builds {@code TFRecordDatasetV2}, whose graph serialization in TensorFlow 2.18 writes three
 * of its four inputs, so that the iterator's graph rewrites fail with "3 inputs specified of 4
 * inputs in Op". Both versions run the same reader.
 */
final class TensorFlowJavaSystem implements ComparedSystem {
    static final String NAME = "tensorflow-java";
    private static final long READ_BUFFER = 256 * 1024;
    /** Why the native library did not load, as the first attempt said; later ones only say the class is unusable. */
    private static volatile String loadFailure;

    private final boolean shuffle;

    /** TensorFlow's pipeline, shuffling or not. */
    TensorFlowJavaSystem(boolean shuffle) {
        this.shuffle = shuffle;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean reads(CompareDataset dataset) {
        return dataset.framing() == Framing.TFRECORD;
    }

    @Override
    public Run open(DataFiles data, int threads, Settings settings) throws Unavailable {
        Graph graph;
        try {
            graph = new Graph();
        } catch (LinkageError e) {
            if (loadFailure == null) {
                loadFailure = e.toString();
            }
            throw new Unavailable("TensorFlow's native library did not load (build with -Ptf-native, as run-compare.sh does): "
                    + loadFailure, e);
        }
        try {
            return new TfRun(graph, data, threads, settings, shuffle);
        } catch (RuntimeException e) {
            graph.close();
            throw e;
        }
    }

    /**
     * One pass of a tf.data pipeline: {@code makeIterator} run, then {@code next} pulled until the
     * iterator ends, every batch's tensors touched by {@code touch} (a value a row, summed) so that
     * nothing is skipped; timed from before the iterator is made. Shared with {@link TensorFlowImageSystem}.
     */
    static Pass drain(Session session, MakeIterator makeIterator, IteratorGetNext next, ToDoubleBiFunction<Tensor, Long> touch) {
        long start = System.nanoTime();
        session.runner().addTarget(makeIterator).run().close();
        long rowsRead = 0;
        long first = -1;
        double sum = 0;
        while (true) {
            Session.Runner runner = session.runner();
            next.components().forEach(runner::fetch);
            try (Result r = runner.run()) {
                long rows = r.get(0).shape().get(0);
                for (int i = 0; i < r.size(); i++) {
                    sum += touch.applyAsDouble(r.get(i), rows);
                }
                rowsRead += rows;
                if (first < 0) {
                    first = System.nanoTime() - start;
                }
            } catch (TFOutOfRangeException end) {
                break;
            }
        }
        long nanos = System.nanoTime() - start;
        Sink.consume(sum);
        return new Pass(rowsRead, nanos, first, -1, 0);
    }

    /** One graph and session over one dataset. */
    private static final class TfRun implements Run {
        private final Graph graph;
        private final Session session;
        private final MakeIterator makeIterator;
        private final IteratorGetNext next;

        TfRun(Graph graph, DataFiles data, int threads, Settings settings, boolean shuffle) {
            this.graph = graph;
            Ops tf = Ops.create(graph);
            List<SyntheticRecords.Column> columns = data.dataset().kind().columns();
            List<Class<? extends TType>> stringType = List.of(TString.class);
            List<Class<? extends TType>> types = new ArrayList<>();
            List<Shape> batchShapes = new ArrayList<>();
            List<Shape> rowShapes = new ArrayList<>();
            List<Operand<?>> defaults = new ArrayList<>();
            List<String> keys = new ArrayList<>();
            for (SyntheticRecords.Column c : columns) {
                keys.add(c.name());
                boolean floats = c.type() == DataType.FLOAT32;
                types.add(floats ? TFloat32.class : TInt64.class);
                defaults.add(floats ? tf.constant(new float[0]) : tf.constant(new long[0]));
                rowShapes.add(Shape.of(c.width()));
                batchShapes.add(Shape.of(Shape.UNKNOWN_SIZE, c.width()));
            }
            String[] files = data.files().stream().map(p -> p.toAbsolutePath().toString()).toArray(String[]::new);
            GraphOperation records = graph.opBuilder("TFRecordDataset", "records", tf.scope())
                    .addInput(tf.constant(NdArrays.vectorOfObjects(files)).asOutput())
                    .addInput(tf.constant(data.dataset().compression() == Compression.GZIP ? "GZIP" : "").asOutput())
                    .addInput(tf.constant(READ_BUFFER).asOutput())
                    .build();
            Operand<TType> source = records.output(0);
            Operand<? extends TType> shuffled = !shuffle ? source : tf.data.shuffleDataset(source,
                    tf.constant((long) settings.shuffleBuffer()), tf.constant(settings.seed()), tf.constant(settings.seed() + 1),
                    tf.random.dummySeedGenerator(), stringType, List.of(Shape.scalar()));
            var batched = tf.data.batchDataset(shuffled, tf.constant((long) settings.batchSize()), tf.constant(false), stringType,
                    List.of(Shape.of(Shape.UNKNOWN_SIZE)));
            var parsed = tf.data.parseExampleDataset(batched, tf.constant((long) threads), defaults, List.of(), keys, List.of(),
                    rowShapes, types, batchShapes, List.of(), List.of());
            var prefetched = tf.data.prefetchDataset(parsed, tf.constant(2L), types, batchShapes);
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

        @Override
        public Pass pass() {
            return drain(session, makeIterator, next, TfRun::touch);
        }

        private static double touch(Tensor t, long rows) {
            double sum = 0;
            if (t instanceof TFloat32 f) {
                for (long row = 0; row < rows; row++) {
                    sum += f.getFloat(row, 0);
                }
            } else if (t instanceof TInt64 l) {
                for (long row = 0; row < rows; row++) {
                    sum += l.getLong(row, 0);
                }
            }
            return sum;
        }

        @Override
        public void close() {
            session.close();
            graph.close();
        }
    }
}
