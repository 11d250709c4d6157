package org.dataloader4j.format.store;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The local file system as a {@link FileStore}, through {@code java.nio.file}. The readers map
 * local files instead (their fast path); this store serves the listing and the tools that read
 * any store alike. Range reads are positional reads, done before {@code read} returns.
 */
final class LocalFileStore implements FileStore {
    static final LocalFileStore INSTANCE = new LocalFileStore();

    private LocalFileStore() {
    }

    @Override
    public List<StoredFile> list(URI dir) throws IOException {
        Path folder = Path.of(dir);
        List<StoredFile> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path entry : entries) {
                if (org.dataloader4j.format.PartFileNames.isDataFile(entry.getFileName().toString()) && Files.isRegularFile(entry)) {
                    files.add(stat(entry));
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            throw notFound(folder.toString(), "no such folder");
        }
        files.sort(Comparator.comparing(StoredFile::name));
        return files;
    }

    @Override
    public StoredFile stat(URI file) throws IOException {
        return stat(Path.of(file));
    }

    private static StoredFile stat(Path path) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw notFound(path.toString(), "no such file");
        }
        if (!attributes.isRegularFile()) {
            throw notFound(path.toString(), "not a regular file");
        }
        return new StoredFile(path.toUri(), attributes.size(), attributes.lastModifiedTime().toMillis());
    }

    private static FileNotFoundException notFound(String path, String why) {
        return new FileNotFoundException(path + ": " + why);
    }

    @Override
    public InputStream open(StoredFile file) throws IOException {
        return new BufferedInputStream(Files.newInputStream(Path.of(file.location())), READ_AHEAD_BYTES);
    }

    @Override
    public RangeReader ranges(StoredFile file) throws IOException {
        Path path = Path.of(file.location());
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        return new RangeReader() {
            @Override
            public CompletableFuture<Void> read(long[] offsets, ByteBuffer[] into) {
                RangeReader.checkRanges(offsets, into);
                try {
                    for (int i = 0; i < offsets.length; i++) {
                        long at = offsets[i];
                        while (into[i].hasRemaining()) {
                            int n = channel.read(into[i], at);
                            if (n < 0) {
                                throw new EOFException(path + ": the file ends at byte " + at + ", inside the range from "
                                        + offsets[i]);
                            }
                            at += n;
                        }
                    }
                    return CompletableFuture.completedFuture(null);
                } catch (IOException e) {
                    return CompletableFuture.failedFuture(e);
                } catch (RuntimeException e) {
                    return CompletableFuture.failedFuture(new UncheckedIOException(new IOException(path.toString(), e)));
                }
            }

            @Override
            public void close() throws IOException {
                channel.close();
            }
        };
    }

    /** Nothing to release: the local file system stays open. */
    @Override
    public void close() {
    }
}
