package org.dataloader4j.image;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.RaggedTensor;
import org.dataloader4j.api.Tensor;
import org.dataloader4j.api.TensorSpec;
import org.dataloader4j.core.dataset.RecordRows;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.image.internal.FeatureBytes;

/**
 * A parser of image records: the images of each record decoded by {@link ImageDecoder}s (pixels
 * and shapes) and {@link ImageTransform}s (the fused training path), beside the other outputs of
 * a record parser it wraps (the label, say). The encoded bytes are read in place from the record,
 * the pixels go to off-heap memory, and each parse thread keeps a decoder context of its own
 * ({@link ImageCodec.Context}). Records are OneFlow's OFRecord or TensorFlow's tf.Example.
 *
 * <p>A batch is parsed in three steps:
 * <ol>
 *   <li>In parallel over rows: each row's record is checked, its images found and their headers
 *       read (format, size, against {@code maxPixels}); then the wrapped parser's outputs.</li>
 *   <li>In batch order: the random windows and coin flips of the batch's rows are drawn, row by
 *       row, from OneFlow's generators (one a batch slot for windows, one in all for coins), so
 *       that they are the same for any number of parse threads, as if one thread had parsed the
 *       batches one after another.</li>
 *   <li>In parallel over rows: each window decoded, and on the fused path resized, mirrored and
 *       normalized into its row.</li>
 * </ol>
 *
 * <p>A corrupt record (a damaged frame, a missing feature, an image that is not a JPEG or PNG,
 * damaged, or over {@code maxPixels}) fails the batch with a {@link CorruptDataException} naming
 * the file, record, offset and feature, or, where the rows skip corrupt records
 * ({@link RecordRows#replace}), is replaced by the next good record; a record replaced after the
 * windows were drawn is decoded whole ({@link ImageDecoder}) or by the evaluation path
 * ({@link ImageTransform}).
 *
 * <p>The draws follow the batches' indices from 0 ({@link Batch#index()}), as a reader numbers
 * them: use one parser for one reader. The parser holds native memory (the threads' decoder
 * contexts); the reader closes it when it closes.
 */
public final class ImageParser implements Parser<RecordSlice>, AutoCloseable {
    /** The record formats whose features this parser finds. */
    public enum Records {
        /** OneFlow's OFRecord. */
        OFRECORD,
        /** TensorFlow's tf.Example. */
        EXAMPLE
    }

    private final Records records;
    private final Parser<RecordSlice> inner;
    private final List<ImageDecoder> decoders;
    private final List<ImageTransform> transforms;
    private final ImageCodec codec;
    private final ConcurrentLinkedQueue<Worker> workers = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<Worker> worker;
    private final Object turnLock = new Object();
    /**
     * For each batch capacity parsed (a reader's, and a one-row check's), the generators and the
     * index of the next batch whose draws are to be made; guarded by {@link #turnLock}.
     */
    private final Map<Integer, Turn> turns = new HashMap<>();
    private volatile boolean closed;

    private ImageParser(Records records, Parser<RecordSlice> inner, List<ImageDecoder> decoders,
                        List<ImageTransform> transforms, ImageCodec codec) {
        this.records = Objects.requireNonNull(records, "records");
        this.inner = inner;
        this.decoders = List.copyOf(decoders);
        this.transforms = List.copyOf(transforms);
        if (this.decoders.isEmpty() && this.transforms.isEmpty()) {
            throw new IllegalArgumentException("an image parser needs at least one image decoder or transform");
        }
        this.codec = Objects.requireNonNull(codec, "codec");
        this.worker = ThreadLocal.withInitial(this::newWorker);
    }

    /**
     * A parser of {@code records} whose images {@code decoders} and {@code transforms} decode with
     * {@code codec} ({@link ImageCodecs#preferred()} for the best one here), beside the outputs of
     * {@code inner} (null for images only).
     *
     * @throws IllegalArgumentException if there is no decoder or transform, or two outputs share a name
     */
    public static ImageParser of(Records records, Parser<RecordSlice> inner, List<ImageDecoder> decoders,
                                 List<ImageTransform> transforms, ImageCodec codec) {
        ImageParser parser = new ImageParser(records, inner, decoders, transforms, codec);
        List<String> names = new ArrayList<>();
        for (TensorSpec spec : parser.outputs(1)) {
            if (names.contains(spec.name())) {
                throw new IllegalArgumentException("two outputs are named " + spec.name());
            }
            names.add(spec.name());
        }
        return parser;
    }

    /** The codec the images decode with. */
    public ImageCodec codec() {
        return codec;
    }

    @Override
    public List<TensorSpec> outputs(int batchCapacity) {
        List<TensorSpec> specs = new ArrayList<>();
        if (inner != null) {
            specs.addAll(inner.outputs(batchCapacity));
        }
        for (ImageDecoder d : decoders) {
            specs.addAll(d.outputs(batchCapacity));
        }
        for (ImageTransform t : transforms) {
            specs.addAll(t.outputs(batchCapacity));
        }
        return specs;
    }

    @Override
    public void parse(List<? extends RecordSlice> samples, Batch out, ParallelLoop loop) {
        if (closed) {
            throw new IllegalStateException("the image parser is closed");
        }
        RecordRows rows = RecordRows.of(samples);
        int n = rows.size();
        Rows state = new Rows(decoders.size() + transforms.size(), n);
        RuntimeException failure = null;
        try {
            checkAndParseInner(rows, state, samples, out, loop, 0, n);
        } catch (RuntimeException e) {
            failure = e;
        }
        // The draws are made in batch order even for a batch that failed, so later ones go on.
        drawInTurn(out, state, failure == null);
        if (failure != null) {
            throw failure;
        }
        while (true) {
            layOut(state, out);
            loop.forRanges(n, (start, end) -> worker.get().decode(rows, state, out, start, end));
            int[] replaced = state.takeReplaced();
            if (replaced.length == 0) {
                return;
            }
            // Rows whose image failed to decode were replaced: check the new records, parse the
            // other outputs again, and decode again (the new ones without a random window).
            for (int row : replaced) {
                checkAndParseInner(rows, state, samples, out, loop, row, row + 1);
            }
        }
    }

    /**
     * Checks rows {@code [from, to)} and reads their images' headers (replacing corrupt records
     * where the rows skip them), then runs the wrapped parser over the batch, until no row's
     * record changes between the two.
     */
    private void checkAndParseInner(RecordRows rows, Rows state, List<? extends RecordSlice> samples, Batch out,
                                    ParallelLoop loop, int from, int to) {
        loop.forRanges(to - from, (start, end) -> worker.get().headers(rows, state, from + start, from + end));
        if (inner == null) {
            return;
        }
        while (true) {
            inner.parse(samples, out, loop);
            List<Integer> changed = worker.get().changed(rows, state);
            if (changed.isEmpty()) {
                return;
            }
            // The wrapped parser replaced these rows' records: their images are read again.
            for (int row : changed) {
                state.replacedAfterDraw(row);
                worker.get().headers(rows, state, row, row + 1);
            }
        }
    }

    /**
     * Makes the draws of batch {@code out} once every batch before it has made its own; a batch
     * whose index is behind (parsed again, or a one-row check) draws at once.
     */
    private void drawInTurn(Batch out, Rows state, boolean draw) {
        long index = out.index();
        synchronized (turnLock) {
            Turn turn = turns.computeIfAbsent(out.capacity(), c -> new Turn(new Draws(decoders, transforms, c)));
            try {
                while (index > turn.next) {
                    turnLock.wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for batch " + turn.next + "'s draws", e);
            }
            try {
                if (draw) {
                    turn.draws.draw(state);
                }
            } finally {
                if (index == turn.next) {
                    turn.next++;
                    turnLock.notifyAll();
                }
            }
        }
    }

    /** The generators of one batch capacity and the next batch to draw. */
    private static final class Turn {
        final Draws draws;
        long next;

        Turn(Draws draws) {
            this.draws = draws;
        }
    }

    /** The offsets of the ragged pixels of each decoder, from the rows' windows. */
    private void layOut(Rows state, Batch out) {
        for (int d = 0; d < decoders.size(); d++) {
            ImageDecoder decoder = decoders.get(d);
            RaggedTensor pixels = out.ragged(decoder.feature());
            Tensor offsets = pixels.offsets();
            int channels = decoder.colorSpace().channels();
            long capacity = pixels.values().segment().byteSize();
            long at = 0;
            offsets.setLong(0, 0);
            for (int row = 0; row < state.rows; row++) {
                CropWindow w = state.window(d, row);
                at += (long) w.width() * w.height() * channels;
                if (at > capacity) {
                    throw new CorruptDataException(state.file(row), state.index(row), state.offset(row), "the images of"
                            + " this batch hold more than the " + capacity + " bytes of " + decoder.feature()
                            + "'s output: raise ImageDecoder.batchPixels (now " + capacity / channels + " pixels)");
                }
                offsets.setLong(row + 1, at);
            }
        }
    }

    /** The codec, the images and the wrapped parser: what {@code ReaderMetrics.parser} shows. */
    @Override
    public String toString() {
        List<Object> images = new ArrayList<>(decoders);
        images.addAll(transforms);
        return "ImageParser[codec=" + codec.name() + ", " + images + (inner == null ? "" : ", " + inner) + "]";
    }

    /** Frees every thread's decoder context. Call when no thread parses any more; idempotent. */
    @Override
    public void close() {
        closed = true;
        for (Worker w; (w = workers.poll()) != null; ) {
            w.close();
        }
    }

    private Worker newWorker() {
        Worker w = new Worker();
        workers.add(w);
        return w;
    }

    /** The parse state of one batch: each row's record, its images' sizes and windows. */
    private static final class Rows {
        final int rows;
        final int images;
        final int[] widths;
        final int[] heights;
        final CropWindow[] windows;
        final String[] file;
        final long[] index;
        final long[] offset;
        final boolean[] mirror;
        private final List<Integer> replaced = new ArrayList<>();

        Rows(int images, int rows) {
            this.rows = rows;
            this.images = images;
            this.widths = new int[images * rows];
            this.heights = new int[images * rows];
            this.windows = new CropWindow[images * rows];
            this.file = new String[rows];
            this.index = new long[rows];
            this.offset = new long[rows];
            this.mirror = new boolean[images * rows];
        }

        String file(int row) {
            return file[row];
        }

        long index(int row) {
            return index[row];
        }

        long offset(int row) {
            return offset[row];
        }

        CropWindow window(int image, int row) {
            CropWindow w = windows[image * rows + row];
            return w != null ? w : CropWindow.whole(widths[image * rows + row], heights[image * rows + row]);
        }

        /** Row {@code row}'s record was replaced after the draws: it is decoded without a random window or mirror. */
        void replacedAfterDraw(int row) {
            for (int i = 0; i < images; i++) {
                windows[i * rows + row] = null;
                mirror[i * rows + row] = false;
            }
        }

        synchronized void replaced(int row) {
            replaced.add(row);
        }

        synchronized int[] takeReplaced() {
            int[] rowsReplaced = replaced.stream().mapToInt(Integer::intValue).toArray();
            replaced.clear();
            for (int row : rowsReplaced) {
                replacedAfterDraw(row);
            }
            return rowsReplaced;
        }
    }

    /** The generators of the draws, one set a parser, used in batch order. */
    private static final class Draws {
        /** Each image's window generators, a batch slot each; null where it draws no window. */
        final List<List<RandomCrop.Slot>> crops = new ArrayList<>();
        final CoinFlip[] coins;

        Draws(List<ImageDecoder> decoders, List<ImageTransform> transforms, int capacity) {
            int images = decoders.size() + transforms.size();
            this.coins = new CoinFlip[images];
            for (int i = 0; i < images; i++) {
                RandomCrop crop = i < decoders.size() ? decoders.get(i).randomCrop() : transforms.get(i - decoders.size()).randomCrop();
                crops.add(crop == null ? null : crop.slots(capacity));
                if (i >= decoders.size()) {
                    ImageTransform t = transforms.get(i - decoders.size());
                    coins[i] = t.mirrorProbability() > 0 ? CoinFlip.seeded(t.mirrorProbability(), t.mirrorSeed()) : null;
                }
            }
        }

        /** Each row's window for each image, then its coin flip for each transform. */
        void draw(Rows state) {
            for (int i = 0; i < state.images; i++) {
                for (int row = 0; row < state.rows; row++) {
                    int at = i * state.rows + row;
                    if (crops.get(i) != null) {
                        state.windows[at] = crops.get(i).get(row).next(state.widths[at], state.heights[at]);
                    }
                    if (coins[i] != null) {
                        state.mirror[at] = coins[i].next();
                    }
                }
            }
        }
    }

    /** One thread's decoding: its codec context, feature locators, record view and scratch. */
    private final class Worker {
        private final ImageCodec.Context context = codec.newContext();
        private final FeatureBytes[] locators;
        private final RecordView view = new RecordView();
        private final long[] range = new long[2];
        private final Arena arena = Arena.ofShared();
        private MemorySegment decoded = MemorySegment.NULL;
        private final ResizeNormalize[] resizers = transforms.stream()
                .map(t -> new ResizeNormalize(t.normalizer())).toArray(ResizeNormalize[]::new);

        Worker() {
            List<String> features = new ArrayList<>();
            decoders.forEach(d -> features.add(d.feature()));
            transforms.forEach(t -> features.add(t.feature()));
            this.locators = features.stream()
                    .map(f -> records == Records.OFRECORD ? FeatureBytes.ofRecord(f) : FeatureBytes.example(f))
                    .toArray(FeatureBytes[]::new);
        }

        /** The rows whose record is no longer the one their images' headers were read from. */
        List<Integer> changed(RecordRows rows, Rows state) {
            List<Integer> changed = new ArrayList<>();
            for (int row = 0; row < rows.size(); row++) {
                rows.load(row, view, false);
                if (view.index() != state.index[row] || !view.file().equals(state.file[row])) {
                    changed.add(row);
                }
            }
            return changed;
        }

        /** Checks rows {@code [start, end)} and reads their images' headers, replacing corrupt records where the rows skip them. */
        void headers(RecordRows rows, Rows state, int start, int end) {
            for (int row = start; row < end; row++) {
                while (true) {
                    try {
                        header(rows, state, row);
                        break;
                    } catch (CorruptDataException e) {
                        if (!rows.replace(row, e)) {
                            throw e;
                        }
                    }
                }
            }
        }

        private void header(RecordRows rows, Rows state, int row) {
            rows.load(row, view, true);
            state.file[row] = view.file();
            state.index[row] = view.index();
            state.offset[row] = view.offset();
            for (int i = 0; i < locators.length; i++) {
                MemorySegment bytes = image(i);
                ImageInfo info;
                try {
                    info = context.header(bytes);
                } catch (ImageException e) {
                    throw corrupt(i, e.getMessage(), e);
                }
                long maxPixels = i < decoders.size() ? decoders.get(i).maxPixels() : transforms.get(i - decoders.size()).maxPixels();
                if (info.pixels() > maxPixels) {
                    throw corrupt(i, "the image declares " + info.width() + "x" + info.height() + " pixels, more than maxPixels="
                            + maxPixels, null);
                }
                state.widths[i * state.rows + row] = info.width();
                state.heights[i * state.rows + row] = info.height();
            }
        }

        /** Image {@code i}'s encoded bytes in the record the view is on. */
        private MemorySegment image(int i) {
            boolean found;
            try {
                found = locators[i].locate(view.source(), view.start(), view.end(), range);
            } catch (IllegalArgumentException e) {
                throw corrupt(i, e.getMessage(), e);
            }
            if (!found) {
                throw corrupt(i, "missing feature " + locators[i].keyString(), null);
            }
            return view.source().asSlice(range[0], range[1] - range[0]);
        }

        private CorruptDataException corrupt(int image, String reason, Throwable cause) {
            return new CorruptDataException(view.file(), view.index(), view.offset(),
                    "feature " + locators[image].keyString() + ": " + reason, cause);
        }

        /** Decodes the images of rows {@code [start, end)}; a row that fails is replaced where the rows skip corrupt records. */
        void decode(RecordRows rows, Rows state, Batch out, int start, int end) {
            for (int row = start; row < end; row++) {
                try {
                    decodeRow(rows, state, out, row);
                } catch (CorruptDataException e) {
                    if (!rows.replace(row, e)) {
                        throw e;
                    }
                    state.replaced(row);
                }
            }
        }

        private void decodeRow(RecordRows rows, Rows state, Batch out, int row) {
            rows.load(row, view, false);
            for (int i = 0; i < locators.length; i++) {
                MemorySegment bytes = image(i);
                try {
                    if (i < decoders.size()) {
                        ImageDecoder d = decoders.get(i);
                        RaggedTensor pixels = out.ragged(d.feature());
                        CropWindow w = state.window(i, row);
                        long at = pixels.offset(row);
                        long length = (long) w.width() * w.height() * d.colorSpace().channels();
                        context.decode(bytes, d.colorSpace(), w, pixels.values().segment().asSlice(at, length));
                        Tensor shape = out.tensor(d.shapeOutput());
                        shape.setInt(3L * row, w.height());
                        shape.setInt(3L * row + 1, w.width());
                        shape.setInt(3L * row + 2, d.colorSpace().channels());
                    } else {
                        transform(transforms.get(i - decoders.size()), bytes, state, i, row, out);
                    }
                } catch (ImageException e) {
                    throw corrupt(i, e.getMessage(), e);
                }
            }
        }

        /** The fused path of one row: window decoded, resized, mirrored and normalized into the row. */
        private void transform(ImageTransform t, MemorySegment bytes, Rows state, int image, int row, Batch out) {
            int channels = t.colorSpace().channels();
            int at = image * state.rows + row;
            int imageWidth = state.widths[at];
            int imageHeight = state.heights[at];
            CropWindow window = state.windows[at];
            boolean mirror = state.mirror[at];
            Tensor target = out.tensor(t.feature());
            long rowFloats = (long) channels * t.height() * t.width();
            MemorySegment dst = target.segment().asSlice(row * rowFloats * Float.BYTES, rowFloats * Float.BYTES);
            ResizeNormalize resize = resizers[image - decoders.size()];
            ImageSize resized = window != null ? new ImageSize(t.width(), t.height())
                    // Evaluation: the shorter side resized to resizeShorter, then the centre.
                    : ImageResize.keepAspectRatio(imageWidth, imageHeight, t.resizeShorter(), ImageResize.Side.SHORTER, 0, 0);
            if (window == null) {
                window = CropWindow.whole(imageWidth, imageHeight);
            }
            int scale = t.decodeScale(window.width(), window.height(), resized.width(), resized.height());
            long need = (long) window.width() * window.height() * channels;
            if (decoded.byteSize() < need) {
                decoded = arena.allocate(Math.max(need, decoded.byteSize() * 2));
            }
            ImageSize src = context.decode(bytes, t.colorSpace(), window, scale, decoded);
            resize.apply(decoded, src.width(), src.height(), channels, resized.width(), resized.height(), mirror, dst, 0);
        }

        void close() {
            context.close();
            arena.close();
        }
    }

}
