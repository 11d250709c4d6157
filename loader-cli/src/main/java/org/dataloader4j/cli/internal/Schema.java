package org.dataloader4j.cli.internal;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The schema of a file, gathered record by record: per feature its types, the fewest and most
 * values a record has, and how many records carry it. A SequenceExample's context features are
 * named as they are; its feature lists as {@code name[]}, counted in steps.
 */
public final class Schema {
    private final Map<String, Column> columns = new TreeMap<>();
    private long records;

    /** Counts {@code record}; an invalid payload counts as a record with no features. */
    public void add(DecodedRecord record) {
        records++;
        record.features().forEach((name, f) -> columns.computeIfAbsent(name, n -> new Column()).add(f.type(), f.values().size()));
        for (Map.Entry<String, List<FeatureValues>> e : record.featureLists().entrySet()) {
            Column c = columns.computeIfAbsent(e.getKey() + "[]", n -> new Column());
            Set<FeatureValues.Type> types = e.getValue().stream().map(FeatureValues::type).collect(Collectors.toSet());
            c.add(types, e.getValue().size());
        }
    }

    /** The schema in lines, a feature a line, each ending with a line break; empty if no feature. */
    public String text() {
        StringBuilder b = new StringBuilder();
        int width = columns.keySet().stream().mapToInt(String::length).max().orElse(0);
        columns.forEach((name, c) -> {
            String types = c.types.stream().map(FeatureValues.Type::label).collect(Collectors.joining("|"));
            String count = c.min == c.max ? Long.toString(c.min) : c.min + ".." + c.max;
            b.append("  ").append(name).append(" ".repeat(width - name.length())).append("  ")
                    .append(String.format("%-7s", types.isEmpty() ? "-" : types))
                    .append(name.endsWith("[]") ? "  steps " : "  values ").append(count)
                    .append("  in ").append(c.records).append(" of ").append(records).append(" records\n");
        });
        return b.toString();
    }

    /** One feature's tally. */
    private static final class Column {
        final Set<FeatureValues.Type> types = EnumSet.noneOf(FeatureValues.Type.class);
        long min = Long.MAX_VALUE;
        long max;
        long records;

        void add(FeatureValues.Type type, int values) {
            add(Set.of(type), values);
        }

        void add(Set<FeatureValues.Type> seen, int count) {
            types.addAll(seen);
            min = Math.min(min, count);
            max = Math.max(max, count);
            records++;
        }
    }
}
