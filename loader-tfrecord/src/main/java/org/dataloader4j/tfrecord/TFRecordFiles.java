package org.dataloader4j.tfrecord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.dataloader4j.api.RandomAccessDataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.files.FrameReader;
import org.dataloader4j.core.files.IndexedRecordDataset;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;

/**
 * Random access to the records of uncompressed TFRecord files: each file is indexed once, with
 * both CRCs of every record checked during the scan (unless turned off), the index kept in a
 * sidecar (see {@link org.dataloader4j.core.files.RecordIndex}); then any record is a zero-copy slice
 * of the file's mapping. A compressed file has no zero-copy records and is refused.
 */
public final class TFRecordFiles {

    private TFRecordFiles() {
    }

    /**
     * The records of {@code files}, in the order given, for {@code epochs} epochs; sidecars are
     * kept in {@code indexDir}, or beside each file if it is null.
     *
     * @throws IllegalArgumentException if a file is compressed (named {@code .gz}, {@code .zz},
     *         {@code .zlib}, or detected so by {@link Compression#detect})
     * @throws org.dataloader4j.api.CorruptDataException if a file must be scanned and has a damaged frame
     */
    public static RandomAccessDataset<RecordSlice> open(List<Path> files, long epochs, boolean verifyCrc, Path indexDir) {
        for (Path file : files) {
            Compression compression;
            try {
                compression = Compression.detect(file, Framing.TFRECORD);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
            if (compression != Compression.NONE) {
                throw new IllegalArgumentException("cannot index a compressed TFRecord file for random access"
                        + " (decompress it first): file=" + file + ", compression=" + compression);
            }
        }
        return new IndexedRecordDataset(files, TFRecordFrames.of(verifyCrc), epochs, indexDir);
    }

    /**
     * TFRecord's framing rule, with both CRCs checked unless {@code verifyCrc} is false, with
     * which the readers index uncompressed files that are not mapped (remote files, {@link
     * org.dataloader4j.core.files.RecordFiles#open(org.dataloader4j.format.store.FileStore, List,
     * FrameReader, Path, String, int)}).
     */
    @SuppressWarnings("exports") // FrameReader: for loader-cli, which sees core.files
    public static FrameReader frames(boolean verifyCrc) {
        return TFRecordFrames.of(verifyCrc);
    }
}
