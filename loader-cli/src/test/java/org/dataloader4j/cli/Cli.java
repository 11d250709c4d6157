package org.dataloader4j.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

/** Runs {@code loader} in-process and keeps what it printed. */
final class Cli {
    /** Strict, and with every integer a {@code Long}, as the tests compare them. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .build();

    private Cli() {
    }

    /**
     * One JSON value the command printed, as plain Java values: {@code Map}, {@code List},
     * {@code String}, {@code Long} (every integer), {@code Double} (the nearest double to a
     * number with a fraction or exponent), {@code Boolean}, {@code null}.
     */
    static Object json(String text) {
        try {
            return JSON.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    /**
     * What one run did.
     *
     * @param code the exit code
     * @param out  standard output
     * @param err  standard error
     */
    record Result(int code, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    /** Runs {@code loader args} with an empty environment, not on a terminal. */
    static Result run(String... args) {
        return run(Map.of(), args);
    }

    /** Runs {@code loader args} with {@code env}, not on a terminal. */
    static Result run(Map<String, String> env, String... args) {
        return run(env, false, args);
    }

    /** Runs {@code loader args} as if standard error were a terminal that shows progress bars. */
    static Result onTerminal(String... args) {
        return run(Map.of(), true, args);
    }

    private static Result run(Map<String, String> env, boolean interactive, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Loader.run(new Terminal(new PrintWriter(out, true), new PrintWriter(err, true), env, interactive), args);
        return new Result(code, out.toString(), err.toString());
    }
}
