package org.dataloader4j.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The Java values and the strictness that {@link ExpectedRecords} relies on when it reads expected files. */
class StrictJsonTest {

    @Test
    void objectsKeepKeyOrderAndNest() {
        Object v = StrictJson.parse(" {\"b\": 1, \"a\": [true, false, null, {}], \"c\": {\"d\": []}} ");
        Map<?, ?> m = assertInstanceOf(Map.class, v);
        assertEquals(List.of("b", "a", "c"), List.copyOf(m.keySet()));
        assertEquals(1L, m.get("b"));
        assertEquals(Arrays.asList(true, false, null, Map.of()), m.get("a"));
        assertEquals(Map.of("d", List.of()), m.get("c"));
    }

    @Test
    void topLevelScalarsAndWhiteSpace() {
        assertEquals("x", StrictJson.parse("\t\r\n \"x\"\n"));
        assertEquals(true, StrictJson.parse("true"));
        assertNull(StrictJson.parse("null"));
        assertEquals(-7L, StrictJson.parse("-7"));
    }

    @Test
    void parsedContainersAreUnmodifiable() {
        Map<?, ?> m = (Map<?, ?>) StrictJson.parse("{\"a\": [1]}");
        assertThrows(UnsupportedOperationException.class, m::clear);
        assertThrows(UnsupportedOperationException.class, () -> ((List<?>) m.get("a")).clear());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"0", "-0", "1", "9007199254740993", "-9007199254740993",
        "9223372036854775807", "-9223372036854775808", "17031080100", "-6519408338692630574"})
    void integersInLongRangeAreExactLongs(String literal) {
        Object v = StrictJson.parse(literal);
        assertInstanceOf(Long.class, v, literal);
        assertEquals(Long.parseLong(literal), v);
        assertEquals(List.of(Long.parseLong(literal)), StrictJson.parse("[" + literal + "]"), "inside an array too");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"9223372036854775808", "-9223372036854775809", "123456789012345678901234567890"})
    void integersBeyondLongRangeAreExactBigIntegers(String literal) {
        assertEquals(new BigInteger(literal), StrictJson.parse(literal));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"0.5", "1e3", "1E-3", "2.5e+2", "0.14150753617286682", "4.199999809265137",
        "1.7976931348623157e308", "4.9e-324", "1e400", "-2.5e999", "0.1000000000000000000000000000001"})
    void numbersWithFractionOrExponentAreExactDecimals(String literal) {
        Object v = StrictJson.parse(literal);
        assertInstanceOf(BigDecimal.class, v, literal);
        assertEquals(0, new BigDecimal(literal).compareTo((BigDecimal) v), literal);
    }

    @Test
    void theExpectedFilesFloatValuesReadAsTheirBits() {
        BigDecimal v = (BigDecimal) StrictJson.parse("0.14150753617286682");
        assertEquals(0x3e10e75a, Float.floatToRawIntBits((float) v.doubleValue()));
    }

    @Test
    void everyEscape() {
        assertEquals("\" \\ / \b \f \n \r \t", StrictJson.parse("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\""));
        assertEquals("A\u00e9\u4e2d", StrictJson.parse("\"\\u0041\\u00E9\\u4e2d\""));
        assertEquals("\u0000", StrictJson.parse("\"\\u0000\""));
        assertEquals("\uD83D\uDE00!", StrictJson.parse("\"\\ud83d\\ude00!\""));
        assertEquals("caf\u00e9 \uD83D\uDE00", StrictJson.parse("\"caf\u00e9 \uD83D\uDE00\""));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "``                  | No content",
        "`{`                 | end-of-input",
        "`{\"a\" 1}`         | was expecting a colon",
        "`{\"a\": 1,}`       | was expecting double-quote to start field name",
        "`[1,]`              | expected a valid value",
        "`[1 2]`             | was expecting comma",
        "`{\"a\": 1 \"b\"}`  | was expecting comma",
        "`{'a': 1}`          | was expecting double-quote to start field name",
        "`[01]`              | Leading zeroes not allowed",
        "`-`                 | No digit following sign",
        "`1.`                | Decimal point not followed by a digit",
        "`1e`                | expected a digit for number exponent",
        "`.5`                | expected a valid value",
        "`+1`                | plus sign",
        "`NaN`               | Non-standard token 'NaN'",
        "`tru`               | Unrecognized token 'tru'",
        "`nul`               | Unrecognized token 'nul'",
        "`\"abc`             | was expecting closing quote",
        "`\"\\x\"`           | Unrecognized character escape 'x'",
        "`\"\\u12\"`         | expected a hex-digit",
        "`\"\\u12g4\"`       | expected a hex-digit",
        "`{\"a\": 1, \"a\": 2}` | Duplicate field 'a'",
        "`1 2`               | Trailing token",
        "`/* c */ 1`         | comment",
        "`\"a\tb\"`          | Illegal unquoted character",
    })
    void badInputNamesWhatAndWhere(String input, String what) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StrictJson.parse(input));
        assertTrue(e.getMessage().contains(what), () -> "message: " + e.getMessage());
        assertTrue(e.getMessage().matches("(?s).* at line 1, column \\d+"), e::getMessage);
    }

    @Test
    void linesAndColumnsCountFromOne() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StrictJson.parse("[1]\n\n  x"));
        assertTrue(e.getMessage().endsWith(" at line 3, column 3"), e::getMessage);
    }

    @Test
    void nestingBeyondTheLimitIsAnErrorNotAStackOverflow() {
        String ok = "[".repeat(500) + "]".repeat(500);
        assertInstanceOf(List.class, StrictJson.parse(ok));
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StrictJson.parse(deep));
        assertTrue(e.getMessage().contains("nesting depth"), e::getMessage);
    }

    @Test
    void filesAreStrictUtf8(@TempDir Path dir) throws IOException {
        Path good = dir.resolve("good.json");
        Files.write(good, "{\"k\": \"caf\u00e9\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals(Map.of("k", "caf\u00e9"), StrictJson.parse(good));

        Path latin1 = dir.resolve("latin1.json");
        Files.write(latin1, "{\"k\": \"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1));
        IOException e = assertThrows(IOException.class, () -> StrictJson.parse(latin1));
        assertTrue(e.getMessage().startsWith(latin1 + ": Invalid UTF-8"), e::getMessage);

        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"k\": }");
        IOException b = assertThrows(IOException.class, () -> StrictJson.parse(broken));
        assertTrue(b.getMessage().startsWith(broken.toString()), b::getMessage);
        assertTrue(b.getMessage().endsWith(" at line 1, column 7"), b::getMessage);
    }
}
