package org.dataloader4j.mini;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.SampleLocator;
import org.dataloader4j.core.files.FileCursor;
import org.dataloader4j.core.files.RecordLocations;

/**
 * The lines of mini files, one {@link MiniLine} per {@link #next()}, file after file, for a
 * number of epochs. With {@code shuffleAfterEpoch}, every epoch after the first reads the files
 * in an order drawn from the seed and the epoch number, so a resumed run reads the same order.
 *
 * <p>The state holds the seed, so a resumed dataset reads the same file orders whatever seed
 * it was built with. A line is read as it is: checking that it holds two numbers is the parser's job, so a bad
 * line fails at its batch, naming the file and line. A last line without a line break is a
 * line; the empty rest after a final line break is not. A line longer than
 * {@link #MAX_LINE_BYTES} (a binary file, say) is a {@link CorruptDataException} rather than a
 * growing buffer; the next {@code next()} goes on after its line break. The {@link #locator()} locates a line by
 * its file, number and byte offset, and fetches it again by reading just that line. Single-threaded.
 */
public final class MiniDataset implements Dataset<MiniLine> {
    static final String KIND = "mini";
    private static final int BUFFER_BYTES = 64 * 1024;
    /** The longest line kept, line break excluded: far more than two numbers need. */
    public static final int MAX_LINE_BYTES = 64 * 1024;

    private final FileCursor cursor;
    private final List<Path> files;
    private final RecordLocations locations;
    private FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES).flip();
    private byte[] lineBytes = new byte[256];
    private int lineLength;

    /**
     * Lines of {@code files} for {@code epochs} epochs ({@link #FOREVER} for no end); with
     * {@code shuffleAfterEpoch} each later epoch reads the files in an order drawn from
     * {@code seed}.
     *
     * @throws IllegalArgumentException if there are no files or {@code epochs} is out of range
     */
    public MiniDataset(List<Path> files, long epochs, boolean shuffleAfterEpoch, long seed) {
        this.cursor = new FileCursor(files, epochs, shuffleAfterEpoch, seed);
        this.files = List.copyOf(files);
        this.locations = new RecordLocations(files);
    }

    @Override
    public List<MiniLine> next() {
        try {
            while (!cursor.ended()) {
                if (channel == null) {
                    openAt(cursor.file(), cursor.offset());
                }
                long start = cursor.offset();
                long consumed = readLine();
                if (lineLength > MAX_LINE_BYTES) {
                    long line = cursor.record() + 1;
                    cursor.advance(consumed);
                    throw CorruptDataException.badLine(cursor.file().toString(), line, start,
                            "line longer than " + MAX_LINE_BYTES + " bytes");
                }
                if (consumed >= 0) {
                    MiniLine line = new MiniLine(cursor.file(), cursor.record() + 1, start,
                            new String(lineBytes, 0, lineLength, StandardCharsets.UTF_8));
                    cursor.advance(consumed);
                    return List.of(line);
                }
                closeFile();
                cursor.nextFile();
            }
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + cursor.file() + " at offset " + cursor.offset(), e);
        }
    }

    private void openAt(Path file, long offset) throws IOException {
        channel = FileChannel.open(file, StandardOpenOption.READ);
        channel.position(offset);
        buffer.clear().flip();
    }

    /**
     * Locates a line by its file, line number and byte offset ({@link RecordLocations}); a fetch
     * reads each line at its offset.
     */
    @Override
    public Optional<SampleLocator<MiniLine>> locator() {
        return Optional.of(new SampleLocator<>() {
            @Override
            public int width() {
                return RecordLocations.WIDTH;
            }

            @Override
            public void locate(MiniLine sample, long[] to, int at) {
                locations.write(sample.file().toString(), sample.line() - 1, sample.offset(), to, at);
            }

            @Override
            public List<MiniLine> fetch(long[] at) {
                return MiniDataset.this.fetch(at);
            }
        });
    }

    private List<MiniLine> fetch(long[] at) {
        // The fetch reads with this dataset's channel and buffer; the next next() reopens at the cursor.
        closeFile();
        int n = at.length / RecordLocations.WIDTH;
        List<MiniLine> out = new ArrayList<>(n);
        Path file = null;
        int open = -1;
        try {
            for (int i = 0; i < n; i++) {
                int f = locations.file(at, i);
                file = files.get(f);
                long offset = RecordLocations.offset(at, i);
                if (open != f) {
                    closeFile();
                    openAt(file, offset);
                    open = f;
                } else {
                    channel.position(offset);
                    buffer.clear().flip();
                }
                if (readLine() < 0) {
                    throw new IllegalArgumentException("no line at offset " + offset + " of " + file);
                }
                out.add(new MiniLine(file, RecordLocations.record(at, i) + 1, offset,
                        new String(lineBytes, 0, lineLength, StandardCharsets.UTF_8)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file, e);
        } finally {
            closeFile();
        }
        return out;
    }

    /**
     * Reads the next line of the open file into {@link #lineBytes}, without its line break.
     *
     * @return the bytes it took, line break included; -1 at the end of the file
     */
    private long readLine() throws IOException {
        long consumed = 0;
        lineLength = 0;
        while (true) {
            if (!buffer.hasRemaining()) {
                buffer.clear();
                int n = channel.read(buffer);
                buffer.flip();
                if (n < 0) {
                    // A last line without a line break is a line; nothing after a final break is not.
                    return consumed == 0 ? -1 : trimCarriageReturn(consumed);
                }
            }
            byte b = buffer.get();
            consumed++;
            if (b == '\n') {
                return trimCarriageReturn(consumed);
            }
            if (lineLength > MAX_LINE_BYTES) {
                continue; // too long: read on to the line break, keeping nothing
            }
            if (lineLength == lineBytes.length) {
                lineBytes = Arrays.copyOf(lineBytes, Math.min(lineLength * 2, MAX_LINE_BYTES + 1));
            }
            lineBytes[lineLength++] = b;
        }
    }

    private long trimCarriageReturn(long consumed) {
        if (lineLength > 0 && lineBytes[lineLength - 1] == '\r') {
            lineLength--;
        }
        return consumed;
    }

    @Override
    public long epoch() {
        return cursor.epoch();
    }

    @Override
    public DatasetState state() {
        return cursor.state(KIND);
    }

    @Override
    public void restore(DatasetState state) {
        closeFile();
        cursor.restore(state, KIND);
    }

    private void closeFile() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                channel = null;
            }
        }
    }

    @Override
    public void close() {
        closeFile();
    }
}
