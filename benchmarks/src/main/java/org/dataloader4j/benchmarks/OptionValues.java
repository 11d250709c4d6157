package org.dataloader4j.benchmarks;

import java.util.Arrays;
import java.util.List;

/** The checks and parsing that {@link CompareOptions} and {@link ImageCompareOptions} share. */
final class OptionValues {
    private OptionValues() {
    }

    /** @throws IllegalArgumentException naming option {@code --name} if {@code value} is below 1 */
    static void positive(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException("--" + name + " must be > 0: " + name + "=" + value);
        }
    }

    /** @throws IllegalArgumentException for a system of {@code systems} not in {@code all} */
    static void known(List<String> systems, List<String> all) {
        for (String s : systems) {
            if (!all.contains(s)) {
                throw new IllegalArgumentException("no system " + s + ": systems are " + all);
            }
        }
    }

    /** {@code "true"} or {@code "false"}, the value of option {@code name}. */
    static boolean bool(String name, String value) {
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false: " + value);
        };
    }

    /** The comma-separated items of {@code value}, trimmed, blanks left out. */
    static List<String> list(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
