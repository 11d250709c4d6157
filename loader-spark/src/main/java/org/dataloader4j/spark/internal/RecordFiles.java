package org.dataloader4j.spark.internal;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.dataloader4j.format.CorruptRecordException;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.RecordReader;

/** Opens record files through Hadoop's file systems, and parses their records. */
final class RecordFiles {
    private RecordFiles() {
    }

    /** A reader of {@code file}, decompressed as the options say or as detected. */
    static RecordReader open(RecordFormat<?> format, Configuration conf, String file, SourceOptions options)
            throws IOException {
        Path path = new Path(file);
        return RecordReader.of(path.getFileSystem(conf).open(path), path.toString(), format.framing(),
                options.compression(), options.verifyCrc());
    }

    /**
     * The features of {@code record}, read from {@code file}.
     *
     * @throws CorruptRecordException naming the file, record and offset if the payload is not
     *                                the format's message
     */
    static <F> Map<String, F> features(RecordFormat<F> format, String file, RawRecord record)
            throws CorruptRecordException {
        try {
            return format.features(record.payload());
        } catch (InvalidProtocolBufferException e) {
            CorruptRecordException c = new CorruptRecordException(file, record.index(), record.offset(),
                    "not a " + format.messageName() + " (" + e.getMessage() + ")");
            c.initCause(e);
            throw c;
        }
    }
}
