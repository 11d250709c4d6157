package org.dataloader4j.spark.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.RecordReader;

/** Makes, on an executor, the reader of one file's rows. */
final class RecordReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;

    private final RecordFormat<?> format;
    private final StructType schema;
    private final SourceOptions options;
    private final Broadcast<HadoopConf> conf;

    RecordReaderFactory(RecordFormat<?> format, StructType schema, SourceOptions options, Broadcast<HadoopConf> conf) {
        this.format = format;
        this.schema = schema;
        this.options = options;
        this.conf = conf;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        String file = ((RecordScan.FilePartition) partition).file();
        try {
            return new FileRows(RecordFiles.open(format, conf.value().get(), file, options), file, new RowDecoder<>(format, schema));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file, e);
        }
    }

    /** The rows of one file, record by record; a bad record fails the task, naming file, record and offset. */
    private static final class FileRows implements PartitionReader<InternalRow> {
        private final RecordReader in;
        private final String file;
        private final RowDecoder<?> decoder;
        private InternalRow row;

        FileRows(RecordReader in, String file, RowDecoder<?> decoder) {
            this.in = in;
            this.file = file;
            this.decoder = decoder;
        }

        @Override
        public boolean next() throws IOException {
            RawRecord record = in.next();
            row = record == null ? null : decoder.decode(file, record);
            return row != null;
        }

        @Override
        public InternalRow get() {
            return row;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
