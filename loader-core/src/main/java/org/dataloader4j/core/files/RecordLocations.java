package org.dataloader4j.core.files;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.function.Function;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.core.dataset.RecordSlice;
import java.util.Map;
import org.dataloader4j.api.SampleLocator;

/**
 * The {@link SampleLocator} locations of the readers of files: two {@code long}s per record,
 * the file's index in the reader's list with the record's index in that file
 * ({@code file << 40 | record}), and the byte offset of the record's frame (or line) in the file
 * (in the inflated stream for a compressed file). Offsets are stored whole; a file may hold up to
 * 2^40 records and a reader up to 2^23 files. {@link #write} is for one thread (a reader's load
 * thread); the rest may be called from any.
 */
public final class RecordLocations {
    /** The {@code long}s in one location. */
    public static final int WIDTH = 2;
    private static final int RECORD_BITS = 40;
    private static final long RECORD_MASK = (1L << RECORD_BITS) - 1;

    private final int files;
    private final Map<String, Integer> byName = new HashMap<>();
    /** The file of the last {@link #write}: records come file after file, so most writes hit it. */
    private String lastName;
    private int lastIndex;

    /** Locations in {@code files}, in the order a reader was given them. */
    public RecordLocations(List<Path> files) {
        this(files.stream().map(Path::toString).toArray(String[]::new));
    }

    /**
     * Locations in the files named {@code names} as records show them ({@link
     * org.dataloader4j.core.dataset.RecordSlice#file()}: a path, or a remote file's location), in
     * the order a reader was given them.
     */
    public static RecordLocations ofNames(List<String> names) {
        return new RecordLocations(names.toArray(String[]::new));
    }

    private RecordLocations(String[] names) {
        this.files = names.length;
        checkFiles(files);
        for (int i = files - 1; i >= 0; i--) {
            byName.put(names[i], i); // a file listed twice: its first index
        }
    }

    /**
     * The locator of records by these locations: a record is located by its file's name, index
     * and offset ({@link #write}), and records are fetched again by {@code fetch}, given their
     * locations.
     */
    public SampleLocator<RecordSlice> locator(Function<long[], List<RecordSlice>> fetch) {
        return new SampleLocator<>() {
            @Override
            public int width() {
                return WIDTH;
            }

            @Override
            public void locate(RecordSlice sample, long[] to, int at) {
                write(sample.file(), sample.index(), sample.offset(), to, at);
            }

            @Override
            public List<RecordSlice> fetch(long[] locations) {
                return fetch.apply(locations);
            }
        };
    }

    /**
     * Throws if {@code files} files are more than locations can name.
     *
     * @throws IllegalArgumentException if they are
     */
    static void checkFiles(int files) {
        if (files >= 1 << 23) {
            throw new IllegalArgumentException("a reader locates records in at most " + (1 << 23) + " files: files=" + files);
        }
    }

    /** The number of record {@code record} of file {@code file}: the first {@code long} of its location. */
    public static long number(int file, long record) {
        return (long) file << RECORD_BITS | record;
    }

    /** The file of record number {@code number}. */
    public static int fileOf(long number) {
        return (int) (number >>> RECORD_BITS);
    }

    /** The record index in its file of record number {@code number}. */
    public static long recordOf(long number) {
        return number & RECORD_MASK;
    }

    /** Writes the location of record {@code record} at {@code offset} in {@code file} (as shown in errors). */
    public void write(String file, long record, long offset, long[] to, int at) {
        if (!file.equals(lastName)) {
            Integer index = byName.get(file);
            if (index == null) {
                throw new IllegalArgumentException("not a file of this reader: " + file);
            }
            lastName = file;
            lastIndex = index;
        }
        to[at] = number(lastIndex, record);
        to[at + 1] = offset;
    }

    /**
     * The file index of location {@code i} of {@code locations}, checked.
     *
     * @throws IllegalArgumentException if it names no file of this reader or the array is not
     *                                  made of whole locations
     */
    public int file(long[] locations, int i) {
        if (locations.length % WIDTH != 0) {
            throw new IllegalArgumentException("locations come in pairs: length=" + locations.length);
        }
        long f = locations[i * WIDTH] >>> RECORD_BITS;
        if (f >= files || locations[i * WIDTH + 1] < 0) {
            throw new IllegalArgumentException("no record of these " + files + " files is at location ("
                    + locations[i * WIDTH] + ", " + locations[i * WIDTH + 1] + ")");
        }
        return (int) f;
    }

    /** The record index of location {@code i}. */
    public static long record(long[] locations, int i) {
        return locations[i * WIDTH] & RECORD_MASK;
    }

    /** The byte offset of location {@code i}. */
    public static long offset(long[] locations, int i) {
        return locations[i * WIDTH + 1];
    }
}
