package org.dataloader4j.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class DigitsMlpTest {

    @Test
    @Timeout(300)
    void easyTrainFitLearnsTheDigitsFromTheReader() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            DigitsMlp.main(new String[0]);
        } finally {
            System.setOut(original);
        }

        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(DigitsMlp.EPOCHS + 1, lines.size(), String.join("\n", lines));
        Pattern epoch = Pattern.compile("epoch=(\\d+) loss=(\\d+\\.\\d{4})");
        double first = 0;
        double last = 0;
        for (int e = 0; e < DigitsMlp.EPOCHS; e++) {
            Matcher m = epoch.matcher(lines.get(e));
            assertTrue(m.matches(), lines.get(e));
            assertEquals(e, Integer.parseInt(m.group(1)));
            last = Double.parseDouble(m.group(2));
            first = e == 0 ? last : first;
        }
        assertTrue(last < first / 4, "the loss falls: " + lines);
        Matcher test = Pattern.compile("test accuracy=(\\d\\.\\d{4}) on 359 images").matcher(lines.getLast());
        assertTrue(test.matches(), lines.getLast());
        assertTrue(Double.parseDouble(test.group(1)) >= 0.95, lines.getLast());
    }
}
