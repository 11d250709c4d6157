package org.dataloader4j.tfrecord;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.dataloader4j.core.testing.FramingChecks;
import org.dataloader4j.format.Framing;

/**
 * Fuzzes the readers of TFRecord framing with a file of arbitrary bytes, with and without the CRC
 * checks (without them, damaged lengths get past the length CRC that guards them): the mapped
 * path of {@link TFRecordDataset} and the index scan ({@link TFRecordFrames}) against
 * {@code RecordReader}'s stream, plain and compressed, and the bytes as a damaged gzip or zlib
 * stream ({@link FramingChecks}). Only the typed exceptions may escape, and no bogus length makes
 * a reader run out of memory. Regression inputs are in {@code TFRecordFramingFuzzTestInputs};
 * see docs/fuzzing.md.
 */
class TFRecordFramingFuzzTest {

    @FuzzTest(maxDuration = "10m")
    void readFrames(byte[] file) {
        FramingChecks.check(file, TFRecordFrames.CHECKED, Framing.TFRECORD, true);
        FramingChecks.check(file, TFRecordFrames.UNCHECKED, Framing.TFRECORD, false);
    }
}
