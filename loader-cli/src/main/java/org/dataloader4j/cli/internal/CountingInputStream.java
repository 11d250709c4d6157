package org.dataloader4j.cli.internal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes read through it: how far into a (compressed) file a reader has got. */
public final class CountingInputStream extends FilterInputStream {
    private long count;

    /** Counts what is read from {@code in}. */
    public CountingInputStream(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        count += b >= 0 ? 1 : 0;
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        count += Math.max(n, 0);
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        count += skipped;
        return skipped;
    }

    /** The bytes read so far. */
    public long count() {
        return count;
    }
}
