package org.dataloader4j.core.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.function.Consumer;
import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.api.ParallelLoop;
import org.dataloader4j.api.Parser;
import org.dataloader4j.core.batch.BatchBuffer;
import org.dataloader4j.core.dataset.RecordSlice;

/** Checks of a record parser on arbitrary records, for the parsers' differential and fuzz tests. */
public final class ParserChecks {
    private ParserChecks() {
    }

    /**
     * Parses the record {@code bytes} alone and holds the verdict up against the oracle's: only a
     * {@link CorruptDataException} may escape. If the parser reads the record and protobuf-java
     * parses it too ({@code oracleParses}), the record must fit every output ({@code fits}) and
     * {@code checkRow} compares the row with the oracle's; where protobuf-java rejects a record,
     * the parser may still read it, as it checks only what it decodes. A record the parser
     * rejects must not fit, or must hold a wire type the parser does not support or a length of
     * 2^31 or more. Returns whether the parser read it.
     */
    public static boolean agreesWithOracle(Parser<RecordSlice> parser, byte[] bytes, boolean oracleParses, boolean fits,
                                           Consumer<BatchBuffer> checkRow) {
        try (BatchBuffer batch = BatchBuffer.of(parser, 1)) {
            TestRecords.parse(batch, parser, ParallelLoop.sequential(), List.of(bytes));
            if (oracleParses) {
                assertTrue(fits, "parsed a record the oracle rejects");
                checkRow.accept(batch);
            }
            return true;
        } catch (CorruptDataException e) {
            // protobuf-java skips groups, and reads only the low 32 bits of a length: a length of
            // 2^32 is 0 to it, while protobuf's C++ parser and these parsers refuse it.
            if (fits && !e.reason().startsWith("unsupported wire type") && !e.reason().startsWith("invalid length")) {
                fail("protobuf-java reads the record and it fits, but: " + e.getMessage(), e);
            }
            return false;
        } catch (RuntimeException e) {
            throw new AssertionError("not a CorruptDataException", e);
        }
    }

    /**
     * Parses {@code records} as one batch over {@code loop} with each of two parsers of the same
     * outputs (one parser's plain path and its fast path), into memory poisoned alike: both must
     * write the same bytes everywhere, or both must fail with the same {@link CorruptDataException}
     * text. Returns whether they read the batch.
     */
    public static boolean samePathBytesOrErrors(Parser<RecordSlice> plain, Parser<RecordSlice> fast, List<byte[]> records,
                                                ParallelLoop loop, String where) {
        try (BatchBuffer p = BatchBuffer.of(plain, records.size()).fill(0xA5);
             BatchBuffer f = BatchBuffer.of(fast, records.size()).fill(0xA5)) {
            String plainError = parseOrError(p, plain, loop, records);
            String fastError = parseOrError(f, fast, loop, records);
            assertEquals(plainError, fastError, "the plain path's error, then the fast path's: " + where);
            if (plainError == null) {
                assertArrayEquals(BatchBytes.memory(p), BatchBytes.memory(f), "the batch's memory: " + where);
            }
            return plainError == null;
        }
    }

    /**
     * {@link #samePathBytesOrErrors} for each of {@code batches} on each of {@code loops}; returns
     * how many of those parses failed (alike).
     */
    public static int samePathBytesOrErrors(Parser<RecordSlice> plain, Parser<RecordSlice> fast, List<List<byte[]>> batches,
                                            List<ParallelLoop> loops, String where) {
        int failed = 0;
        for (int b = 0; b < batches.size(); b++) {
            for (ParallelLoop loop : loops) {
                String at = where + ", batch " + b + " on " + loop.parallelism() + " threads";
                failed += samePathBytesOrErrors(plain, fast, batches.get(b), loop, at) ? 0 : 1;
            }
        }
        return failed;
    }

    /** Parses {@code records} into {@code batch}; returns null, or the text of the error it threw. */
    private static String parseOrError(BatchBuffer batch, Parser<RecordSlice> parser, ParallelLoop loop, List<byte[]> records) {
        try {
            TestRecords.parse(batch, parser, loop, records);
            return null;
        } catch (CorruptDataException e) {
            return e.getMessage();
        }
    }

    /**
     * Parses {@code records}, which the parser reads one by one, as one batch twice, into memory
     * poisoned with 0x00 and with 0xFF: both must write the same bytes (no row is left partly
     * unwritten), and every row of every output must hold what its record gives alone (no record
     * writes into another's row, however long its lists).
     */
    public static void eachRowIsItsRecordAlone(Parser<RecordSlice> parser, List<byte[]> records) {
        try (BatchBuffer zeros = BatchBuffer.of(parser, records.size()).fill(0x00);
             BatchBuffer ones = BatchBuffer.of(parser, records.size()).fill(0xFF)) {
            TestRecords.parse(zeros, parser, ParallelLoop.sequential(), records);
            TestRecords.parse(ones, parser, ParallelLoop.sequential(), records);
            assertEquals(records.size(), zeros.size());
            assertArrayEquals(BatchBytes.written(zeros), BatchBytes.written(ones), "rows are written whole, whatever the memory held");
            for (int row = 0; row < records.size(); row++) {
                try (BatchBuffer alone = TestRecords.parse(parser, records.get(row))) {
                    for (String name : alone.names()) {
                        assertArrayEquals(BatchBytes.rowBytes(alone, name, 0), BatchBytes.rowBytes(zeros, name, row), "row " + row + " of " + name);
                    }
                }
            }
        }
    }
}
