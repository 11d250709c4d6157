package org.dataloader4j.spark;

import org.dataloader4j.spark.internal.RecordDataSource;
import org.dataloader4j.spark.internal.RecordFormat;

/**
 * The Spark data source {@code ofrecord}: OneFlow's OFRecord part files as DataFrames, read and
 * written.
 *
 * <pre>{@code
 * Dataset<Row> df = spark.read().format("ofrecord").option("samplingLimit", "4096").load("hdfs:///data/mnist");
 * df.write().format("ofrecord").mode("overwrite").save("s3a://bucket/mnist-train");
 * }</pre>
 *
 * <p>See docs/remote-and-spark.md for the options, the schema inference rule and the type mapping.
 */
public final class OFRecordDataSource extends RecordDataSource {

    /** Made by Spark, found through {@code META-INF/services}. */
    public OFRecordDataSource() {
        super(RecordFormat.OFRECORD);
    }
}
