package org.dataloader4j.cli.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.StorageException;
import org.dataloader4j.format.CorruptRecordException;

/**
 * The exit codes of {@code loader}, and the one line each failure is told in.
 *
 * <table>
 *   <caption>Exit codes</caption>
 *   <tr><td>0</td><td>done; for {@code verify}: every record is valid</td></tr>
 *   <tr><td>1</td><td>the data is bad: a damaged frame, CRC or protobuf ({@code verify} lists them all)</td></tr>
 *   <tr><td>2</td><td>the command line is wrong: an unknown option, a bad value</td></tr>
 *   <tr><td>3</td><td>a file cannot be read or written: missing, not allowed, disk full, a store that does not answer</td></tr>
 *   <tr><td>4</td><td>anything else: a bug, reported with its exception type</td></tr>
 * </table>
 */
public final class ExitCodes {
    /** Done; every record valid. */
    public static final int OK = 0;
    /** Bad data. */
    public static final int BAD_DATA = 1;
    /** A wrong command line. */
    public static final int USAGE = 2;
    /** A file that cannot be read or written. */
    public static final int IO = 3;
    /** Anything else. */
    public static final int INTERNAL = 4;
    /** The exit codes as the help texts list them. */
    public static final String HELP = "%nExit codes:%n"
            + "  0  done; for verify: every record is valid%n"
            + "  1  bad data: a damaged frame, CRC or protobuf%n"
            + "  2  a wrong command line%n"
            + "  3  a file that cannot be read or written%n"
            + "  4  anything else (a bug: please report it)";

    private ExitCodes() {
    }

    /** The exit code for {@code failure}. */
    public static int of(Throwable failure) {
        Throwable t = rootOfInterest(failure);
        if (t instanceof CliException c) {
            return c.exitCode();
        }
        if (t instanceof CorruptRecordException || t instanceof CorruptDataException) {
            return BAD_DATA;
        }
        if (t instanceof StorageException) {
            return IO;
        }
        if (t instanceof IOException) {
            return IO;
        }
        if (t instanceof IllegalArgumentException) {
            return USAGE;
        }
        return INTERNAL;
    }

    /**
     * {@code failure} in one line, without the {@code loader: } prefix: a damaged record as
     * {@code FILE: REASON at record R, offset N}, a missing file as {@code FILE: no such file}.
     */
    public static String describe(Throwable failure) {
        Throwable t = rootOfInterest(failure);
        if (t instanceof CorruptRecordException c) {
            return located(c.file(), c.reason(), c.record(), c.offset());
        }
        if (t instanceof CorruptDataException c) {
            return located(c.file(), c.reason(), c.record(), c.offset());
        }
        if (t instanceof NoSuchFileException e) {
            return e.getFile() + ": " + (e.getReason() != null ? e.getReason() : "no such file");
        }
        if (t instanceof AccessDeniedException e) {
            return e.getFile() + ": permission denied";
        }
        if (t instanceof FileAlreadyExistsException e) {
            return e.getFile() + ": already exists";
        }
        if (t instanceof CliException || t instanceof StorageException || t instanceof IOException || t instanceof IllegalArgumentException) {
            return String.valueOf(t.getMessage());
        }
        return "internal error: " + t;
    }

    /**
     * Bad data, read by a stream or from a mapping alike: {@code FILE: REASON at record R, offset N},
     * leaving out what is not known ({@link CorruptDataException#UNKNOWN}).
     */
    private static String located(String file, String reason, long record, long offset) {
        StringBuilder sb = new StringBuilder(file).append(": ").append(reason);
        if (record >= 0) {
            sb.append(" at record ").append(record);
        }
        if (offset >= 0) {
            sb.append(record >= 0 ? ", offset " : " at offset ").append(offset);
        }
        return sb.toString();
    }

    /**
     * The exception that says what went wrong: the cause of wrappers (an unchecked I/O error, a
     * reader's failure at a batch), the first corrupt-data exception in the chain if any, else a
     * remote file that could not be read ({@link StorageException}: it names the file, record and
     * offset).
     */
    private static Throwable rootOfInterest(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof CorruptRecordException || t instanceof CorruptDataException || t instanceof CliException) {
                return t;
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof StorageException) {
                return t;
            }
        }
        Throwable t = failure;
        while ((t instanceof UncheckedIOException || t instanceof org.dataloader4j.api.DataLoaderException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
