package org.dataloader4j.core.files;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.zip.CRC32C;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.core.dataset.Checks;

/**
 * Where a reader of files stands: the epoch, the file (in that epoch's order), the byte offset
 * in it and the index of the next record there. Readers of every format keep one, so they
 * share the epoch and file-order rules and the state they save.
 *
 * <p>With {@code shuffleAfterEpoch}, epochs after the first read the files in an order drawn
 * from {@code seed + epoch} ({@link FileOrder}). The state records the seed, so a restored
 * cursor reads the same orders whatever seed it was built with. It also records a fingerprint of
 * the files' names in their order, so that a state taken over other files (another rank's share
 * of part files, another world size, another dataset) is refused rather than read at offsets
 * that mean nothing there. Single-threaded.
 */
public final class FileCursor {
    /** The files, or null for a cursor made of names. */
    private final List<Path> files;
    private final int count;
    private final long epochs;
    private final boolean shuffleAfterEpoch;
    private final List<Integer> naturalOrder;
    private final long fingerprint;
    private long seed;

    private List<Integer> order;
    private long epoch;
    private int position;
    private long offset;
    private long record;
    private boolean ended;

    /**
     * A cursor at the start of {@code files}, for {@code epochs} epochs or {@link Dataset#FOREVER}.
     *
     * @throws IllegalArgumentException if there are no files or {@code epochs} is out of range
     */
    public FileCursor(List<Path> files, long epochs, boolean shuffleAfterEpoch, long seed) {
        this(List.copyOf(files), files.stream().map(f -> (f.getFileName() == null ? f : f.getFileName()).toString()).toList(),
                epochs, shuffleAfterEpoch, seed);
    }

    /**
     * A cursor at the start of files named {@code fileNames} (each the last segment of its path,
     * as a state checks them), wherever they are kept: for files that are not local paths. Its
     * {@link #files()} and {@link #file()} are not known.
     *
     * @throws IllegalArgumentException if there are no files or {@code epochs} is out of range
     */
    public static FileCursor ofNames(List<String> fileNames, long epochs, boolean shuffleAfterEpoch, long seed) {
        return new FileCursor(null, List.copyOf(fileNames), epochs, shuffleAfterEpoch, seed);
    }

    private FileCursor(List<Path> files, List<String> fileNames, long epochs, boolean shuffleAfterEpoch, long seed) {
        if (fileNames.isEmpty()) {
            throw new IllegalArgumentException("a dataset needs at least one file");
        }
        this.files = files;
        this.count = fileNames.size();
        this.epochs = Checks.epochs(epochs);
        this.shuffleAfterEpoch = shuffleAfterEpoch;
        this.seed = seed;
        this.naturalOrder = IntStream.range(0, count).boxed().toList();
        this.order = naturalOrder;
        CRC32C names = new CRC32C();
        for (String name : fileNames) {
            names.update(name.getBytes(StandardCharsets.UTF_8));
            names.update('/');
        }
        this.fingerprint = (long) count << 32 | names.getValue();
    }

    /**
     * The files, in the order given.
     *
     * @throws IllegalStateException if the cursor was made {@link #ofNames of names}
     */
    public List<Path> files() {
        if (files == null) {
            throw new IllegalStateException("a cursor over " + count + " files known by name has no paths");
        }
        return files;
    }

    /** Whether every epoch has been read. */
    public boolean ended() {
        return ended;
    }

    /** The index, in {@link #files()}, of the file being read. */
    public int fileIndex() {
        return order.get(position);
    }

    /** The file being read. */
    public Path file() {
        return files().get(fileIndex());
    }

    /** The byte offset of the next record in the current file. */
    public long offset() {
        return offset;
    }

    /** The index of the next record in the current file. */
    public long record() {
        return record;
    }

    /** The epoch, counted from 0. */
    public long epoch() {
        return epoch;
    }

    /**
     * The index, in {@link #files()}, of the file {@code ahead} files after the one being read (0:
     * that one), in this epoch's order and the next epochs'; -1 if the last epoch ends before it.
     */
    public int upcoming(int ahead) {
        long e = epoch;
        long p = (long) position + ahead;
        List<Integer> o = order;
        while (p >= o.size()) {
            p -= o.size();
            e++;
            if (epochs != Dataset.FOREVER && e >= epochs) {
                return -1;
            }
            o = FileOrder.forEpoch(naturalOrder, shuffleAfterEpoch, seed, e);
        }
        return o.get((int) p);
    }

    /** The files read before the current one, over every epoch: a number for each visit of a file. */
    public long visit() {
        return epoch * count + position;
    }

    /** Moves past one record of {@code bytes} bytes in the current file. */
    public void advance(long bytes) {
        offset += bytes;
        record++;
    }

    /** Moves to the start of the next file, the next epoch, or the end. */
    public void nextFile() {
        offset = 0;
        record = 0;
        if (++position < order.size()) {
            return;
        }
        if (epochs != Dataset.FOREVER && epoch + 1 >= epochs) {
            ended = true;
            position = order.size() - 1;
            return;
        }
        epoch++;
        order = FileOrder.forEpoch(naturalOrder, shuffleAfterEpoch, seed, epoch);
        position = 0;
    }

    /** The position as a state of {@code kind}. */
    public DatasetState state(String kind) {
        Map<String, Long> fields = new LinkedHashMap<>();
        saveFields(fields);
        return new DatasetState(kind, fields, null);
    }

    /** Adds the position's fields to {@code fields}: those of {@link #state}, for a state with more of its own. */
    public void saveFields(Map<String, Long> fields) {
        fields.put("files", fingerprint);
        fields.put("seed", seed);
        fields.put("epoch", epoch);
        fields.put("file", (long) (ended ? count : position));
        fields.put("offset", offset);
        fields.put("record", record);
    }

    /**
     * Moves to {@code state}, taken from {@link #state(String)} of a cursor over the same files.
     *
     * @throws IllegalArgumentException if it is of another kind or does not fit these files
     */
    public void restore(DatasetState state, String kind) {
        state.expect(kind);
        if (state.field("files") != fingerprint) {
            throw new IllegalArgumentException("the state was taken over other files than these " + count
                    + " (another rank's share, another world size or another dataset): " + state);
        }
        long e = state.field("epoch");
        long f = state.field("file");
        long o = state.field("offset");
        long r = state.field("record");
        if (e < 0 || (epochs != Dataset.FOREVER && e >= epochs) || f < 0 || f > count || o < 0 || r < 0) {
            throw new IllegalArgumentException("state does not fit " + count + " files and "
                    + epochs + " epochs: " + state);
        }
        seed = state.field("seed");
        epoch = e;
        order = FileOrder.forEpoch(naturalOrder, shuffleAfterEpoch, seed, epoch);
        ended = f == count;
        position = ended ? count - 1 : (int) f;
        offset = o;
        record = r;
    }
}
