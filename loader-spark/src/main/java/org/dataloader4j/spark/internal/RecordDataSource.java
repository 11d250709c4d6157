package org.dataloader4j.spark.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Spark data source of record files in one format: the schema is the one given, or inferred
 * from a sample of the records; a read lists the paths and reads each file in one task; a write
 * makes part files in a folder, in overwrite or append mode.
 */
public abstract class RecordDataSource implements TableProvider, DataSourceRegister {
    private final RecordFormat<?> format;

    /** A source of {@code format}'s files. */
    protected RecordDataSource(RecordFormat<?> format) {
        this.format = format;
    }

    @Override
    public String shortName() {
        return format.shortName();
    }

    /** Infers the schema from the first {@code samplingLimit} records of the listed files. */
    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        SourceOptions source = SourceOptions.of(options);
        Configuration conf = HadoopConf.forSession(options);
        try {
            return SchemaInference.infer(format, conf, PartListing.list(conf, source.paths()), source);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot infer the schema of " + source.paths(), e);
        }
    }

    /**
     * The files under the paths in {@code properties}, with {@code schema}.
     *
     * @throws IllegalArgumentException if partitioning is asked for: part files are not partitioned by value
     */
    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        if (partitioning.length > 0) {
            throw new IllegalArgumentException(format.shortName() + " files are not partitioned by column values: partitionBy="
                    + java.util.Arrays.toString(partitioning));
        }
        return new RecordTable(format, schema, properties);
    }

    /** A schema given with {@code .schema(...)}, or a DataFrame's on writing, is used as it is. */
    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }
}
