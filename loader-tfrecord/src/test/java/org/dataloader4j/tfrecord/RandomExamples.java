package org.dataloader4j.tfrecord;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.wire.ListKind;
import org.dataloader4j.format.tf.BytesList;
import org.dataloader4j.format.tf.Example;
import org.dataloader4j.format.tf.Feature;
import org.dataloader4j.format.tf.FeatureList;
import org.dataloader4j.format.tf.FeatureLists;
import org.dataloader4j.format.tf.Features;
import org.dataloader4j.format.tf.FloatList;
import org.dataloader4j.format.tf.Int64List;
import org.dataloader4j.format.tf.SequenceExample;

/**
 * Seeded random specs and records for the differential tests: values that mostly fit their specs
 * (and sometimes do not), extreme values (NaN payloads, infinities, -0.0, Long.MIN/MAX), unicode
 * and empty keys, and each record encoded either canonically by protobuf-java or by
 * {@link NoisyEncoder} in the encodings protobuf-java never writes.
 */
final class RandomExamples {
    private static final int[] FLOAT_SPECIALS = {0x7FC00000, 0x7FC00001, 0xFFC12345, 0x7F800001, 0x7F800000,
            0xFF800000, 0x80000000, 0x00000000, 0x00000001, 0x7F7FFFFF, 0x3F800000};
    private static final long[] LONG_SPECIALS = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 127, 128, 255, 256,
            -128, 1L << 35, -(1L << 35), Integer.MIN_VALUE, Integer.MAX_VALUE};
    private static final String[] NAME_PARTS = {"x", "image", "label", "é", "日本", "🙂", "a.b", "a b", "key"};
    private static final DataType[] TYPES = DataType.values();

    /**
     * What a Feature means: its list (null if it sets none) and values.
     *
     * @param kind    the list, or null
     * @param floats  a float_list's values
     * @param longs   an int64_list's values
     * @param strings a bytes_list's values
     */
    record Values(ListKind kind, float[] floats, long[] longs, byte[][] strings) {
        int count() {
            return kind == null ? 0 : switch (kind) {
                case FLOAT -> floats.length;
                case INT64 -> longs.length;
                default -> strings.length;
            };
        }
    }

    /**
     * What a record means: its features (or context) and, for a SequenceExample, its feature lists.
     *
     * @param features the features by key
     * @param lists    the feature lists by key: one Values per step
     */
    record Record(Map<String, Values> features, Map<String, List<Values>> lists) {
    }

    private final Random random;

    RandomExamples(Random random) {
        this.random = random;
    }

    Random random() {
        return random;
    }

    // ---- specs ----

    /** {@code n} specs of features with fresh names. */
    List<ExampleFeature> features(int n, Set<String> taken) {
        List<ExampleFeature> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = name(taken);
            DataType type = TYPES[random.nextInt(TYPES.length)];
            specs.add(switch (random.nextInt(5)) {
                case 0, 1 -> withDefault(FixedLenFeature.of(name, shape(), type));
                case 2 -> VarLenFeature.of(name, type, 1 + random.nextInt(10));
                case 3 -> VarLenBytesFeature.of(name, 1 + random.nextInt(6), 1 + random.nextInt(40));
                default -> BytesFeature.of(name, 1 + random.nextInt(48));
            });
        }
        return specs;
    }

    /** {@code n} specs of feature lists with fresh names. */
    List<SequenceFeature> featureLists(int n, Set<String> taken) {
        List<SequenceFeature> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = name(taken);
            DataType type = TYPES[random.nextInt(TYPES.length)];
            specs.add(switch (random.nextInt(4)) {
                case 0, 1 -> FixedLenSequenceFeature.of(name, random.nextBoolean() ? Shape.of() : Shape.of(1 + random.nextInt(3)),
                        type, 1 + random.nextInt(5));
                case 2 -> BytesSequenceFeature.of(name, 1 + random.nextInt(5), 1 + random.nextInt(8), 1 + random.nextInt(40));
                default -> VarLenSequenceFeature.of(name, type, 1 + random.nextInt(5), 1 + random.nextInt(10));
            });
        }
        return specs;
    }

    private FixedLenFeature withDefault(FixedLenFeature f) {
        return switch (random.nextInt(4)) {
            case 0 -> f.withDefault(random.nextBoolean() ? Float.intBitsToFloat(FLOAT_SPECIALS[random.nextInt(FLOAT_SPECIALS.length)])
                    : random.nextGaussian() * 1000);
            case 1 -> f.withDefault(longs(f.rowElements()));
            default -> f;
        };
    }

    private Shape shape() {
        return switch (random.nextInt(3)) {
            case 0 -> Shape.of();
            case 1 -> Shape.of(1 + random.nextInt(6));
            default -> Shape.of(1 + random.nextInt(3), 1 + random.nextInt(3));
        };
    }

    /** A fresh non-empty name: unicode, spaces and dots, and names that are prefixes of others. */
    String name(Set<String> taken) {
        while (true) {
            StringBuilder sb = new StringBuilder();
            int parts = 1 + random.nextInt(2);
            for (int i = 0; i < parts; i++) {
                sb.append(NAME_PARTS[random.nextInt(NAME_PARTS.length)]);
            }
            if (random.nextBoolean()) {
                sb.append(random.nextInt(4));
            }
            if (taken.add(sb.toString())) {
                return sb.toString();
            }
        }
    }

    // ---- records ----

    /** A record for the specs: mostly fitting values, some missing, some that do not fit; plus unrequested keys. */
    Record record(List<ExampleFeature> features, List<SequenceFeature> lists) {
        Map<String, Values> f = new LinkedHashMap<>();
        for (ExampleFeature spec : features) {
            Values v = valuesFor(spec);
            if (v != null) {
                f.put(spec.name(), v);
            }
        }
        for (int i = random.nextInt(4); i > 0; i--) {
            f.putIfAbsent(random.nextInt(4) == 0 ? "" : name(new HashSet<>(f.keySet())), anyValues());
        }
        Map<String, List<Values>> l = new LinkedHashMap<>();
        for (SequenceFeature spec : lists) {
            List<Values> steps = switch (spec) {
                case FixedLenSequenceFeature s -> stepsFor(s);
                case BytesSequenceFeature s -> stringSteps(s.maxSteps(), s.maxStringsPerRow(), s.maxBytesPerRow());
                case VarLenSequenceFeature s -> varSteps(s);
            };
            if (steps != null) {
                l.put(spec.name(), steps);
            }
        }
        if (!lists.isEmpty() && random.nextBoolean()) {
            l.putIfAbsent(random.nextBoolean() ? "" : name(new HashSet<>(l.keySet())), List.of(anyValues()));
        }
        return new Record(f, l);
    }

    private Values valuesFor(ExampleFeature spec) {
        int roll = random.nextInt(100);
        if (roll < 12) {
            return null;
        }
        if (roll < 16) {
            return new Values(null, null, null, null);
        }
        boolean fits = roll >= 20;
        return switch (spec) {
            case FixedLenFeature s -> {
                int n = fits ? s.rowElements() : random.nextInt(s.rowElements() + 3);
                boolean bytes = (s.dataType() == DataType.UINT8 || s.dataType() == DataType.INT8) && random.nextBoolean();
                if (bytes) {
                    yield new Values(ListKind.BYTES, null, null, new byte[][] {bytes(n)});
                }
                yield numeric(fits ? kindOf(s.dataType()) : anyKind(), n);
            }
            case VarLenFeature s -> numeric(fits ? kindOf(s.dataType()) : anyKind(),
                    fits ? random.nextInt(s.maxValuesPerRow() + 1) : s.maxValuesPerRow() + random.nextInt(3));
            case BytesFeature s -> {
                if (!fits) {
                    yield random.nextBoolean() ? numeric(anyKind(), 1)
                            : new Values(ListKind.BYTES, null, null, new byte[][] {bytes(1), bytes(random.nextInt(s.maxBytes() + 2))});
                }
                yield random.nextInt(8) == 0 ? new Values(ListKind.BYTES, null, null, new byte[0][])
                        : new Values(ListKind.BYTES, null, null, new byte[][] {bytes(random.nextInt(s.maxBytes() + 1))});
            }
            case VarLenBytesFeature s -> fits ? strings(s.maxStringsPerRow(), s.maxBytesPerRow())
                    : switch (random.nextInt(3)) {
                        case 0 -> numeric(anyKind(), 1);
                        case 1 -> strings(s.maxStringsPerRow() + 1 + random.nextInt(2), 1000);
                        default -> strings(s.maxStringsPerRow(), s.maxBytesPerRow() + 1 + random.nextInt(4));
                    };
        };
    }

    /**
     * A bytes_list of up to {@code maxStrings} strings (empty ones among them) of up to
     * {@code maxBytes} bytes together; more only if asked for.
     */
    private Values strings(int maxStrings, int maxBytes) {
        int n = random.nextInt(maxStrings + 1);
        byte[][] strings = new byte[n][];
        int left = maxBytes;
        for (int i = 0; i < n; i++) {
            strings[i] = bytes(random.nextInt(4) == 0 ? 0 : random.nextInt(left + 1));
            left -= strings[i].length;
        }
        if (maxBytes > 0 && n > 0 && random.nextInt(4) == 0) {
            // Exactly at the byte limit.
            strings[n - 1] = bytes(strings[n - 1].length + left);
        }
        return new Values(ListKind.BYTES, null, null, strings);
    }

    /** Steps of strings for a BytesSequenceFeature: mostly fitting, sometimes too many steps, strings or bytes, or another list. */
    private List<Values> stringSteps(int maxSteps, int maxStrings, int maxBytes) {
        if (random.nextInt(8) == 0) {
            return null;
        }
        int steps = random.nextInt(20) == 0 ? maxSteps + 1 : random.nextInt(maxSteps + 1);
        int strings = random.nextInt(15) == 0 ? maxStrings + 1 : maxStrings;
        int bytes = random.nextInt(15) == 0 ? maxBytes + 1 + random.nextInt(3) : maxBytes;
        List<Values> out = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            int roll = random.nextInt(40);
            Values v = roll == 0 ? new Values(null, null, null, null)
                    : roll == 1 ? numeric(anyKind(), 1)
                    : strings(Math.clamp(strings, 0, 1 + random.nextInt(3)), Math.max(0, bytes));
            strings -= v.count();
            bytes -= v.strings() == null ? 0 : Arrays.stream(v.strings()).mapToInt(b -> b.length).sum();
            out.add(v);
            if (roll > 1 && (strings < 0 || bytes < 0)) {
                break;
            }
        }
        return out;
    }

    /** Steps of numbers for a VarLenSequenceFeature: mostly fitting, sometimes too many, or of another list. */
    private List<Values> varSteps(VarLenSequenceFeature s) {
        if (random.nextInt(8) == 0) {
            return null;
        }
        int steps = random.nextInt(20) == 0 ? s.maxSteps() + 1 : random.nextInt(s.maxSteps() + 1);
        int left = random.nextInt(15) == 0 ? s.maxValuesPerRow() + 2 : s.maxValuesPerRow();
        List<Values> out = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            int roll = random.nextInt(40);
            int n = random.nextInt(Math.max(0, left) + 1);
            left -= n;
            out.add(roll == 0 ? new Values(null, null, null, null)
                    : roll == 1 ? numeric(ListKind.BYTES, 1)
                    : roll == 2 ? numeric(anyKind(), n)
                    : numeric(kindOf(s.dataType()), n));
        }
        return out;
    }

    private List<Values> stepsFor(FixedLenSequenceFeature s) {
        if (random.nextInt(8) == 0) {
            return null;
        }
        int steps = random.nextInt(20) == 0 ? s.maxSteps() + 1 : random.nextInt(s.maxSteps() + 1);
        List<Values> out = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            int roll = random.nextInt(60);
            boolean bytes = (s.dataType() == DataType.UINT8 || s.dataType() == DataType.INT8) && random.nextBoolean();
            out.add(roll == 0 ? new Values(null, null, null, null)
                    : roll == 1 ? numeric(anyKind(), s.stepElements())
                    : roll == 2 ? numeric(kindOf(s.dataType()), s.stepElements() + 1)
                    : bytes ? new Values(ListKind.BYTES, null, null, new byte[][] {bytes(s.stepElements())})
                    : numeric(kindOf(s.dataType()), s.stepElements()));
        }
        return out;
    }

    private Values anyValues() {
        int roll = random.nextInt(10);
        if (roll == 0) {
            return new Values(null, null, null, null);
        }
        int n = random.nextInt(5) == 0 ? 40 + random.nextInt(200) : random.nextInt(6);
        if (roll < 4) {
            byte[][] strings = new byte[n][];
            for (int i = 0; i < n; i++) {
                strings[i] = bytes(random.nextInt(5) == 0 ? 130 : random.nextInt(8));
            }
            return new Values(ListKind.BYTES, null, null, strings);
        }
        return numeric(roll < 7 ? ListKind.FLOAT : ListKind.INT64, n);
    }

    private static ListKind kindOf(DataType type) {
        return type == DataType.FLOAT32 || type == DataType.FLOAT64 ? ListKind.FLOAT : ListKind.INT64;
    }

    private ListKind anyKind() {
        return random.nextBoolean() ? ListKind.FLOAT : ListKind.INT64;
    }

    /** {@code n} values of a float_list or int64_list (for BYTES, one string of {@code n} bytes). */
    Values numeric(ListKind kind, int n) {
        return switch (kind) {
            case FLOAT -> new Values(kind, floats(n), null, null);
            case INT64 -> new Values(kind, null, longs(n), null);
            default -> new Values(ListKind.BYTES, null, null, new byte[][] {bytes(n)});
        };
    }

    private float[] floats(int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = random.nextInt(3) == 0 ? Float.intBitsToFloat(FLOAT_SPECIALS[random.nextInt(FLOAT_SPECIALS.length)])
                    : (float) random.nextGaussian();
        }
        return v;
    }

    private long[] longs(int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = switch (random.nextInt(3)) {
                case 0 -> LONG_SPECIALS[random.nextInt(LONG_SPECIALS.length)];
                case 1 -> random.nextLong();
                default -> random.nextInt(300) - 100;
            };
        }
        return v;
    }

    byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    // ---- canonical encodings, by protobuf-java ----

    static Feature feature(Values v) {
        Feature.Builder b = Feature.newBuilder();
        if (v.kind() == null) {
            return b.build();
        }
        switch (v.kind()) {
            case FLOAT -> {
                FloatList.Builder l = FloatList.newBuilder();
                for (float f : v.floats()) {
                    l.addValue(f);
                }
                b.setFloatList(l);
            }
            case INT64 -> {
                Int64List.Builder l = Int64List.newBuilder();
                for (long x : v.longs()) {
                    l.addValue(x);
                }
                b.setInt64List(l);
            }
            default -> {
                BytesList.Builder l = BytesList.newBuilder();
                for (byte[] s : v.strings()) {
                    l.addValue(ByteString.copyFrom(s));
                }
                b.setBytesList(l);
            }
        }
        return b.build();
    }

    private static Features features(Map<String, Values> features) {
        Features.Builder b = Features.newBuilder();
        features.forEach((k, v) -> b.putFeature(k, feature(v)));
        return b.build();
    }

    static byte[] canonicalExample(Record r) {
        return Example.newBuilder().setFeatures(features(r.features())).build().toByteArray();
    }

    static byte[] canonicalSequenceExample(Record r) {
        FeatureLists.Builder lists = FeatureLists.newBuilder();
        r.lists().forEach((k, steps) -> {
            FeatureList.Builder l = FeatureList.newBuilder();
            steps.forEach(s -> l.addFeature(feature(s)));
            lists.putFeatureList(k, l.build());
        });
        return SequenceExample.newBuilder().setContext(features(r.features())).setFeatureLists(lists).build().toByteArray();
    }
}
