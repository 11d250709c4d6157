package org.dataloader4j.tfrecord.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.dataloader4j.core.parallel.Threads;

/**
 * A decompressing stream read ahead on a thread of its own: the thread inflates {@code source}
 * into blocks, and whoever reads this stream takes the bytes from them. So a reader of a
 * compressed file frames and checks its records while the next blocks are being inflated, and
 * lanes started for the next files inflate them while the reader is still on this one, each as
 * far ahead as its blocks reach.
 *
 * <p>The bytes and the failure are those of {@code source}, in the same order: every byte the
 * source handed out before it threw comes first, then the same exception (again on every later
 * read). A lane holds at most {@code maxBlocks} blocks of {@link #BLOCK} bytes, made as it needs
 * them or taken from {@code spare}, where it leaves them when it is closed, for the next lane.
 *
 * <p>One thread reads the stream; {@link #close()} (from any thread) stops the lane's thread,
 * waits for it, and closes the source.
 */
public final class InflatingLane extends InputStream {
    /** The bytes of one block. */
    public static final int BLOCK = 256 * 1024;
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);
    /** What the lane's thread puts after the last block of a stream that ended cleanly. */
    private static final Object END = new Object();

    private record Block(byte[] bytes, int length) {
    }

    private final InputStream source;
    private final Thread thread;
    private final int maxBlocks;
    private final Queue<byte[]> spare;
    /** Blocks to read, then {@link #END} or the source's exception. */
    private final BlockingQueue<Object> ready;
    /** Blocks read and handed back. */
    private final BlockingQueue<byte[]> free;
    /** The blocks this lane has made or taken from the spares; the lane's thread's. */
    private int blocks;
    private volatile boolean stopped;

    // The reading thread's side.
    private Block current;
    private int position;
    /** {@link #END} or the exception, once taken: every later read answers the same. */
    private Object last;

    /**
     * Starts inflating {@code source} ahead, into at most {@code maxBlocks} blocks (at least 2), on
     * a thread named {@code threadName}; the lane closes the source.
     */
    public InflatingLane(InputStream source, String threadName, int maxBlocks, Queue<byte[]> spare) {
        this.source = Objects.requireNonNull(source, "source");
        if (maxBlocks < 2) {
            throw new IllegalArgumentException("maxBlocks must be >= 2: maxBlocks=" + maxBlocks);
        }
        this.maxBlocks = maxBlocks;
        this.spare = Objects.requireNonNull(spare, "spare");
        this.ready = new ArrayBlockingQueue<>(maxBlocks + 1);
        this.free = new ArrayBlockingQueue<>(maxBlocks);
        this.thread = Threads.daemon(this::inflate, threadName);
        thread.start();
    }

    /** The lane's thread: fills free blocks until the source ends, fails or the lane is stopped. */
    private void inflate() {
        try {
            while (!stopped) {
                byte[] bytes = nextFree();
                int length = 0;
                Object after = null;
                while (length < BLOCK) {
                    int n;
                    try {
                        n = source.read(bytes, length, BLOCK - length);
                    } catch (IOException | RuntimeException e) {
                        after = e;
                        break;
                    }
                    if (n < 0) {
                        after = END;
                        break;
                    }
                    length += n;
                }
                // The bytes read before an end or a failure come first, as the source gave them.
                if (length > 0) {
                    ready.put(new Block(bytes, length));
                }
                if (after != null) {
                    ready.put(after);
                    return;
                }
            }
        } catch (InterruptedException e) {
            // stopped by close()
        }
    }

    /** A block to fill: one handed back, else a spare or a new one while the lane has fewer than its most, else the next handed back. */
    private byte[] nextFree() throws InterruptedException {
        byte[] bytes = free.poll();
        if (bytes != null) {
            return bytes;
        }
        if (blocks < maxBlocks) {
            blocks++;
            bytes = spare.poll();
            return bytes != null ? bytes : new byte[BLOCK];
        }
        return free.take();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] into, int at, int length) throws IOException {
        Objects.checkFromIndexSize(at, length, into.length);
        if (length == 0) {
            return 0;
        }
        if (current == null || position == current.length()) {
            if (!nextBlock()) {
                return -1;
            }
        }
        int n = Math.min(length, current.length() - position);
        System.arraycopy(current.bytes(), position, into, at, n);
        position += n;
        return n;
    }

    /** Moves to the next inflated block, handing the one read back; false at the end. */
    private boolean nextBlock() throws IOException {
        if (last == null) {
            if (current != null) {
                free.add(current.bytes());
                current = null;
            }
            Object next;
            try {
                next = ready.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for inflated bytes");
            }
            if (next instanceof Block block) {
                current = block;
                position = 0;
                return true;
            }
            last = next;
        }
        if (last instanceof IOException e) {
            throw e;
        }
        if (last instanceof RuntimeException e) {
            throw e;
        }
        return false;
    }

    /** Stops the lane's thread, waits for it (5 s at most, then logs its name) and closes the source. Idempotent. */
    @Override
    public void close() throws IOException {
        if (stopped) {
            return;
        }
        stopped = true;
        thread.interrupt();
        // A thread that does not stop in time is named in the log; the source is closed anyway.
        if (Threads.join(thread, System.nanoTime() + STOP_WAIT.toNanos())) {
            // Its blocks go to the next lane.
            if (current != null) {
                spare.add(current.bytes());
                current = null;
            }
            spare.addAll(free);
            for (Object o : ready) {
                if (o instanceof Block block) {
                    spare.add(block.bytes());
                }
            }
        }
        free.clear();
        ready.clear();
        source.close();
    }
}
