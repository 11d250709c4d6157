package org.dataloader4j.format.store;

import java.net.URI;
import java.util.Objects;

/**
 * A file of a {@link FileStore} as listed or looked up: where it is, its length and when it was
 * last modified. Length and time together tell whether an index made of the file still fits it.
 *
 * @param location         the file, as the store names it
 * @param length           its bytes
 * @param modificationTime when it was last modified, in milliseconds since the epoch
 */
public record StoredFile(URI location, long length, long modificationTime) {
    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if {@code length} is negative
     */
    public StoredFile {
        Objects.requireNonNull(location, "location");
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0: length=" + length);
        }
    }

    /** The file's name: the last segment of its path. */
    public String name() {
        return Locations.name(location);
    }

    /** The location as shown in messages and logs: without user information ({@link Locations#display}). */
    @Override
    public String toString() {
        return Locations.display(location);
    }
}
