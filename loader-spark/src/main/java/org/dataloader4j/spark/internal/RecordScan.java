package org.dataloader4j.spark.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.types.StructType;

/**
 * A batch read of record files: one input partition per file, reading only the columns the
 * query needs. The files are listed when Spark plans the partitions, on the driver.
 */
final class RecordScan implements ScanBuilder, SupportsPushDownRequiredColumns, Scan, Batch {
    private final RecordFormat<?> format;
    private final Map<String, String> options;
    private final SourceOptions source;
    private StructType schema;

    RecordScan(RecordFormat<?> format, StructType schema, Map<String, String> options) {
        this.format = format;
        this.schema = schema;
        this.options = options;
        this.source = SourceOptions.of(options);
    }

    @Override
    public void pruneColumns(StructType required) {
        schema = required;
    }

    @Override
    public Scan build() {
        return this;
    }

    @Override
    public StructType readSchema() {
        return schema;
    }

    @Override
    public String description() {
        return format.shortName() + " " + source.paths();
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        Configuration conf = HadoopConf.forSession(options);
        try {
            List<FileStatus> files = PartListing.list(conf, source.paths());
            return files.stream().map(f -> new FilePartition(f.getPath().toString(), f.getLen())).toArray(InputPartition[]::new);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + source.paths(), e);
        }
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        new RowDecoder<>(format, schema); // checks the column types on the driver, before any task runs
        return new RecordReaderFactory(format, schema, source, HadoopConf.broadcast(HadoopConf.forSession(options)));
    }

    /**
     * One file, read whole by one task.
     *
     * @param file   the file's URI
     * @param length its length in bytes, when listed
     */
    record FilePartition(String file, long length) implements InputPartition {
    }
}
