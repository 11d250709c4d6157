package org.dataloader4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SoftmaxRegressionTest {

    @Test
    @Timeout(120)
    void learnsTheDigitsAndClassifiesTheHeldOutFifth(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            SoftmaxRegression.main(new String[] {dir.toString()});
        } finally {
            System.setOut(original);
        }

        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(SoftmaxRegression.EPOCHS + 1, lines.size(), String.join("\n", lines));
        Pattern line = Pattern.compile("epoch=(\\d+) loss=(\\d+\\.\\d{4}) accuracy=(\\d\\.\\d{4})");
        double firstLoss = 0;
        double lastLoss = 0;
        for (int e = 0; e < SoftmaxRegression.EPOCHS; e++) {
            Matcher m = line.matcher(lines.get(e));
            assertTrue(m.matches(), lines.get(e));
            assertEquals(e, Integer.parseInt(m.group(1)));
            lastLoss = Double.parseDouble(m.group(2));
            firstLoss = e == 0 ? lastLoss : firstLoss;
        }
        assertTrue(lastLoss < firstLoss, "loss falls: " + lines);
        Matcher test = Pattern.compile("test accuracy=(\\d\\.\\d{4}) on 359 images").matcher(lines.getLast());
        assertTrue(test.matches(), lines.getLast());
        assertTrue(Double.parseDouble(test.group(1)) >= 0.95, lines.getLast());
        for (int p = 0; p < Digits.PARTS; p++) {
            assertTrue(Files.isRegularFile(dir.resolve(String.format("part-%05d", p))), "part " + p);
        }
    }
}
