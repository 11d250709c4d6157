package org.dataloader4j.format;

import java.util.Comparator;
import java.util.Objects;

/**
 * OneFlow's part file names and listing rules, for any storage: a part is named
 * {@code <prefix><index>}, the index zero-padded to a suffix length ({@code part-00003}); a
 * directory listing keeps the data files and leaves out what job frameworks write beside them
 * (a {@code _SUCCESS} marker, {@code _temporary} folders, {@code .crc} checksum files, hidden
 * files). Stateless.
 */
public final class PartFileNames {
    /** A suffix length meaning "no zero padding". */
    public static final int NO_PADDING = -1;

    /**
     * Data files in listing order: names that end in a number ({@code part-2}, {@code part-00010})
     * by their stem, then by that number, so unpadded parts list as {@code part-2, part-10}; other
     * names after them, by name.
     */
    public static final Comparator<String> LISTING_ORDER = PartFileNames::compare;

    private PartFileNames() {
    }

    /**
     * The name of part {@code index}: {@code prefix} and the index, zero-padded to
     * {@code suffixLength} digits ({@link #NO_PADDING} for none). With prefix {@code "part-"} and
     * suffix length 5, part 3 is {@code part-00003}.
     *
     * @throws IllegalArgumentException if {@code index} is negative or {@code suffixLength} is below -1
     */
    public static String partName(String prefix, int suffixLength, long index) {
        Objects.requireNonNull(prefix, "prefix");
        if (index < 0) {
            throw new IllegalArgumentException("index must be >= 0: index=" + index);
        }
        if (suffixLength < NO_PADDING) {
            throw new IllegalArgumentException("suffixLength must be >= -1: suffixLength=" + suffixLength);
        }
        String num = Long.toString(index);
        return prefix + "0".repeat(Math.max(suffixLength - num.length(), 0)) + num;
    }

    /**
     * Whether a file called {@code name} (no folder) is data, as Hadoop's and Spark's listings
     * judge it: not hidden ({@code .name}, as Hadoop's {@code .part-00000.crc} checksums are),
     * not a job's bookkeeping ({@code _SUCCESS}, {@code _temporary}, any {@code _name}), not a
     * checksum ({@code name.crc}) and not a record-index sidecar ({@code name.d4jidx}).
     */
    public static boolean isDataFile(String name) {
        return !name.isEmpty() && !name.startsWith(".") && !name.startsWith("_") && !name.endsWith(".crc")
                && !name.endsWith(".d4jidx");
    }

    /**
     * The index of the part called {@code name}: the decimal number that follows {@code prefix}
     * and ends the name ({@code part-00012} → 12), or -1 if the name is not {@code prefix}
     * followed by digits only, or the number exceeds {@link Long#MAX_VALUE}.
     */
    public static long partIndex(String name, String prefix) {
        if (!name.startsWith(prefix) || name.length() == prefix.length()) {
            return -1;
        }
        long index = 0;
        for (int i = prefix.length(); i < name.length(); i++) {
            int digit = name.charAt(i) - '0';
            if (digit < 0 || digit > 9 || index > (Long.MAX_VALUE - digit) / 10) {
                return -1;
            }
            index = index * 10 + digit;
        }
        return index;
    }

    private static int compare(String a, String b) {
        int stemA = stemLength(a);
        int stemB = stemLength(b);
        boolean numberedA = stemA < a.length();
        boolean numberedB = stemB < b.length();
        if (numberedA != numberedB) {
            return numberedA ? -1 : 1;
        }
        if (!numberedA) {
            return a.compareTo(b);
        }
        int byStem = a.substring(0, stemA).compareTo(b.substring(0, stemB));
        if (byStem != 0) {
            return byStem;
        }
        int byNumber = compareDigits(a.substring(stemA), b.substring(stemB));
        return byNumber != 0 ? byNumber : a.compareTo(b);
    }

    /** The length of {@code name} without its trailing digits. */
    private static int stemLength(String name) {
        int i = name.length();
        while (i > 0 && name.charAt(i - 1) >= '0' && name.charAt(i - 1) <= '9') {
            i--;
        }
        return i;
    }

    /** Compares two strings of ASCII digits as numbers of any length. */
    private static int compareDigits(String a, String b) {
        String x = stripZeros(a);
        String y = stripZeros(b);
        return x.length() != y.length() ? Integer.compare(x.length(), y.length()) : x.compareTo(y);
    }

    private static String stripZeros(String digits) {
        int i = 0;
        while (i < digits.length() - 1 && digits.charAt(i) == '0') {
            i++;
        }
        return digits.substring(i);
    }
}
