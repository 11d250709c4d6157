package org.dataloader4j.core.decode.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How this JVM decides whether the fast path decodes packed varints with the Vector API. */
class SimdSupportTest {

    @Test
    void theCheckRunBeforeChoosingTheDecoderPasses() {
        assertTrue(SimdVarints.selfCheck());
    }

    @Test
    void theDecisionIsTheProcessorsAndTheJvmsAndIsTakenOnce() {
        // The tests run with the module (the build's argLine), so only the processor and the
        // vector width decide; the decision, made as the class loaded, is the same on asking again.
        assertEquals(SimdVarints.preferredWidthFits() && SimdSupport.cpuFlag("avx512_vbmi2"), SimdSupport.decide());
        assertEquals(SimdSupport.decide(), SimdSupport.VARINTS);
        assertFalse(SimdSupport.cpuFlag("no_such_flag"));
    }
}
