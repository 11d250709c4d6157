package org.dataloader4j.spark.internal;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** The record files under the paths of one read or write, with a schema given or inferred. */
final class RecordTable implements SupportsRead, SupportsWrite {
    private final RecordFormat<?> format;
    private final StructType schema;
    private final Map<String, String> properties;

    RecordTable(RecordFormat<?> format, StructType schema, Map<String, String> properties) {
        this.format = format;
        this.schema = schema;
        this.properties = Map.copyOf(properties);
    }

    @Override
    public String name() {
        return format.shortName() + " " + SourceOptions.of(properties).paths();
    }

    @Override
    public Column[] columns() {
        return Arrays.stream(schema.fields())
                .map(f -> Column.create(f.name(), f.dataType(), f.nullable()))
                .toArray(Column[]::new);
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return new RecordScan(format, schema, options);
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        return new RecordWrite(format, info.schema(), info.options(), info.queryId());
    }
}
