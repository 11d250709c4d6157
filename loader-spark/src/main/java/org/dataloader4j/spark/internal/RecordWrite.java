package org.dataloader4j.spark.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;

/**
 * A batch write of part files into one folder: each task writes its rows to a file of its own
 * under {@code _temporary/<query id>/}; the job's commit, on the driver, then (for an overwrite)
 * deletes the folder's data files, renames the tasks' files to {@code part-NNNNN} in task order,
 * numbering on after the highest part already there, and writes {@code _SUCCESS}. A failed job
 * deletes its temporary files and leaves the folder as it was.
 */
final class RecordWrite implements WriteBuilder, SupportsTruncate, Write, BatchWrite {
    private final RecordFormat<?> format;
    private final StructType schema;
    private final Map<String, String> options;
    private final SourceOptions source;
    private final String queryId;
    private boolean truncate;

    RecordWrite(RecordFormat<?> format, StructType schema, Map<String, String> options, String queryId) {
        this.format = format;
        this.schema = schema;
        this.options = options;
        this.source = SourceOptions.of(options);
        this.queryId = queryId;
        new RowEncoder(format, schema); // checks the column types before any task runs
    }

    @Override
    public WriteBuilder truncate() {
        truncate = true;
        return this;
    }

    @Override
    public Write build() {
        return this;
    }

    @Override
    public String description() {
        return format.shortName() + " " + source.writePath() + (truncate ? " (overwrite)" : " (append)");
    }

    @Override
    public String toString() {
        return description();
    }

    @Override
    public BatchWrite toBatch() {
        return this;
    }

    private PartCommit commit() {
        return new PartCommit(new Path(source.writePath()), queryId);
    }

    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        Configuration conf = HadoopConf.forSession(options);
        return new RecordDataWriterFactory(format, schema, source.writeCompression(), commit().taskFolder().toString(),
                HadoopConf.broadcast(conf));
    }

    @Override
    public void commit(WriterCommitMessage[] messages) {
        try {
            commit().commit(HadoopConf.forSession(options), messages, truncate);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot commit the part files of " + source.writePath(), e);
        }
    }

    @Override
    public void abort(WriterCommitMessage[] messages) {
        try {
            commit().abort(HadoopConf.forSession(options));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the temporary files of " + source.writePath(), e);
        }
    }
}
