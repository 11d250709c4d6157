package org.dataloader4j.hadoop;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.dataloader4j.format.store.RangeReader;
import org.dataloader4j.format.store.StoredFile;

/**
 * The range reads of one open Hadoop file: each call is one {@code readVectored} of every range,
 * started on the store's read threads (HDFS's implementation reads before it returns; S3A's
 * merges neighbouring ranges and fetches them in parallel), and the data copied into the
 * caller's buffers as each range arrives. Calls on one file are started one at a time, as
 * Hadoop's streams ask.
 */
final class HadoopRangeReader implements RangeReader {
    private final FSDataInputStream in;
    private final StoredFile file;
    private final ExecutorService threads;

    HadoopRangeReader(FSDataInputStream in, StoredFile file, ExecutorService threads) {
        this.in = in;
        this.file = file;
        this.threads = threads;
    }

    @Override
    public CompletableFuture<Void> read(long[] offsets, ByteBuffer[] into) {
        RangeReader.checkRanges(offsets, into);
        for (int i = 0; i < offsets.length; i++) {
            if (offsets[i] + into[i].remaining() > file.length()) {
                return CompletableFuture.failedFuture(new EOFException(file + " is " + file.length()
                        + " bytes long, shorter than the range of " + into[i].remaining() + " bytes from offset " + offsets[i]));
            }
        }
        try {
            return CompletableFuture.supplyAsync(() -> start(offsets, into), threads).thenCompose(f -> f);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new IOException("the store of " + file + " is closed", e));
        }
    }

    private CompletableFuture<Void> start(long[] offsets, ByteBuffer[] into) {
        List<FileRange> ranges = new ArrayList<>(offsets.length);
        for (int i = 0; i < offsets.length; i++) {
            ranges.add(FileRange.createFileRange(offsets[i], into[i].remaining(), i));
        }
        try {
            synchronized (this) {
                in.readVectored(ranges, ByteBuffer::allocate);
            }
        } catch (IOException | RuntimeException e) {
            throw new CompletionException(failure(offsets[0], e));
        }
        CompletableFuture<?>[] copies = new CompletableFuture<?>[ranges.size()];
        for (int r = 0; r < ranges.size(); r++) {
            FileRange range = ranges.get(r);
            ByteBuffer to = into[(Integer) range.getReference()];
            copies[r] = range.getData().handle((data, error) -> {
                if (error != null) {
                    throw new CompletionException(failure(range.getOffset(), error instanceof CompletionException c
                            && c.getCause() != null ? c.getCause() : error));
                }
                to.put(data);
                return null;
            });
        }
        return CompletableFuture.allOf(copies);
    }

    /** The error for a read of this file from {@code offset} that failed with {@code cause}: names the file and offset. */
    private IOException failure(long offset, Throwable cause) {
        String what = file + " failed reading from offset " + offset + ": " + cause.getClass().getSimpleName();
        return cause instanceof EOFException ? (IOException) new EOFException(what).initCause(cause) : new IOException(what, cause);
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            in.close();
        }
    }
}
