package org.dataloader4j.cli.internal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.RecordReader;

/**
 * Reads the records of one file with a {@link RecordReader} (every frame and CRC checked) and
 * knows how far into the file it is, for progress bars: the offset in an uncompressed file, the
 * compressed bytes read from a compressed one.
 */
public final class RecordScan implements Closeable {
    private final RecordReader reader;
    private final CountingInputStream counter;
    private final long size;
    private long position;

    private RecordScan(RecordReader reader, CountingInputStream counter, long size) {
        this.reader = reader;
        this.counter = counter;
        this.size = size;
    }

    /** Opens {@code file}, in {@code format}. */
    public static RecordScan open(Path file, FileFormat format) throws IOException {
        return open(InputFile.local(file), format);
    }

    /**
     * Opens {@code file}, local or remote, in {@code format}; errors name it as {@link
     * InputFile#name()}. A remote file is read through its store's stream, as the same file
     * would be read locally: a length beyond its end is reported as such.
     */
    public static RecordScan open(InputFile input, FileFormat format) throws IOException {
        if (input.remote()) {
            long size = input.size();
            if (format.compression() == Compression.NONE) {
                return new RecordScan(RecordReader.of(input.open(), input.name(), size, format.framing(), true), null, size);
            }
            CountingInputStream counter = new CountingInputStream(input.open());
            return new RecordScan(RecordReader.of(counter, input.name(), format.framing(), format.compression(), true),
                    counter, size);
        }
        Path file = input.path();
        long size = Files.size(file);
        if (format.compression() == Compression.NONE) {
            // Opened by path, the reader knows the file's size and names a bogus length as such.
            return new RecordScan(RecordReader.open(file, format.framing(), Compression.NONE, true), null, size);
        }
        CountingInputStream counter = new CountingInputStream(Files.newInputStream(file));
        return new RecordScan(RecordReader.of(counter, file.toString(), format.framing(), format.compression(), true),
                counter, size);
    }

    /** The next record, or null at the end. */
    public RawRecord next() throws IOException {
        RawRecord r = reader.next();
        if (r != null && counter == null) {
            position = r.offset() + r.payload().length;
        }
        return r;
    }

    /** The file's size in bytes. */
    public long size() {
        return size;
    }

    /** How many of the file's bytes have been read, about. */
    public long position() {
        return counter != null ? counter.count() : position;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
