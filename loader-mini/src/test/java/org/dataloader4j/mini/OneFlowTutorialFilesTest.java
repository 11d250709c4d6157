package org.dataloader4j.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dataloader4j.api.Batch;
import org.dataloader4j.core.reader.DataReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reads the mini files of OneFlow's own tutorial ({@code mini_csv_not_ofrecord/part-000} and
 * {@code part-001} from oneflow-documentation, kept under {@code shared/testdata/real}) and
 * compares every row with the text of its line, parsed here independently. Skipped where the
 * shared test data is not checked out.
 */
class OneFlowTutorialFilesTest {
    private static final String DATA = "shared/testdata/real/oneflow-documentation/mini_csv_not_ofrecord";

    @Test
    @Timeout(10)
    void everyRowEqualsTheNumbersOfItsLine() throws IOException {
        Path dataDir = findData();
        assumeTrue(dataDir != null, DATA + " not found above " + Path.of("").toAbsolutePath());
        List<double[]> expected = new ArrayList<>();
        for (String part : List.of("part-000", "part-001")) {
            for (String line : Files.readAllLines(dataDir.resolve(part))) {
                if (!line.isBlank()) {
                    String[] fields = line.split(",");
                    expected.add(new double[] {Double.parseDouble(fields[0]), Double.parseDouble(fields[1])});
                }
            }
        }

        List<double[]> rows = new ArrayList<>();
        try (DataReader reader = MiniReader.builder().dataDir(dataDir).dataPartNum(2).partNameSuffixLength(3)
                .batchSize(4).reader(o -> o.parseThreads(2)).build()) {
            for (Batch batch : reader) {
                double[] x = batch.tensor("x").toDoubleArray();
                double[] y = batch.tensor("y").toDoubleArray();
                for (int i = 0; i < batch.size(); i++) {
                    rows.add(new double[] {x[i], y[i]});
                }
            }
        }

        assertEquals(expected.size(), rows.size(), "one sample per non-empty line");
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(expected.get(i)[0], rows.get(i)[0], "x of sample " + i);
            assertEquals(expected.get(i)[1], rows.get(i)[1], "y of sample " + i);
        }
        assertEquals(1.01, rows.getFirst()[0], "the files' known first line is 1.01,2.02");
        assertEquals(2.02, rows.getFirst()[1], "the files' known first line is 1.01,2.02");
    }

    /** The tutorial folder in the nearest {@code shared} folder at or above the working directory, or null. */
    private static Path findData() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve(DATA);
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
