package org.dataloader4j.spark;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.RecordConversion;
import org.dataloader4j.format.proto.Feature;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.format.tf.Example;

/**
 * A small MNIST-like table, the same rows as DataFrame rows and as the records they make: every
 * column type the sources write, lists of varying length (empty ones too), binary values that
 * are not text, and a column that is null in every other row.
 */
final class Digits {
    static final int PIXELS = 8;

    /** Columns in the order schema inference gives them: by name. */
    static final StructType SCHEMA = new StructType()
            .add("id", DataTypes.LongType)
            .add("image", DataTypes.BinaryType)
            .add("label", DataTypes.IntegerType)
            .add("name", DataTypes.StringType)
            .add("note", DataTypes.StringType)
            .add("pixels", DataTypes.createArrayType(DataTypes.FloatType))
            .add("weights", DataTypes.createArrayType(DataTypes.DoubleType));

    private Digits() {
    }

    static long id(int i) {
        return 1_000_000_007L * i;
    }

    static int label(int i) {
        return i % 10;
    }

    static float[] pixels(int i) {
        float[] p = new float[PIXELS];
        for (int j = 0; j < PIXELS; j++) {
            p[j] = (i * PIXELS + j) / 7f;
        }
        return p;
    }

    static String name(int i) {
        return "digit-" + i;
    }

    static byte[] image(int i) {
        byte[] b = new byte[5 + i % 4];
        new Random(i).nextBytes(b);
        b[0] = 0; // never text
        return b;
    }

    /** 0, 1 or 2 values; the second has more precision than a float. */
    static double[] weights(int i) {
        double[] w = new double[i % 3];
        for (int j = 0; j < w.length; j++) {
            w[j] = i + j / 3.0;
        }
        return w;
    }

    static String note(int i) {
        return i % 2 == 0 ? "even " + i : null;
    }

    /** Row {@code i} of {@link #SCHEMA}. */
    static Row row(int i) {
        List<Float> pixels = new ArrayList<>();
        for (float p : pixels(i)) {
            pixels.add(p);
        }
        List<Double> weights = new ArrayList<>();
        for (double w : weights(i)) {
            weights.add(w);
        }
        return RowFactory.create(id(i), image(i), label(i), name(i), note(i), pixels, weights);
    }

    static List<Row> rows(int n) {
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(row(i));
        }
        return out;
    }

    /** Row {@code i} as the OFRecord the ofrecord source writes for it. */
    static OFRecord record(int i) {
        Map<String, Feature> f = new HashMap<>();
        f.put("id", Features.int64Feature(id(i)));
        f.put("image", Features.bytesFeature(image(i)));
        f.put("label", Features.int32Feature(label(i)));
        f.put("name", Features.bytesFeature(name(i)));
        if (note(i) != null) {
            f.put("note", Features.bytesFeature(note(i).getBytes(StandardCharsets.UTF_8)));
        }
        f.put("pixels", Features.floatFeature(pixels(i)));
        f.put("weights", Features.doubleFeature(weights(i)));
        return Features.record(f);
    }

    /**
     * Row {@code i} as the tf.Example the tfrecord source writes for it: ints as int64_list,
     * doubles rounded into a float_list.
     */
    static Example example(int i) {
        return RecordConversion.toExample(record(i)).message();
    }
}
