package org.dataloader4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.testkit.SharedTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class DigitsTest {
    @TempDir
    Path dir;

    @Test
    void theShippedPartsAreTheConversionOfTheSourceCsv() throws IOException {
        Path csv = SharedTestData.file("digits/digits.csv.gz");
        List<Path> converted = Digits.convert(csv, dir.resolve("converted"));
        List<Path> shipped = Digits.copyTo(dir.resolve("shipped"));
        assertEquals(Digits.PARTS, converted.size());
        for (int p = 0; p < Digits.PARTS; p++) {
            assertArrayEquals(Files.readAllBytes(converted.get(p)), Files.readAllBytes(shipped.get(p)),
                    "part " + p + " differs from the conversion of " + csv + ": regenerate it with Digits.main");
        }
    }

    @Test
    @Timeout(60)
    void theShippedPartsHoldEveryImageWithItsDigit() throws IOException {
        List<Path> files = Digits.copyTo(dir);
        int[] perDigit = new int[Digits.CLASSES];
        long records = 0;
        try (DataReader reader = OFRecordReader.builder().files(files).batchSize(100)
                .decoder(OFRecordRawDecoder.of("images", Shape.of(Digits.PIXELS), DataType.FLOAT32))
                .decoder(OFRecordRawDecoder.of("labels", Shape.of(1), DataType.INT64))
                .build()) {
            for (Batch batch : reader) {
                for (float v : batch.tensor("images").toFloatArray()) {
                    assertTrue(v >= 0 && v <= 1 && v * 16 == Math.round(v * 16), "pixel " + v);
                }
                for (long label : batch.tensor("labels").toLongArray()) {
                    perDigit[(int) label]++;
                }
                records += batch.size();
            }
        }
        assertEquals(Digits.RECORDS, records);
        // The images of each digit in the source CSV, 0 to 9.
        assertArrayEquals(new int[] {178, 182, 177, 183, 181, 182, 181, 179, 174, 180}, perDigit);
    }

    @Test
    void aMalformedLineIsNamedWithItsFileAndNumber() throws IOException {
        Path csv = dir.resolve("bad.csv.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(csv))) {
            out.write(("0,".repeat(Digits.PIXELS) + "3\n" + "0,".repeat(Digits.PIXELS) + "x\n").getBytes(StandardCharsets.US_ASCII));
        }
        IOException e = assertThrows(IOException.class, () -> Digits.convert(csv, dir.resolve("out")));
        assertEquals(csv + ":2: expected an integer in 0..9, found 'x'", e.getMessage());
    }
}
