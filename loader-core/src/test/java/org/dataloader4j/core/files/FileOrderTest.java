package org.dataloader4j.core.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FileOrderTest {
    private static final List<Integer> FILES = IntStream.range(0, 20).boxed().toList();

    @Test
    void theFirstEpochReadsTheFilesAsGivenAndLaterOnesAreShuffledBySeedAndEpoch() {
        assertEquals(FILES, FileOrder.forEpoch(FILES, true, 7, 0));
        assertEquals(FILES, FileOrder.forEpoch(FILES, false, 7, 3));
        List<Integer> e1 = FileOrder.forEpoch(FILES, true, 7, 1);
        List<Integer> e2 = FileOrder.forEpoch(FILES, true, 7, 2);
        assertEquals(FILES, e1.stream().sorted().toList());
        assertNotEquals(FILES, e1);
        assertNotEquals(e1, e2);
        assertEquals(e1, FileOrder.forEpoch(FILES, true, 7, 1), "an epoch's order depends only on seed and epoch");
        assertEquals(FileOrder.forEpoch(FILES, true, 8, 1), FileOrder.forEpoch(FILES, true, 7, 2), "seed + epoch");
    }

    @ParameterizedTest(name = "{0} files over {1} ranks")
    @CsvSource({"20,1", "20,3", "20,20", "7,4", "5,5"})
    void shardsAreContiguousBalancedAndCoverEveryFileOnce(int files, int worldSize) {
        List<Integer> all = FILES.subList(0, files);
        List<Integer> seen = new ArrayList<>();
        for (int rank = 0; rank < worldSize; rank++) {
            List<Integer> shard = FileOrder.shard(all, rank, worldSize);
            assertEquals(files / worldSize + (rank < files % worldSize ? 1 : 0), shard.size(), "rank " + rank);
            seen.addAll(shard);
        }
        assertEquals(all, seen);
    }

    @Test
    void fewerFilesThanRanksIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FileOrder.shard(FILES.subList(0, 2), 0, 4));
        assertTrue(e.getMessage().contains("2 files for worldSize=4"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FileOrder.shard(FILES, 4, 4));
        assertThrows(IllegalArgumentException.class, () -> FileOrder.shard(FILES, -1, 4));
    }
}
