package org.dataloader4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Pass: a pass timed again to a later end keeps everything else it measured, its stages too. */
class PassTest {
    @Test
    void endingLaterChangesOnlyTheWallTime() {
        Stages stages = new Stages(1_100_000, 8_800_000, 49_000_000, 32_000_000, 27_000_000);
        Pass pass = new Pass(100_000, 60_000_000, 3_500_000, 5_900_000, 99_000).withStages(stages);
        Pass closed = pass.endedAt(68_000_000);
        assertEquals(new Pass(100_000, 68_000_000, 3_500_000, 5_900_000, 99_000, stages), closed);
        assertEquals(pass.allocatedPerRecord(), closed.allocatedPerRecord());
    }
}
