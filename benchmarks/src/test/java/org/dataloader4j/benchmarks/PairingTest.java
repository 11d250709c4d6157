package org.dataloader4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairingTest {
    @Test
    void eachRoundRunsEverySystemOnceAndEachSystemLeadsInTurn() throws Exception {
        List<Integer> two = new ArrayList<>();
        Pairing.rounds(0, 4, 2, two::add);
        assertEquals(List.of(0, 1, 1, 0, 0, 1, 1, 0), two);
        List<Integer> three = new ArrayList<>();
        Pairing.rounds(0, 3, 3, three::add);
        assertEquals(List.of(0, 1, 2, 1, 2, 0, 2, 0, 1), three);
        // The timed rounds go on from the warm-up's, so the turn does not start again at 0.
        List<Integer> timed = new ArrayList<>();
        Pairing.rounds(3, 5, 2, timed::add);
        assertEquals(List.of(1, 0, 0, 1), timed);
    }

    @Test
    void reportsTheFirstSystemAgainstEachOtherRoundByRound() {
        // Seconds per record: round 0 a=1, b=5, c=2; round 1 a=2, b=6, c=1; round 2 a=1, b=4, c=0.5.
        double[][] seconds = {{1, 2, 1}, {5, 6, 4}, {2, 1, 0.5}};
        List<String> lines = Pairing.report("bert-ofrecord", 2, List.of("dataloader4j", "protobuf-java", "mmap-copy"), seconds);
        // a over b: 5, 3, 4; a over c: 2, 0.5, 0.5.
        assertEquals(List.of(
                "PAIRED bert-ofrecord threads=2 a=dataloader4j b=protobuf-java rounds=3 a_over_b=4.000"
                        + " a_over_b_quartiles=3.500,4.500 a_faster=3/3",
                "PAIRED bert-ofrecord threads=2 a=dataloader4j b=mmap-copy rounds=3 a_over_b=0.500"
                        + " a_over_b_quartiles=0.500,1.250 a_faster=1/3"), lines);
        // Nothing to set against: one system left, or none (every one unavailable here).
        assertTrue(Pairing.report("bert-ofrecord", 1, List.of("dataloader4j"), new double[][] {{1}}).isEmpty());
        assertTrue(Pairing.report("mnist-tfrecord", 1, List.of(), new double[0][]).isEmpty());
    }

    @Test
    void theOptionGoesToAForkedRunAndTakesOnlyABoolean() {
        CompareOptions options = CompareOptions.parse("--paired", "true");
        assertTrue(CompareOptions.parse(options.forOne("dataloader4j,protobuf-java", CompareDataset.BERT_OFRECORD)
                .toArray(String[]::new)).paired());
        assertEquals(false, CompareOptions.parse().paired());
        assertThrows(IllegalArgumentException.class, () -> CompareOptions.parse("--paired", "yes"));
    }
}
