package org.dataloader4j.spark.internal;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.dataloader4j.format.PartFileNames;
import org.dataloader4j.format.PartWriter;

/**
 * Makes one job's task files the folder's part files, or throws them away. Appends by two jobs
 * to one folder at the same time are not supported: both could pick the same part numbers.
 */
final class PartCommit {
    /** The marker Hadoop's committers write into a folder whose job succeeded. */
    static final String SUCCESS = "_SUCCESS";
    private static final String TEMPORARY = "_temporary";

    private final Path dir;
    private final String queryId;

    PartCommit(Path dir, String queryId) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.queryId = Objects.requireNonNull(queryId, "queryId");
    }

    /** Where this job's tasks write. */
    Path taskFolder() {
        return new Path(new Path(dir, TEMPORARY), queryId);
    }

    /**
     * What one task wrote.
     *
     * @param partition the task's partition: the order of its part among the job's
     * @param file      the file it wrote, or {@code null} if it had no rows
     * @param records   the number of records in it
     */
    record TaskFile(int partition, String file, long records) implements WriterCommitMessage {
    }

    void commit(Configuration conf, WriterCommitMessage[] messages, boolean truncate) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        fs.mkdirs(dir);
        long next = 0;
        for (FileStatus s : PartListing.folder(fs, dir)) {
            if (truncate) {
                delete(fs, s.getPath(), false);
            } else {
                next = Math.max(next, PartFileNames.partIndex(s.getPath().getName(), PartWriter.PREFIX) + 1);
            }
        }
        TaskFile[] files = Arrays.stream(messages).filter(Objects::nonNull).map(TaskFile.class::cast)
                .filter(t -> t.file() != null).sorted(Comparator.comparingInt(TaskFile::partition)).toArray(TaskFile[]::new);
        for (TaskFile t : files) {
            Path part = new Path(dir, PartFileNames.partName(PartWriter.PREFIX, PartWriter.SUFFIX_LENGTH, next++));
            if (!fs.rename(new Path(t.file()), part)) {
                throw new IOException("cannot rename " + t.file() + " to " + part);
            }
        }
        abort(conf);
        fs.create(new Path(dir, SUCCESS), true).close();
    }

    /** Deletes this job's task files, and the temporary folder if no other job uses it. */
    void abort(Configuration conf) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        fs.delete(taskFolder(), true);
        Path temporary = new Path(dir, TEMPORARY);
        FileStatus[] left = fs.exists(temporary) ? fs.listStatus(temporary) : new FileStatus[0];
        if (left.length == 0) {
            fs.delete(temporary, true);
        }
    }

    private static void delete(FileSystem fs, Path file, boolean recursive) throws IOException {
        if (!fs.delete(file, recursive) && fs.exists(file)) {
            throw new IOException("cannot delete " + file);
        }
    }
}
