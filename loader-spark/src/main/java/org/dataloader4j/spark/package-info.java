/**
 * Spark DataSource V2 sources of record files: {@code spark.read().format("ofrecord")} and
 * {@code "tfrecord"} read part files through Hadoop's file systems into DataFrames, and
 * {@code df.write().format(...)} writes OneFlow-style {@code part-NNNNN} files, which the
 * runtime's readers then train from. Plain Java 17, with Spark provided by the cluster.
 */
package org.dataloader4j.spark;
