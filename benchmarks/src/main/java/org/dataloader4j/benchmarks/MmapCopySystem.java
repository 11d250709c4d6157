package org.dataloader4j.benchmarks;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.dataloader4j.format.Compression;

/**
 * The limit: per thread, its share of the files mapped, the frames walked (no CRC checked) and
 * each payload copied with {@code MemorySegment.copy} into a preallocated off-heap batch buffer;
 * no decoding. Whatever decodes the records cannot beat it by much.
 */
final class MmapCopySystem implements ComparedSystem {
    static final String NAME = "mmap-copy";
    private static final ValueLayout.OfLong LENGTH = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean reads(CompareDataset dataset) {
        return dataset.compression() == Compression.NONE;
    }

    @Override
    public Run open(DataFiles data, int threads, Settings settings) {
        int header = data.dataset().framing().headerBytes();
        int footer = data.dataset().framing().footerBytes();
        long batchBytes = (long) settings.batchSize() * data.maxPayload();
        return new Run() {
            @Override
            public Pass pass() throws Exception {
                return FileShares.run(data.files(), threads, NAME,
                        files -> copyShare(files, header, footer, batchBytes, settings.batchSize()));
            }

            @Override
            public void close() {
            }
        };
    }

    private static FileShares.Share copyShare(List<Path> files, int header, int footer, long batchBytes, int batchSize)
            throws IOException {
        long allocatedBefore = ThreadAllocation.allocatedByCurrentThread();
        long records = 0;
        double sum = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment batch = arena.allocate(batchBytes, 64);
            int row = 0;
            long at = 0;
            for (Path file : files) {
                MemorySegment mapped;
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
                }
                long size = mapped.byteSize();
                for (long off = 0; off < size; ) {
                    long length = mapped.get(LENGTH, off);
                    off += header;
                    MemorySegment.copy(mapped, off, batch, at, length);
                    sum += batch.get(ValueLayout.JAVA_BYTE, at);
                    off += length + footer;
                    at += length;
                    records++;
                    if (++row == batchSize) {
                        row = 0;
                        at = 0;
                    }
                }
            }
        }
        return new FileShares.Share(records, ThreadAllocation.allocatedByCurrentThread() - allocatedBefore, sum);
    }
}
