package org.dataloader4j.spark;

import org.dataloader4j.spark.internal.RecordDataSource;
import org.dataloader4j.spark.internal.RecordFormat;

/**
 * The Spark data source {@code tfrecord}: TFRecord files of tf.Examples as DataFrames, read
 * (plain, gzip or zlib) and written (with the {@code compression} option).
 *
 * <pre>{@code
 * Dataset<Row> df = spark.read().format("tfrecord").schema(schema).load("s3a://bucket/train/");
 * df.write().format("tfrecord").option("compression", "gzip").mode("append").save("hdfs:///data/train");
 * }</pre>
 *
 * <p>See docs/remote-and-spark.md for the options, the schema inference rule and the type mapping.
 */
public final class TFRecordDataSource extends RecordDataSource {

    /** Made by Spark, found through {@code META-INF/services}. */
    public TFRecordDataSource() {
        super(RecordFormat.TFRECORD);
    }
}
