package org.dataloader4j.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Rows per second that Spark writes and reads with the {@code ofrecord} and {@code tfrecord}
 * sources, against Spark's own Parquet, on the same MNIST-like DataFrame: a long label and a
 * 784-byte image. Writes go from a generated DataFrame to part files; reads go from those files
 * to Spark's {@code noop} sink, which takes every column of every row. Each figure is the best
 * of a few runs after a warm-up.
 *
 * <pre>
 * java -cp ... org.dataloader4j.spark.SparkThroughput [rows=1000000] [folder=a temporary one] [runs=3]
 * </pre>
 * (docs/remote-and-spark.md has the whole command.)
 */
public final class SparkThroughput {
    private SparkThroughput() {
    }

    public static void main(String[] args) throws IOException {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000L;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("spark-throughput");
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        SparkSession spark = SparkSession.builder().master("local[2]").appName("spark-throughput")
                .config("spark.ui.enabled", "false").config("spark.driver.memory", "2g").getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        Dataset<Row> digits = spark.range(0, rows, 1, 2).selectExpr("id % 10 AS label",
                "substring(cast(repeat(sha2(cast(id AS string), 256), 13) AS binary), 1, 784) AS image");
        System.out.printf(Locale.ROOT, "%,d rows of (label bigint, image binary(784)), local[2], Java %s, Spark %s%n",
                rows, Runtime.version(), spark.version());
        System.out.printf(Locale.ROOT, "%-22s %14s %14s %10s%n", "format", "write rows/s", "read rows/s", "MB on disk");
        for (String format : List.of("parquet", "ofrecord", "tfrecord", "tfrecord+gzip")) {
            String out = "file:" + dir.resolve(format.replace('+', '-'));
            String source = format.startsWith("tfrecord") ? "tfrecord" : format;
            String compression = format.endsWith("gzip") ? "gzip" : "none";
            digits.limit(1000).write().format(source).option("compression", compression).mode("overwrite").save(out);
            spark.read().format(source).load(out).write().format("noop").mode("overwrite").save();
            double write = 0;
            double read = 0;
            for (int run = 0; run < runs; run++) {
                long t0 = System.nanoTime();
                digits.write().format(source).option("compression", compression).mode("overwrite").save(out);
                long t1 = System.nanoTime();
                spark.read().format(source).load(out).write().format("noop").mode("overwrite").save();
                long t2 = System.nanoTime();
                write = Math.max(write, rows / ((t1 - t0) / 1e9));
                read = Math.max(read, rows / ((t2 - t1) / 1e9));
            }
            System.out.printf(Locale.ROOT, "%-22s %,14.0f %,14.0f %10.1f%n", format, write, read, size(dir.resolve(format.replace('+', '-'))) / 1e6);
        }
        spark.stop();
    }

    private static long size(Path folder) throws IOException {
        try (var files = Files.list(folder)) {
            return files.filter(p -> !p.getFileName().toString().startsWith(".")).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
