package org.dataloader4j.api;

/**
 * A sample that knows how many bytes it took in its source (a record's payload, a line's text),
 * so that a reader can count the bytes it reads.
 */
public interface ByteSized {

    /** The sample's bytes in its source. */
    long byteSize();
}
