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
 *
 * <p>{@link #SHUFFLED_NAME} copies the payloads in the order a shuffle buffer of
 * {@link Settings#shuffleBuffer()} records yields them ({@link ShuffleWindow}, one per thread over
 * its share), as dataloader4j's reader takes them: the limit of a reader that shuffles.
 */
final class MmapCopySystem implements ComparedSystem {
    static final String NAME = "mmap-copy";
    static final String SHUFFLED_NAME = "mmap-copy-shuffled";
    private static final ValueLayout.OfLong LENGTH = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final boolean shuffled;

    /** The copy in file order, or {@code shuffled} through a shuffle buffer. */
    MmapCopySystem(boolean shuffled) {
        this.shuffled = shuffled;
    }

    @Override
    public String name() {
        return shuffled ? SHUFFLED_NAME : NAME;
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
        String name = name();
        int window = shuffled ? settings.shuffleBuffer() : 0;
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
                    return FileShares.run(data.files(), threads, name,
                            files -> copyShare(files, (file, arena) -> mapped.get(file), header, footer,
                                    new Rows(batchBytes, settings.batchSize()), window, settings.seed()));
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
                return FileShares.run(data.files(), threads, name,
                        files -> copyShare(files, MmapCopySystem::map, header, footer, new Rows(batchBytes, settings.batchSize()),
                                window, settings.seed()));
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

    /**
     * Copies the payloads of {@code files} into {@code rows}, in file order, or with a
     * {@code window} of at least one record in the order a {@link ShuffleWindow} of that many
     * draws them.
     */
    private static FileShares.Share copyShare(List<Path> files, Mapper mapper, int header, int footer, Rows rows,
            int window, long seed) throws IOException {
        long allocatedBefore = ThreadAllocation.allocatedByCurrentThread();
        ShuffleWindow shuffle = window > 0 ? new ShuffleWindow(window, seed) : null;
        ShuffleWindow.Sink copy = rows::copy; // one sink for the share, not one per record
        try (Arena arena = Arena.ofConfined()) {
            rows.allocate(arena);
            for (Path file : files) {
                MemorySegment mapped = mapper.map(file, arena);
                long size = mapped.byteSize();
                for (long off = 0; off < size; ) {
                    long length = mapped.get(LENGTH, off);
                    off += header;
                    if (shuffle == null) {
                        rows.copy(mapped, off, length);
                    } else {
                        shuffle.offer(mapped, off, length, copy);
                    }
                    off += length + footer;
                }
            }
            if (shuffle != null) {
                // Before the arena closes: the kept records lie in its mappings.
                shuffle.drain(copy);
            }
        }
        return new FileShares.Share(rows.records, ThreadAllocation.allocatedByCurrentThread() - allocatedBefore, rows.sum);
    }

    /** One thread's batch buffer, filled row after row, and what it has copied into it. */
    private static final class Rows {
        private final long batchBytes;
        private final int batchSize;
        private MemorySegment batch;
        private int row;
        private long at;
        long records;
        double sum;

        Rows(long batchBytes, int batchSize) {
            this.batchBytes = batchBytes;
            this.batchSize = batchSize;
        }

        void allocate(Arena arena) {
            batch = arena.allocate(batchBytes, 64);
        }

        /** Copies one payload into the next row and reads its first byte back. */
        void copy(MemorySegment source, long start, long length) {
            MemorySegment.copy(source, start, batch, at, length);
            sum += batch.get(ValueLayout.JAVA_BYTE, at);
            at += length;
            records++;
            if (++row == batchSize) {
                row = 0;
                at = 0;
            }
        }
    }
}
