package org.dataloader4j.core.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.format.CorruptRecordException;

/**
 * Read-only memory mappings of a dataset's files, each made on first use and kept until
 * {@link #close()}, in one shared arena this object owns: slices of them may be read by the
 * parse threads while the load thread maps the next file. A reader of record files owns one
 * and closes it in its own {@code close()}, after the pipeline's threads have stopped.
 */
public final class MappedFiles implements AutoCloseable {
    private final List<Path> files;
    private final MemorySegment[] mappings;
    private final Arena arena = Arena.ofShared();

    /** Mappings of {@code files}, none made yet. */
    public MappedFiles(List<Path> files) {
        this.files = List.copyOf(files);
        this.mappings = new MemorySegment[files.size()];
    }

    /**
     * The whole of file {@code i}, mapped on first use.
     *
     * @throws UncheckedIOException  naming the file if it cannot be mapped
     * @throws IllegalStateException if closed
     */
    public MemorySegment get(int i) {
        if (mappings[i] == null) {
            Path path = files.get(i);
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                mappings[i] = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot map " + path, e);
            }
        }
        return mappings[i];
    }

    /**
     * The error for a fault reading a mapping of {@code file} at record {@code record}, offset
     * {@code offset}: the file shrank (or was truncated) after it was mapped, so its last pages
     * are gone ({@link CorruptRecordException#fileChanged}). The JVM turns the fault into an
     * {@link InternalError}, the error's cause; any other internal error is rethrown as it is.
     */
    public static RuntimeException shrunk(Path file, long mappedBytes, long record, long offset, InternalError fault) {
        if (!isMappingFault(fault)) {
            throw fault;
        }
        long now = -1;
        IOException unreadable = null;
        try {
            now = Files.size(file);
        } catch (IOException e) {
            unreadable = e;
        }
        CorruptDataException error = FrameErrors.unchecked(
                CorruptRecordException.fileChanged(file.toString(), record, offset, mappedBytes, now, fault));
        if (unreadable != null) {
            error.addSuppressed(unreadable);
        }
        return error;
    }

    /** Whether {@code error} is the JVM's report of a fault in a read of mapped memory. */
    private static boolean isMappingFault(Throwable error) {
        return error instanceof InternalError && error.getMessage() != null
                && error.getMessage().contains("fault occurred in") && error.getMessage().contains("memory access");
    }

    /** Unmaps every file; slices handed out before become invalid. Idempotent. */
    @Override
    public void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
