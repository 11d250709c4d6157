package org.dataloader4j.mini;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.dataloader4j.api.ByteSized;

/**
 * One line of a mini file, not yet parsed, and where it came from.
 *
 * @param file   the file
 * @param line   the line number, counted from 1
 * @param offset the byte offset of the line's first character
 * @param text   the line, without its line break
 */
public record MiniLine(Path file, long line, long offset, String text) implements ByteSized {

    /** The text's length in UTF-8, without the line break. */
    @Override
    public long byteSize() {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
