package org.dataloader4j.core.files;

import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.format.CorruptRecordException;

/**
 * The one conversion of loader-format's checked {@link CorruptRecordException} into the
 * runtime's unchecked {@link CorruptDataException}. Bad framing is worded only by the format
 * exception's factories; the readers of mapped files make their errors with those factories and
 * this conversion, and the readers of compressed streams convert what the stream threw, so that
 * the same damage reads the same on both paths.
 */
public final class FrameErrors {
    private FrameErrors() {
    }

    /**
     * {@code e} as the runtime throws it: the same message, file, record, offset and reason. It
     * stands in for {@code e} rather than wrapping it, so it takes over {@code e}'s cause and
     * stack trace: a log then shows where the damage was found, once, not the same line twice.
     */
    public static CorruptDataException unchecked(CorruptRecordException e) {
        CorruptDataException c = CorruptDataException.worded(e.getMessage(), e.file(), e.record(), e.offset(), e.reason(),
                e.getCause());
        c.setStackTrace(e.getStackTrace());
        return c;
    }
}
