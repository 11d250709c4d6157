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
import org.apache.hadoop.fs.StreamCapabilities;
import org.dataloader4j.format.store.RangeReader;
import org.dataloader4j.format.store.StoredFile;

/**
 * The range reads of one open Hadoop file, started on the store's read threads. Where the stream
 * reads vectors itself ({@link StreamCapabilities#VECTOREDIO}: S3A merges neighbouring ranges and
 * fetches them in parallel, the local file system reads them asynchronously), each call is one
 * {@code readVectored} of every range, the data copied into the caller's buffers as each range
 * arrives; those calls on one file are started one at a time, as Hadoop's streams ask. Where it
 * does not (HDFS, whose {@code readVectored} reads the ranges one after another before it
 * returns), each range is a positioned read of its own, side by side on the read threads:
 * positioned reads keep no stream position, and HDFS's may run concurrently on one stream.
 */
final class HadoopRangeReader implements RangeReader {
    private final FSDataInputStream in;
    private final StoredFile file;
    private final ExecutorService threads;
    /** Whether the stream reads vectors itself; if not, each range is a positioned read. */
    private final boolean vectored;

    HadoopRangeReader(FSDataInputStream in, StoredFile file, ExecutorService threads) {
        this.in = in;
        this.file = file;
        this.threads = threads;
        this.vectored = in.hasCapability(StreamCapabilities.VECTOREDIO);
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
            if (!vectored) {
                CompletableFuture<?>[] reads = new CompletableFuture<?>[offsets.length];
                for (int i = 0; i < offsets.length; i++) {
                    long offset = offsets[i];
                    ByteBuffer to = into[i];
                    reads[i] = CompletableFuture.runAsync(() -> readFully(offset, to), threads);
                }
                return CompletableFuture.allOf(reads);
            }
            return CompletableFuture.supplyAsync(() -> start(offsets, into), threads).thenCompose(f -> f);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new IOException("the store of " + file + " is closed", e));
        }
    }

    /** Fills {@code to} from {@code offset} with one positioned read (retried by Hadoop as its reads are). */
    private void readFully(long offset, ByteBuffer to) {
        int length = to.remaining();
        byte[] bytes = to.hasArray() ? to.array() : new byte[length];
        int at = to.hasArray() ? to.arrayOffset() + to.position() : 0;
        try {
            in.readFully(offset, bytes, at, length);
        } catch (IOException | RuntimeException e) {
            throw new CompletionException(failure(offset, e));
        }
        if (to.hasArray()) {
            to.position(to.position() + length);
        } else {
            to.put(bytes, 0, length);
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
