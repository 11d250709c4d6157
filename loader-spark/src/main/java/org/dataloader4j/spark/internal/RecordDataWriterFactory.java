package org.dataloader4j.spark.internal;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.RecordWriter;

/** Makes, on an executor, the writer of one task's rows into a temporary file of its own. */
final class RecordDataWriterFactory implements DataWriterFactory {
    private static final long serialVersionUID = 1L;

    private final RecordFormat<?> format;
    private final StructType schema;
    private final Compression compression;
    private final String taskFolder;
    private final Broadcast<HadoopConf> conf;

    RecordDataWriterFactory(RecordFormat<?> format, StructType schema, Compression compression, String taskFolder,
            Broadcast<HadoopConf> conf) {
        this.format = format;
        this.schema = schema;
        this.compression = compression;
        this.taskFolder = taskFolder;
        this.conf = conf;
    }

    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
        Path file = new Path(taskFolder, "part-" + partitionId + "-task-" + taskId);
        return new TaskWriter(file, partitionId, new RowEncoder(format, schema));
    }

    /** Writes one task's rows; the file is made at the first row, so a task with no rows leaves none. */
    private final class TaskWriter implements DataWriter<InternalRow> {
        private final Path file;
        private final int partition;
        private final RowEncoder encoder;
        private RecordWriter out;
        private long rows;

        TaskWriter(Path file, int partition, RowEncoder encoder) {
            this.file = file;
            this.partition = partition;
            this.encoder = encoder;
        }

        @Override
        public void write(InternalRow row) throws IOException {
            byte[] payload = encoder.encode(row);
            if (payload.length == 0 && format == RecordFormat.OFRECORD) {
                throw new IllegalArgumentException("row " + rows + " of partition " + partition
                        + " has no non-null column, and an empty OFRecord cannot be written: OneFlow reads no empty frame");
            }
            if (out == null) {
                FileSystem fs = file.getFileSystem(conf.value().get());
                out = RecordWriter.of(fs.create(file, false), format.framing(), compression);
            }
            out.write(payload);
            rows++;
        }

        @Override
        public WriterCommitMessage commit() throws IOException {
            close();
            return new PartCommit.TaskFile(partition, out == null ? null : file.toString(), rows);
        }

        @Override
        public void abort() throws IOException {
            close();
            if (out != null) {
                file.getFileSystem(conf.value().get()).delete(file, false);
            }
        }

        @Override
        public void close() throws IOException {
            if (out != null) {
                out.close();
            }
        }
    }
}
