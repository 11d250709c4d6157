package org.dataloader4j.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dataloader4j.api.DataType;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.RecordConversion;
import org.dataloader4j.format.proto.OFRecord;

/**
 * The records every benchmark reads, drawn from a seed: the same seed gives the same bytes.
 *
 * <ul>
 *   <li>{@link Kind#MNIST}: {@code images}, 784 float32 (four fifths of the pixels 0, the rest
 *       {@code k / 255}, as in MNIST), and {@code labels}, one int64 in [0, 10).</li>
 *   <li>{@link Kind#BERT}: {@code input_ids}, {@code input_mask} and {@code segment_ids}, 128
 *       int32 each (varints: ids below 30,522, a mask of ones then zeros, segments of zeros then
 *       ones), and {@code label}, one int32 in [0, 2).</li>
 * </ul>
 * As tf.Examples ({@link #toExampleBytes}) the int32 lists become int64 lists, the only integer
 * list a tf.Example has. Not thread-safe.
 */
public final class SyntheticRecords {
    /** Pixels in an MNIST-like image. */
    public static final int PIXELS = 784;
    /** Tokens in a BERT-like sequence. */
    public static final int SEQUENCE = 128;
    private static final int VOCABULARY = 30_522;

    /** The two shapes of record. */
    public enum Kind {
        /** Dense float32 image and an int64 label. */
        MNIST(List.of(new Column("images", DataType.FLOAT32, PIXELS), new Column("labels", DataType.INT64, 1))),
        /** Three int32 varint sequences and an int32 label. */
        BERT(List.of(new Column("input_ids", DataType.INT32, SEQUENCE), new Column("input_mask", DataType.INT32, SEQUENCE),
                new Column("segment_ids", DataType.INT32, SEQUENCE), new Column("label", DataType.INT32, 1)));

        private final List<Column> columns;

        Kind(List<Column> columns) {
            this.columns = columns;
        }

        /** The features of a record, each read into a dense column of its type. */
        public List<Column> columns() {
            return columns;
        }
    }

    /**
     * One feature of a record, as a batch holds it.
     *
     * @param name  the feature's key
     * @param type  the element type it is read as (the OFRecord list's own type)
     * @param width values per record
     */
    public record Column(String name, DataType type, int width) {
    }

    private final Kind kind;
    private final SplittableRandom random;
    private final float[] image = new float[PIXELS];
    private final int[] ids = new int[SEQUENCE];
    private final int[] mask = new int[SEQUENCE];
    private final int[] segments = new int[SEQUENCE];

    /** Records of {@code kind} drawn from {@code seed}. */
    public SyntheticRecords(Kind kind, long seed) {
        this.kind = kind;
        this.random = new SplittableRandom(seed);
    }

    /** The next record, as an OFRecord. */
    public OFRecord next() {
        return kind == Kind.MNIST ? mnist() : bert();
    }

    private OFRecord mnist() {
        for (int i = 0; i < PIXELS; i++) {
            image[i] = random.nextInt(5) == 0 ? random.nextInt(1, 256) / 255f : 0f;
        }
        return OFRecord.newBuilder()
                .putFeature("images", Features.floatFeature(image))
                .putFeature("labels", Features.int64Feature(random.nextInt(10)))
                .build();
    }

    private OFRecord bert() {
        int length = random.nextInt(16, SEQUENCE + 1);
        int second = random.nextInt(1, length);
        for (int i = 0; i < SEQUENCE; i++) {
            ids[i] = i < length ? random.nextInt(VOCABULARY) : 0;
            mask[i] = i < length ? 1 : 0;
            segments[i] = i >= second && i < length ? 1 : 0;
        }
        return OFRecord.newBuilder()
                .putFeature("input_ids", Features.int32Feature(ids))
                .putFeature("input_mask", Features.int32Feature(mask))
                .putFeature("segment_ids", Features.int32Feature(segments))
                .putFeature("label", Features.int32Feature(random.nextInt(2)))
                .build();
    }

    /** The same record as a serialized tf.Example (an exact conversion). */
    public static byte[] toExampleBytes(OFRecord record) {
        return RecordConversion.toExample(record).message().toByteArray();
    }

    /** {@code n} records of {@code kind} from {@code seed}, serialized as OFRecords or, if {@code example}, tf.Examples. */
    public static List<byte[]> payloads(Kind kind, long seed, int n, boolean example) {
        SyntheticRecords records = new SyntheticRecords(kind, seed);
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            OFRecord r = records.next();
            out.add(example ? toExampleBytes(r) : r.toByteArray());
        }
        return out;
    }
}
