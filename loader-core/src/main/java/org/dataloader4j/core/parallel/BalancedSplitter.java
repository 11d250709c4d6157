package org.dataloader4j.core.parallel;

/**
 * Splits {@code total} items into {@code parts} contiguous ranges whose sizes differ by at most
 * one, the first {@code total % parts} ranges one larger: OneFlow's {@code BalancedSplitter}.
 *
 * @param total the number of items, {@code >= 0}
 * @param parts the number of ranges, {@code >= 1}
 */
public record BalancedSplitter(long total, int parts) {

    /** Checks the arguments. */
    public BalancedSplitter {
        if (total < 0) {
            throw new IllegalArgumentException("total must be >= 0: total=" + total);
        }
        if (parts < 1) {
            throw new IllegalArgumentException("parts must be >= 1: parts=" + parts);
        }
    }

    /** The first item of range {@code i}. */
    public long start(int i) {
        checkPart(i);
        long base = total / parts;
        long extra = total % parts;
        return i * base + Math.min(i, extra);
    }

    /** One past the last item of range {@code i}. */
    public long end(int i) {
        return start(i) + size(i);
    }

    /** The number of items in range {@code i}. */
    public long size(int i) {
        checkPart(i);
        return total / parts + (i < total % parts ? 1 : 0);
    }

    private void checkPart(int i) {
        if (i < 0 || i >= parts) {
            throw new IndexOutOfBoundsException("part must be in [0, " + parts + "): part=" + i);
        }
    }
}
