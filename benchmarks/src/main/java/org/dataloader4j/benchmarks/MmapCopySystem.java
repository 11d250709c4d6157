package org.dataloader4j.benchmarks;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dataloader4j.format.Compression;

/**
 * The limit: per thread, its share of the files mapped, the frames walked (no CRC checked) and
 * each payload copied with {@code MemorySegment.copy} into a preallocated off-heap batch buffer;
 * no decoding. Whatever decodes the records cannot beat it by much. The files are mapped anew for
 * every pass (so a pass includes the page faults of mapping them), or with
 * {@link Settings#reuse()} once, for all passes.
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
    public Run open(DataFiles data, int threads, Settings settings) throws IOException {
        int header = data.dataset().framing().headerBytes();
        int footer = data.dataset().framing().footerBytes();
        long batchBytes = (long) settings.batchSize() * data.maxPayload();
        if (settings.reuse()) {
            Arena mappings = Arena.ofShared();
            Map<Path, MemorySegment> mapped = new HashMap<>();
            try {
                for (Path file : data.files()) {
                    mapped.put(file, map(file, mappings));
                }
            } catch (IOException | RuntimeException e) {
                mappings.close();
                throw e;
            }
            return new Run() {
                @Override
                public Pass pass() throws Exception {
                    return FileShares.run(data.files(), threads, NAME,
                            files -> copyShare(files, (file, arena) -> mapped.get(file), header, footer, batchBytes,
                                    settings.batchSize()));
                }

                @Override
                public void close() {
                    mappings.close();
                }
            };
        }
        return new Run() {
            @Override
            public Pass pass() throws Exception {
                return FileShares.run(data.files(), threads, NAME,
                        files -> copyShare(files, MmapCopySystem::map, header, footer, batchBytes, settings.batchSize()));
            }

            @Override
            public void close() {
            }
        };
    }

    /** Where a share's thread finds a file's mapping: mapped into the share's arena, or kept from before. */
    @FunctionalInterface
    private interface Mapper {
        MemorySegment map(Path file, Arena share) throws IOException;
    }

    private static MemorySegment map(Path file, Arena arena) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
        }
    }

    private static FileShares.Share copyShare(List<Path> files, Mapper mapper, int header, int footer, long batchBytes,
            int batchSize) throws IOException {
        long allocatedBefore = ThreadAllocation.allocatedByCurrentThread();
        long records = 0;
        double sum = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment batch = arena.allocate(batchBytes, 64);
            int row = 0;
            long at = 0;
            for (Path file : files) {
                MemorySegment mapped = mapper.map(file, arena);
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
