package org.dataloader4j.tfrecord.internal;

import java.util.Arrays;
import java.util.List;
import org.dataloader4j.core.wire.MapScanner;
import org.dataloader4j.core.wire.WireReader;

/**
 * Finds the map entries of the requested features in one tf.Example or SequenceExample, scanning
 * the record once.
 *
 * <p>{@code Example.features} and {@code SequenceExample.context} are both field 1, a
 * {@code Features} message ({@code map<string, Feature> feature = 1}); a SequenceExample's
 * {@code feature_lists} is field 2, a {@code FeatureLists} message
 * ({@code map<string, FeatureList> feature_list = 1}). Each may occur several times: protobuf
 * merges the occurrences, so their maps merge and, of entries with the same key, the last wins.
 * In an Example, field 2 is an unknown field and is skipped.
 */
final class RecordLocator {
    private static final int FEATURES_TAG = WireReader.tag(1, WireReader.LENGTH_DELIMITED);
    private static final int FEATURE_LISTS_TAG = WireReader.tag(2, WireReader.LENGTH_DELIMITED);
    /** Field 1 of both {@code Features} and {@code FeatureLists}: the map. */
    private static final int MAP_FIELD = 1;

    private final MapScanner features;
    private final MapScanner featureLists;

    /**
     * A locator of the features {@code featureNames} and, in a SequenceExample, of the feature
     * lists {@code featureListNames} (null for a tf.Example).
     */
    RecordLocator(List<String> featureNames, List<String> featureListNames) {
        this.features = new MapScanner(featureNames);
        this.featureLists = featureListNames == null ? null : new MapScanner(featureListNames);
    }

    /**
     * Scans the record {@code r} is reset to; on return {@code [featureStart[i], featureEnd[i])}
     * bounds feature {@code i}'s map entry, and the same for the feature lists. Each
     * {@code featureStart[i]} arrives as -1 (the caller clears it) and stays so if the record has
     * no such feature; {@code listStart} is cleared here.
     *
     * @throws org.dataloader4j.core.wire.WireFormatException if the record or an entry's tags are malformed
     */
    void locate(WireReader r, long[] featureStart, long[] featureEnd, long[] listStart, long[] listEnd) {
        Arrays.fill(listStart, -1);
        for (int tag = r.readTag(); tag != 0; tag = r.readTag()) {
            MapScanner scanner = tag == FEATURES_TAG ? features : tag == FEATURE_LISTS_TAG ? featureLists : null;
            if (scanner == null) {
                r.skipField(tag);
                continue;
            }
            long outer = r.pushLimit(r.readLength());
            scanner.scan(r, MAP_FIELD, scanner == features ? featureStart : listStart,
                    scanner == features ? featureEnd : listEnd);
            r.popLimit(outer);
        }
    }
}
