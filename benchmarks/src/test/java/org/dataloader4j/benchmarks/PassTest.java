package org.dataloader4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Pass: a pass timed again to a later end keeps everything else it measured. */
class PassTest {
    @Test
    void endingLaterChangesOnlyTheWallTime() {
        Pass pass = new Pass(100_000, 60_000_000, 3_500_000, 5_900_000, 99_000);
        Pass closed = pass.endedAt(68_000_000);
        assertEquals(new Pass(100_000, 68_000_000, 3_500_000, 5_900_000, 99_000), closed);
        assertEquals(pass.allocatedPerRecord(), closed.allocatedPerRecord());
    }
}
