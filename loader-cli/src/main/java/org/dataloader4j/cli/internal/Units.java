package org.dataloader4j.cli.internal;

import java.util.Locale;

/** Numbers as {@code loader} prints them: seconds, rates and sizes, in one locale. */
public final class Units {
    private Units() {
    }

    /** {@code nanos} as seconds: {@code 1.234 s}. */
    public static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
    }

    /** {@code count} per {@code nanos}, grouped: {@code 12,345 records/s}. */
    public static String perSecond(long count, long nanos, String what) {
        return String.format(Locale.ROOT, "%,.0f %s/s", nanos > 0 ? count * 1e9 / nanos : 0.0, what);
    }

    /** {@code bytes} per {@code nanos} in megabytes (10^6 bytes): {@code 123.4 MB/s}. */
    public static String megabytesPerSecond(long bytes, long nanos) {
        return String.format(Locale.ROOT, "%.1f MB/s", nanos > 0 ? bytes * 1e3 / nanos : 0.0);
    }

    /** {@code bytes} in megabytes: {@code 12.3 MB}. */
    public static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    /** {@code part} of {@code whole} as a percentage: {@code 3.2%}. */
    public static String percent(long part, long whole) {
        return String.format(Locale.ROOT, "%.1f%%", whole > 0 ? 100.0 * part / whole : 0.0);
    }
}
