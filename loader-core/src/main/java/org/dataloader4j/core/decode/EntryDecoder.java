package org.dataloader4j.core.decode;

import org.dataloader4j.api.CorruptDataException;
import org.dataloader4j.core.dataset.RecordView;
import org.dataloader4j.core.wire.FeatureView;
import org.dataloader4j.core.wire.WireFormatException;
import org.dataloader4j.core.wire.WireReader;

/**
 * A format's part in a {@link BatchDecoder}: where a record's entries are (the map entries of the
 * features it asks for), and what an entry means to its columns: which list fits which output,
 * defaults, truncation, the format's error texts. The routine does the rest: the passes, reading
 * ahead, layouts and the resolution of each entry's {@code Feature}.
 *
 * <p>Entry {@code e} is the {@code e}-th feature the format asks for; its first (or only) column
 * is the one the {@code BatchDecoder} was given for it. Every call is on one thread: an instance
 * is one thread's, made by the {@link Factory} with that thread's reader, view and copier, and
 * reused batch after batch.
 */
public interface EntryDecoder {

    /** Makes one thread's decoder. */
    @FunctionalInterface
    interface Factory {
        /**
         * A decoder sharing the thread's {@code reader}, the {@code feature} view that the routine
         * resolves each entry into, and the {@code copier} of the routine's {@link DecodeMode}.
         */
        EntryDecoder create(WireReader reader, FeatureView feature, ValueCopier copier);
    }

    /**
     * Finds the entries of the record {@code reader} reads (from its position to its limit): sets
     * {@code [entryStart[e], entryEnd[e])} to the bounds of entry {@code e}'s map entry. Every
     * {@code entryStart[e]} is -1 on the call, and one left so is an entry the record does not
     * hold.
     *
     * @throws WireFormatException if the record is malformed where the scan reads it
     */
    void locate(WireReader reader, long[] entryStart, long[] entryEnd);

    /**
     * Pass 1 for entry {@code entry} of row {@code row}: checks it, writes its dense columns and
     * {@linkplain BatchOutputs#note notes} its ragged ones. If {@code entryStart} is not negative,
     * the map entry {@code [entryStart, entryEnd)}'s {@code Feature} has been resolved into the
     * factory's view; else the record has no such entry, and both bounds are -1.
     *
     * @throws CorruptDataException if the entry does not fit its columns
     * @throws WireFormatException  if its values are malformed; the routine names the entry
     */
    void decode(RecordView record, int row, int entry, long entryStart, long entryEnd, BatchOutputs out);

    /**
     * Pass 1 for what of row {@code row} is not an entry (a SequenceExample's feature lists),
     * after its entries; nothing by default. A format that decodes anything here, from bounds its
     * {@link #locate} noted, builds its {@code BatchDecoder} without layouts: a record taken from
     * a layout is not scanned.
     *
     * @throws CorruptDataException if the record does not fit
     */
    default void decodeRest(RecordView record, int row, BatchOutputs out) {
    }

    /**
     * Pass 2 for row {@code row}: copies its ragged values to the offsets {@code out} now holds.
     * Pass 1 checked them, so this fails only if the record's bytes changed in between.
     */
    void copyRagged(RecordView record, int row, BatchOutputs out);
}
