package org.dataloader4j.testkit;

import java.util.List;
import java.util.Map;

/**
 * Typed reads from a {@link StrictJson} tree. Each takes the value and its path in the file
 * ({@code records[3].features.images.bits}) so that a malformed expected file fails with the
 * place to look.
 */
final class JsonFields {
    private JsonFields() {
    }

    /** The object at {@code path}. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value, String path) {
        if (!(value instanceof Map)) {
            throw wrongType(value, path, "an object");
        }
        return (Map<String, Object>) value;
    }

    /** The array at {@code path}. */
    @SuppressWarnings("unchecked")
    static List<Object> list(Object value, String path) {
        if (!(value instanceof List)) {
            throw wrongType(value, path, "an array");
        }
        return (List<Object>) value;
    }

    /** The string at {@code path}. */
    static String string(Object value, String path) {
        if (!(value instanceof String)) {
            throw wrongType(value, path, "a string");
        }
        return (String) value;
    }

    /** The integer at {@code path}, which must fit a long. */
    static long longValue(Object value, String path) {
        if (!(value instanceof Long)) {
            throw wrongType(value, path, "an integer in the range of a long");
        }
        return (Long) value;
    }

    /** The member {@code key} of {@code object} at {@code path}, which must be present. */
    static Object member(Map<String, Object> object, String key, String path) {
        if (!object.containsKey(key)) {
            throw new IllegalArgumentException(path + ": no member \"" + key + "\"; members: " + object.keySet());
        }
        return object.get(key);
    }

    private static IllegalArgumentException wrongType(Object value, String path, String expected) {
        String actual = value == null ? "null" : value.getClass().getSimpleName() + " " + abbreviate(value);
        return new IllegalArgumentException(path + ": expected " + expected + ", found " + actual);
    }

    private static String abbreviate(Object value) {
        String s = String.valueOf(value);
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
