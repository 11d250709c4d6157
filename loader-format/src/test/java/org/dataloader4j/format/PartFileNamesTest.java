package org.dataloader4j.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OneFlow's part names, and the listing rule every storage shares. */
class PartFileNamesTest {

    @Test
    void namesPartsAsOneFlowDoes() {
        assertEquals("part-00003", PartFileNames.partName("part-", 5, 3));
        assertEquals("part-123456", PartFileNames.partName("part-", 5, 123456));
        assertEquals("part-7", PartFileNames.partName("part-", PartFileNames.NO_PADDING, 7));
        assertThrows(IllegalArgumentException.class, () -> PartFileNames.partName("part-", 5, -1));
        assertThrows(IllegalArgumentException.class, () -> PartFileNames.partName("part-", -2, 1));
    }

    @Test
    void listingLeavesOutMarkersChecksumsAndHiddenFiles() {
        for (String data : List.of("part-00000", "part-3", "train.tfrecord.gz", "x")) {
            assertTrue(PartFileNames.isDataFile(data), data);
        }
        for (String other : List.of("_SUCCESS", "_temporary", ".part-00000.crc", "part-00000.crc", ".hidden", "")) {
            assertFalse(PartFileNames.isDataFile(other), other);
        }
    }

    @Test
    void readsThePartIndexBackFromItsName() {
        assertEquals(12, PartFileNames.partIndex("part-00012", "part-"));
        assertEquals(0, PartFileNames.partIndex("part-0", "part-"));
        assertEquals(-1, PartFileNames.partIndex("part-", "part-"));
        assertEquals(-1, PartFileNames.partIndex("part-00012.gz", "part-"));
        assertEquals(-1, PartFileNames.partIndex("data-00012", "part-"));
        assertEquals(-1, PartFileNames.partIndex("part-99999999999999999999", "part-"));
    }

    @Test
    void listsUnpaddedPartsInNumberOrder() {
        List<String> names = new ArrayList<>(List.of("part-10", "b", "part-2", "a-1", "part-00001", "a"));
        names.sort(PartFileNames.LISTING_ORDER);
        assertEquals(List.of("a-1", "part-00001", "part-2", "part-10", "a", "b"), names);
    }
}
