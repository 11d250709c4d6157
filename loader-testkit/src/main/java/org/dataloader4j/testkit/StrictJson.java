package org.dataloader4j.testkit;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON read through Jackson into plain Java values, strictly and with exact numbers: the form in
 * which the expected values of the real test data are read ({@link ExpectedRecords}).
 *
 * <p>Values map to Java as follows:
 * <ul>
 *   <li>object: an unmodifiable {@code Map<String, Object>} that keeps the keys in file order;</li>
 *   <li>array: an unmodifiable {@code List<Object>};</li>
 *   <li>string: {@code String};</li>
 *   <li>a number without fraction or exponent: {@code Long}, or {@code BigInteger} beyond the
 *       range of a long, so integers beyond 2<sup>53</sup> stay exact;</li>
 *   <li>a number with a fraction or an exponent: {@code BigDecimal}, the decimal exactly as
 *       written (a negative zero reads as zero: the expected files give float and double values
 *       exactly as bit patterns, in {@code bits});</li>
 *   <li>{@code true}, {@code false}: {@code Boolean}; {@code null}: {@code null}.</li>
 * </ul>
 *
 * <p>Strict means what Jackson enforces by default (no comments, trailing commas, single quotes,
 * leading zeros, {@code NaN} or unescaped control characters; valid UTF-8 in files), plus: a
 * duplicate key is an error, and so is anything but white space after the value. An error names
 * the line and column, and the file where there is one.
 */
public final class StrictJson {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    private StrictJson() {
    }

    /**
     * Parses {@code text}, which holds exactly one JSON value.
     *
     * @throws IllegalArgumentException naming the line and column, if {@code text} is not strict JSON
     */
    public static Object parse(String text) {
        try {
            return plain(MAPPER.readValue(text, Object.class));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(describe(e), e);
        }
    }

    /**
     * Parses the UTF-8 file {@code file}, which holds exactly one JSON value.
     *
     * @throws IOException naming the file, line and column, if it cannot be read or is not strict JSON
     */
    public static Object parse(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        try {
            return plain(MAPPER.readValue(bytes, Object.class));
        } catch (JsonProcessingException e) {
            throw new IOException(file + ": " + describe(e), e);
        }
    }

    private static String describe(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        return e.getOriginalMessage() + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr());
    }

    /**
     * The value Jackson read, with containers made unmodifiable and integers widened to
     * {@code Long} (Jackson reads small ones as {@code Integer}). Recursion is bounded by
     * Jackson's nesting limit ({@code StreamReadConstraints}, 1000 levels), which it enforces
     * while reading.
     */
    private static Object plain(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put((String) k, plain(v)));
            return Collections.unmodifiableMap(out);
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(plain(v)));
            return Collections.unmodifiableList(out);
        }
        if (value instanceof Integer i) {
            return i.longValue();
        }
        return value;
    }
}
