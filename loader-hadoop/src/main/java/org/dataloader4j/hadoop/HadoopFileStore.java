package org.dataloader4j.hadoop;

import java.io.BufferedInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.dataloader4j.format.store.FileStore;
import org.dataloader4j.format.PartFileNames;
import org.dataloader4j.format.store.Locations;
import org.dataloader4j.format.store.RangeReader;
import org.dataloader4j.format.store.StoredFile;

/**
 * A Hadoop {@link FileSystem} as a {@link FileStore}: HDFS, S3A, or any file system the user's
 * Hadoop client has. The store opens its own instance of the file system
 * ({@link FileSystem#newInstance}, not the shared cache) and closes it in {@link #close()}, with
 * the threads that range reads run on.
 *
 * <p>Sequential streams are opened with Hadoop's {@code sequential} read policy and read ahead
 * in blocks of {@link #READ_AHEAD_BYTES}; range readers with the {@code random} policy, and their
 * reads go to {@code readVectored}, which S3A merges and issues in parallel. Credentials come from
 * Hadoop's configuration or the environment, as Hadoop finds them; no message of this store holds
 * more of a location than {@link Locations#display}.
 */
public final class HadoopFileStore implements FileStore {
    /** The threads that start range reads, so that a caller never waits for a read it only starts. */
    static final int READ_THREADS = 4;
    private static final AtomicInteger STORES = new AtomicInteger();

    /** How long {@link #close()} waits for the file system to close. */
    private static final long CLOSE_SECONDS = 60;

    private final FileSystem fs;
    private final String name;
    /** The store's number in this JVM, in its threads' names. */
    private final int id;
    private final ExecutorService reads;
    /** Every thread the pool of {@link #reads} started, which {@link #close()} waits for. */
    private final List<Thread> readThreads = new CopyOnWriteArrayList<>();

    private HadoopFileStore(FileSystem fs, String name) {
        this.fs = fs;
        this.name = name;
        this.id = STORES.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        this.reads = Executors.newFixedThreadPool(READ_THREADS, r -> {
            Thread t = new Thread(r, "dataloader4j-hadoop-" + id + "-read-" + threads.incrementAndGet());
            readThreads.add(t);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The file system holding {@code location}, configured by {@code conf}.
     *
     * @throws IOException if it cannot be reached or configured
     */
    public static HadoopFileStore open(URI location, Configuration conf) throws IOException {
        String shown = Locations.display(location);
        try {
            return new HadoopFileStore(FileSystem.newInstance(location, conf), shown);
        } catch (IOException e) {
            throw new IOException("cannot open the file system of " + shown + ": " + e.getClass().getSimpleName(), e);
        }
    }

    @Override
    public List<StoredFile> list(URI dir) throws IOException {
        List<StoredFile> files = new ArrayList<>();
        for (FileStatus status : fs.listStatus(new Path(dir))) {
            if (status.isFile() && PartFileNames.isDataFile(status.getPath().getName())) {
                files.add(stored(status));
            }
        }
        files.sort(Comparator.comparing(StoredFile::name));
        return files;
    }

    @Override
    public StoredFile stat(URI file) throws IOException {
        FileStatus status = fs.getFileStatus(new Path(file));
        if (!status.isFile()) {
            throw new FileNotFoundException(Locations.display(file) + ": not a regular file");
        }
        return stored(status);
    }

    /** The status as a stored file, named as it was asked for: the caller's location stays the file's name. */
    private static StoredFile stored(FileStatus status) {
        return new StoredFile(status.getPath().toUri(), status.getLen(), status.getModificationTime());
    }

    @Override
    public InputStream open(StoredFile file) throws IOException {
        return new BufferedInputStream(open(file, Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY_SEQUENTIAL),
                READ_AHEAD_BYTES);
    }

    @Override
    public RangeReader ranges(StoredFile file) throws IOException {
        return new HadoopRangeReader(open(file, Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY_RANDOM), file,
                reads);
    }

    private FSDataInputStream open(StoredFile file, String policy) throws IOException {
        try {
            return fs.openFile(new Path(file.location()))
                    .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY, policy)
                    .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_LENGTH, Long.toString(file.length()))
                    .build().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted opening " + file);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("cannot open " + file, e.getCause());
        }
    }

    /**
     * Stops the read threads (waiting a little for reads under way) and closes the file system,
     * on a thread of its own named after the store, waited for up to {@link #CLOSE_SECONDS} even if
     * the calling thread is interrupted: Hadoop's close stops its clients and their threads only
     * if it is not interrupted, and a reader may close its store on a parse thread that the
     * reader's own {@code close()} is interrupting at that moment. Idempotent.
     *
     * @throws IOException if closing failed or took longer than {@link #CLOSE_SECONDS}
     */
    @Override
    public void close() throws IOException {
        AtomicReference<IOException> failure = new AtomicReference<>();
        Thread closer = new Thread(() -> {
            try {
                closeNow();
            } catch (IOException e) {
                failure.set(e);
            }
        }, "dataloader4j-hadoop-" + id + "-close");
        closer.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_SECONDS);
        boolean interrupted = false;
        while (closer.isAlive() && System.nanoTime() < deadline) {
            try {
                closer.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            throw new IOException("closing the file system of " + name + " took longer than " + CLOSE_SECONDS + " s");
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /** Stops the read threads, waiting up to 10 s for them to end (not only to leave the pool), then closes the file system. */
    private void closeNow() throws IOException {
        reads.shutdownNow();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try {
            for (Thread t : readThreads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (t.isAlive()) {
                    throw new IOException("the read threads of " + name + " did not stop within 10 s");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            fs.close();
        }
    }

    @Override
    public String toString() {
        return "HadoopFileStore[" + name + "]";
    }
}
