package org.dataloader4j.core.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** The one switch of the fast paths. */
class DecodeModeTest {

    @Test
    void theSettingIsTrueOrFalseAndAnythingElseIsThePlainPath() {
        assertEquals(DecodeMode.FAST, DecodeMode.of("true"));
        assertEquals(DecodeMode.FAST, DecodeMode.of(" TRUE "));
        assertEquals(DecodeMode.PLAIN, DecodeMode.of("false"));
        assertEquals(DecodeMode.PLAIN, DecodeMode.of("sometimes"), "a typo is logged, and costs only speed");
    }

    @Test
    void thisJvmsModeIsTheFastPathWhichTheTestsRunUnderAndVectorVarintsAreReportedOnlyOnIt() {
        // The build sets no dataloader4j.fastpaths: the parsers the other tests build run the fast paths.
        assertEquals(DecodeMode.FAST, DecodeMode.configured());
        assertEquals(new ValueCopier(DecodeMode.FAST).usesVectors(), ValueCopier.vectorVarints());
        assertFalse(new ValueCopier(DecodeMode.PLAIN).usesVectors(), "the plain path decodes varints without SIMD");
    }
}
