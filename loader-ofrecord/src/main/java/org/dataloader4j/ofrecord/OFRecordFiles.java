package org.dataloader4j.ofrecord;

import java.nio.file.Path;
import java.util.List;
import org.dataloader4j.api.RandomAccessDataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.files.FrameReader;
import org.dataloader4j.core.files.IndexedRecordDataset;

/**
 * Random access to the records of OFRecord files: each file is indexed once (the index is kept
 * in a sidecar, see {@link org.dataloader4j.core.files.RecordIndex}) and then any record is a zero-copy
 * slice of the file's mapping.
 */
public final class OFRecordFiles {

    private OFRecordFiles() {
    }

    /**
     * The records of {@code files}, in the order given, for {@code epochs} epochs; sidecars are
     * kept in {@code indexDir}, or beside each file if it is null.
     *
     * @throws org.dataloader4j.api.CorruptDataException if a file must be scanned and has a damaged frame
     */
    public static RandomAccessDataset<RecordSlice> open(List<Path> files, long epochs, Path indexDir) {
        return new IndexedRecordDataset(files, OFRecordFrames.INSTANCE, epochs, indexDir);
    }

    /**
     * OFRecord's framing rule, with which the readers index files that are not mapped (remote
     * files, {@link org.dataloader4j.core.files.RecordFiles#open(org.dataloader4j.format.store.FileStore,
     * List, FrameReader, Path, String, int)}).
     */
    @SuppressWarnings("exports") // FrameReader: for loader-cli, which sees core.files
    public static FrameReader frames() {
        return OFRecordFrames.INSTANCE;
    }
}
