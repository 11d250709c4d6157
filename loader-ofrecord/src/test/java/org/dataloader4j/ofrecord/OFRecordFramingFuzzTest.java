package org.dataloader4j.ofrecord;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.dataloader4j.core.testing.FramingChecks;
import org.dataloader4j.format.Framing;

/**
 * Fuzzes the readers of OFRecord framing with a file of arbitrary bytes: the mapped path of
 * {@link OFRecordDataset} and the index scan ({@link OFRecordFrames}) against
 * {@code RecordReader}'s stream, plain and compressed, and the bytes as a damaged gzip or zlib
 * stream ({@link FramingChecks}). Only the typed exceptions may escape, and no bogus length makes
 * a reader run out of memory. Regression inputs are in {@code OFRecordFramingFuzzTestInputs}; see
 * docs/fuzzing.md.
 */
class OFRecordFramingFuzzTest {

    @FuzzTest(maxDuration = "10m")
    void readFrames(byte[] file) {
        FramingChecks.check(file, OFRecordFrames.INSTANCE, Framing.OFRECORD, true);
    }
}
