package org.dataloader4j.ofrecord;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.SampleAtATimeDataset;
import org.dataloader4j.core.files.FileCursor;
import org.dataloader4j.core.files.MappedFiles;
import org.dataloader4j.core.files.MappedRecordLocator;

/**
 * The records of OFRecord files, one {@link RecordSlice} per {@link #next()}, file after file,
 * for a number of epochs: OneFlow's {@code OFRecordDataset}.
 *
 * <p>Each file is memory-mapped once, on first use, into an arena that this dataset owns and
 * closes in {@link #close()}; a record's payload is a slice of that mapping, never a copy. The
 * framing is checked record by record: an empty file is fine anywhere; a length field cut short,
 * a zero or negative length, or a length running past the end of its file is a
 * {@link CorruptDataException} naming the file, the record and its offset. (OneFlow aborts on
 * some of these and silently reads on into the next file on others.) A damaged length cannot be
 * trusted and nothing marks where the next frame starts, so a later {@code next()} goes on with
 * the next file.
 *
 * <p>With {@code shuffleAfterEpoch}, every epoch after the first reads the files in an order
 * drawn from {@code seed + epoch} (see {@link FileCursor}). Single-threaded; the slices it returns may
 * be read from any thread until the dataset is closed.
 */
public final class OFRecordDataset extends SampleAtATimeDataset<RecordSlice> {
    static final String KIND = "ofrecord";

    private final FileCursor cursor;
    private final MappedFiles mappings;
    private final MappedRecordLocator records;

    /**
     * The records of {@code files} for {@code epochs} epochs ({@link #FOREVER} for no end); with
     * {@code shuffleAfterEpoch}, later epochs read the files in an order drawn from {@code seed}.
     *
     * @throws IllegalArgumentException if there are no files or {@code epochs} is out of range
     */
    public OFRecordDataset(List<Path> files, long epochs, boolean shuffleAfterEpoch, long seed) {
        this.cursor = new FileCursor(files, epochs, shuffleAfterEpoch, seed);
        this.mappings = new MappedFiles(files);
        this.records = new MappedRecordLocator(files, mappings, OFRecordFrames.INSTANCE);
    }

    @Override
    protected RecordSlice nextSample() {
        while (!cursor.ended()) {
            if (cursor.offset() < mappings.get(cursor.fileIndex()).byteSize()) {
                return records.next(cursor);
            }
            cursor.nextFile();
        }
        return null;
    }

    @Override
    public long epoch() {
        return cursor.epoch();
    }

    /** Locates a record by its file, index and offset ({@link org.dataloader4j.core.files.RecordLocations}). */
    @Override
    public Optional<SampleLocator<RecordSlice>> locator() {
        return Optional.of(records);
    }

    @Override
    public DatasetState state() {
        return cursor.state(KIND);
    }

    @Override
    public void restore(DatasetState state) {
        cursor.restore(state, KIND);
    }

    /** Unmaps every file; slices handed out before become invalid. Idempotent. */
    @Override
    public void close() {
        mappings.close();
    }
}
