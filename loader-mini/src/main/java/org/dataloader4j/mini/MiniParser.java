package org.dataloader4j.mini;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.Shape;
import org.dataloader4j.api.TensorSpec;

/**
 * Parses mini lines ({@code "x,y"}) into one FLOAT64 tensor {@code xy} of shape
 * {@code (batch, 2)}: row {@code i} holds line {@code i}'s two numbers. A line that is not two
 * comma-separated numbers fails with a {@link CorruptDataException} naming the file and line.
 *
 * <p>Stateless: rows are parsed in parallel ranges of at least {@link #MIN_ROWS_PER_THREAD}.
 */
public final class MiniParser implements Parser<MiniLine> {
    /** The name of the output. */
    public static final String OUTPUT = "xy";
    /** Fewer rows than this per thread cost more to hand out than to parse. */
    static final int MIN_ROWS_PER_THREAD = 64;
    private static final ValueLayout.OfDouble LAYOUT = (ValueLayout.OfDouble) DataType.FLOAT64.layout();

    /** A parser of mini lines. */
    public MiniParser() {
    }

    @Override
    public List<TensorSpec> outputs(int batchCapacity) {
        return List.of(TensorSpec.dense(OUTPUT, DataType.FLOAT64, Shape.of(batchCapacity, 2)));
    }

    @Override
    public void parse(List<? extends MiniLine> samples, Batch out, ParallelLoop loop) {
        MemorySegment xy = out.tensor(OUTPUT).segment();
        loop.forRanges(samples.size(), MIN_ROWS_PER_THREAD, (start, end) -> {
            for (int i = start; i < end; i++) {
                MiniLine line = samples.get(i);
                String text = line.text();
                int comma = text.indexOf(',');
                if (comma < 0 || text.indexOf(',', comma + 1) >= 0) {
                    throw bad(line, "expected two comma-separated numbers");
                }
                xy.setAtIndex(LAYOUT, 2L * i, number(line, text.substring(0, comma)));
                xy.setAtIndex(LAYOUT, 2L * i + 1, number(line, text.substring(comma + 1)));
            }
        });
    }

    private static double number(MiniLine line, String field) {
        String s = field.strip();
        try {
            // parseDouble also accepts "NaN", "Infinity" and hex floats, as a CSV of numbers may hold.
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw bad(line, "not a number: \"" + s + "\"");
        }
    }

    private static CorruptDataException bad(MiniLine line, String reason) {
        return CorruptDataException.badLine(line.file().toString(), line.line(), line.offset(),
                reason + " in \"" + abbreviate(line.text()) + "\"");
    }

    /** At most 80 characters of {@code text}, control characters and undecodable bytes shown as '?'. */
    private static String abbreviate(String text) {
        String shown = text.length() <= 80 ? text : text.substring(0, 77) + "...";
        return shown.replaceAll("[\\p{Cntrl}\\x{FFFD}]", "?");
    }
}
