package org.dataloader4j.api;

import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the one JSON shape {@link DatasetState#toJson()} writes; nothing more general. */
final class StateJson {
    private final String text;
    private int pos;

    StateJson(String text) {
        this.text = text;
    }

    DatasetState state() {
        expect('{');
        key("kind");
        String kind = string();
        expect(',');
        key("fields");
        expect('{');
        Map<String, Long> fields = new LinkedHashMap<>();
        if (peek() != '}') {
            do {
                String name = string();
                expect(':');
                fields.put(name, number());
            } while (accept(','));
        }
        expect('}');
        expect(',');
        Map<String, long[]> lists = new LinkedHashMap<>();
        String next = string();
        if (next.equals("lists")) {
            expect(':');
            expect('{');
            if (peek() != '}') {
                do {
                    String name = string();
                    expect(':');
                    lists.put(name, array());
                } while (accept(','));
            }
            expect('}');
            expect(',');
            next = string();
        }
        if (!next.equals("upstream")) {
            throw error("expected \"upstream\"");
        }
        expect(':');
        DatasetState upstream = null;
        if (text.startsWith("null", skip())) {
            pos += 4;
        } else {
            upstream = state();
        }
        expect('}');
        return DatasetState.read(kind, fields, lists, upstream);
    }

    void end() {
        if (skip() != text.length()) {
            throw error("text after the state");
        }
    }

    private void key(String name) {
        if (!string().equals(name)) {
            throw error("expected \"" + name + "\"");
        }
        expect(':');
    }

    private long[] array() {
        expect('[');
        java.util.stream.LongStream.Builder values = java.util.stream.LongStream.builder();
        if (peek() != ']') {
            do {
                values.add(number());
            } while (accept(','));
        }
        expect(']');
        return values.build().toArray();
    }

    private String string() {
        expect('"');
        int close = text.indexOf('"', pos);
        if (close < 0) {
            throw error("unterminated string");
        }
        String s = text.substring(pos, close);
        if (s.indexOf('\\') >= 0) {
            throw error("escapes never occur in a state");
        }
        pos = close + 1;
        return s;
    }

    private long number() {
        int start = skip();
        int end = start;
        if (end < text.length() && text.charAt(end) == '-') {
            end++;
        }
        while (end < text.length() && Character.isDigit(text.charAt(end))) {
            end++;
        }
        try {
            long v = Long.parseLong(text.substring(start, end));
            pos = end;
            return v;
        } catch (NumberFormatException e) {
            throw error("expected an integer");
        }
    }

    private char peek() {
        int at = skip();
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private boolean accept(char c) {
        if (peek() == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!accept(c)) {
            throw error("expected '" + c + "'");
        }
    }

    /** Skips white space and returns the position. */
    private int skip() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
        return pos;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("not a dataset state: " + what + " at character " + pos + " of " + text);
    }
}
