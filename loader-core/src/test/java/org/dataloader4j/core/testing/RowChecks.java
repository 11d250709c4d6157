package org.dataloader4j.core.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.core.RecordSlice;

/** Checks that a parser keeps each record to its own row, for the parsers' fuzz tests. */
public final class RowChecks {
    private RowChecks() {
    }

    /**
     * Parses {@code records}, which the parser reads one by one, as one batch twice, into memory
     * poisoned with 0x00 and with 0xFF: both must write the same bytes (no row is left partly
     * unwritten), and every row of every output must hold what its record gives alone (no record
     * writes into another's row, however long its lists).
     */
    public static void eachRowIsItsRecordAlone(Parser<RecordSlice> parser, List<byte[]> records) {
        try (TestBatch zeros = TestBatch.of(parser, records.size()).poison(0x00);
             TestBatch ones = TestBatch.of(parser, records.size()).poison(0xFF)) {
            zeros.parse(parser, ParallelLoop.sequential(), records);
            ones.parse(parser, ParallelLoop.sequential(), records);
            assertEquals(records.size(), zeros.size());
            assertArrayEquals(zeros.written(), ones.written(), "rows are written whole, whatever the memory held");
            for (int row = 0; row < records.size(); row++) {
                try (TestBatch alone = TestBatch.parse(parser, records.get(row))) {
                    for (String name : alone.names()) {
                        assertArrayEquals(alone.rowBytes(name, 0), zeros.rowBytes(name, row), "row " + row + " of " + name);
                    }
                }
            }
        }
    }
}
