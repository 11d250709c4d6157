package org.dataloader4j.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The one Spark session of the test JVM, in {@code local[2]}, shared by every test class: a
 * session takes seconds to start. Spark's shutdown hook stops it when the JVM exits.
 */
final class SparkTests {
    private static SparkSession session;

    private SparkTests() {
    }

    static synchronized SparkSession session() {
        if (session == null) {
            session = SparkSession.builder()
                    .master("local[2]")
                    .appName("loader-spark-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.sql.shuffle.partitions", "2")
                    .getOrCreate();
        }
        return session;
    }
}
