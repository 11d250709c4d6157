package org.dataloader4j.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.dataset.DistributedTrainingOptions;
import org.dataloader4j.core.dataset.DistributedTrainingOptions.Remainder;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.FilePipelineBuilder;
import org.dataloader4j.core.reader.GroupKey;
import org.dataloader4j.core.reader.LiveThreads;
import org.dataloader4j.core.testing.ResumeRuns;
import org.dataloader4j.core.testing.ResumeRuns.Seen;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.format.RecordConversion;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.tfrecord.FixedLenFeature;
import org.dataloader4j.tfrecord.TFRecordReader;
import org.dataloader4j.tfrecord.VarLenFeature;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same part files read locally (memory-mapped) and through {@code hdfs://} (the
 * MiniDFSCluster) and {@code s3a://} (s3proxy) give the same batches, byte for byte: in order,
 * shuffled, files sharded among ranks, records dealt out among ranks ({@code distributed}, with
 * each remainder), grouped by length, with a corrupt record skipped, and resumed at several
 * batches; GZIP and ZLIB files, read through the store's sequential streams, too.
 */
@Timeout(300)
class RemoteEquivalenceTest {
    private static final long SEED = 43;
    private static final int PARTS = 3;
    private static final int RECORDS = 900;
    private static final AtomicInteger NAMES = new AtomicInteger();

    private static Path local;
    private static final Map<String, URI> remote = new java.util.HashMap<>();
    private static final Map<String, Map<String, String>> options = new java.util.HashMap<>();

    @BeforeAll
    static void writeAndUpload() throws IOException {
        local = RemoteStores.testDir().resolve("equivalence");
        for (Framing framing : Framing.values()) {
            Path dir = local.resolve(framing.name().toLowerCase());
            Files.createDirectories(dir);
            Random random = new Random(SEED);
            try (PartWriter out = PartWriter.create(dir, PartWriter.PREFIX, PartWriter.SUFFIX_LENGTH, PARTS, framing,
                    org.dataloader4j.format.Compression.NONE)) {
                for (int i = 0; i < RECORDS; i++) {
                    float[] values = new float[1 + random.nextInt(200)];
                    for (int k = 0; k < values.length; k++) {
                        values[k] = i + k / 1000f;
                    }
                    var record = Features.record(Map.of("id", Features.int64Feature(i), "values", Features.floatFeature(values)));
                    out.write(framing == Framing.OFRECORD ? record : RecordConversion.toExample(record).message());
                }
            }
            List<Path> parts = new ArrayList<>();
            for (int p = 0; p < PARTS; p++) {
                parts.add(dir.resolve(org.dataloader4j.format.PartFileNames.partName("part-", PartWriter.SUFFIX_LENGTH, p)));
            }
            Files.writeString(dir.resolve("_SUCCESS"), "");
            String name = framing.name().toLowerCase();
            RemoteStores.upload(RemoteStores.hdfs(), Map.of(), parts, name);
            remote.put("hdfs-" + name, RemoteStores.hdfs().resolve("/" + name + "/"));
            options.put("hdfs-" + name, Map.of());
            RemoteStores.S3 s3 = RemoteStores.s3();
            RemoteStores.upload(s3.bucket(), s3.options(), parts, name);
            remote.put("s3a-" + name, s3.bucket().resolve(name + "/"));
            options.put("s3a-" + name, s3.options());
        }
    }

    /** Each store with each format, and a way of reading. */
    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String store : List.of("hdfs", "s3a")) {
            for (String format : List.of("ofrecord", "tfrecord")) {
                for (String way : List.of("sequential", "shuffled", "sharded", "epochs", "distributed", "padded", "grouped",
                        "distributed-grouped")) {
                    cases.add(Arguments.of(store, format, way));
                }
            }
        }
        return cases;
    }

    /** A closed reader leaves no thread of its store behind (read threads, closer). */
    @AfterEach
    void leavesNoThreadOfAStore() {
        assertEquals(List.of(), LiveThreads.named("dataloader4j-hadoop-"));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void readsTheSameBatchesAsTheLocalMapping(String store, String format, String way) {
        UnaryOperator<FilePipelineBuilder<?>> options = way(way);
        List<Seen> expected = readAll(open(local(format), options, null));
        List<Seen> actual = readAll(open(remote(store, format), options, null));
        assertTrue(expected.size() > 10, "enough batches to compare: " + expected.size());
        assertEquals(expected, actual);
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("stores")
    void resumesAtSeveralBatchesAsTheLocalReaderDoes(String store, String format, String way) {
        UnaryOperator<FilePipelineBuilder<?>> options = way(way);
        List<Seen> all = readAll(open(local(format), options, null));
        for (int k : new int[] {1, 7, all.size() - 2}) {
            List<Seen> remoteRun = new ArrayList<>();
            DatasetState state;
            try (DataReader first = open(remote(store, format), options, null)) {
                for (int b = 0; b < k; b++) {
                    remoteRun.add(Seen.of(first.read()));
                }
                state = first.state();
            }
            try (DataReader resumed = open(remote(store, format), options, state)) {
                remoteRun.addAll(readAll(resumed));
            }
            assertEquals(all, remoteRun, "resumed after " + k + " batches");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("compressed")
    void readsCompressedFilesAsTheLocalReaderDoesAndResumes(String store, Compression compression) throws IOException {
        String name = "tfrecord-" + compression.name().toLowerCase();
        Path dir = local.resolve(name);
        Files.createDirectories(dir);
        Random random = new Random(SEED);
        try (PartWriter out = PartWriter.create(dir, PartWriter.PREFIX, PartWriter.SUFFIX_LENGTH, PARTS, Framing.TFRECORD,
                compression)) {
            for (int i = 0; i < RECORDS; i++) {
                float[] values = new float[1 + random.nextInt(200)];
                java.util.Arrays.fill(values, i);
                out.write(RecordConversion.toExample(Features.record(Map.of("id", Features.int64Feature(i),
                        "values", Features.floatFeature(values)))).message());
            }
        }
        List<Path> parts = new ArrayList<>();
        for (int p = 0; p < PARTS; p++) {
            parts.add(dir.resolve(org.dataloader4j.format.PartFileNames.partName("part-", PartWriter.SUFFIX_LENGTH, p)));
        }
        URI remoteDir;
        Map<String, String> storeOptions;
        if (store.equals("hdfs")) {
            RemoteStores.upload(RemoteStores.hdfs(), Map.of(), parts, name);
            remoteDir = RemoteStores.hdfs().resolve("/" + name + "/");
            storeOptions = Map.of();
        } else {
            RemoteStores.S3 s3 = RemoteStores.s3();
            RemoteStores.upload(s3.bucket(), s3.options(), parts, name);
            remoteDir = s3.bucket().resolve(name + "/");
            storeOptions = s3.options();
        }
        UnaryOperator<FilePipelineBuilder<?>> options = b -> way("epochs").apply(((TFRecordReader.Builder) b).compression(compression));
        List<Seen> expected = readAll(open(builder("tfrecord").dataDir(dir), options, null));
        assertTrue(expected.size() > 10, "enough batches to compare: " + expected.size());
        Function<DatasetState, DataReader> remoteReader = state -> {
            FilePipelineBuilder<?> b = builder("tfrecord").dataDir(remoteDir);
            storeOptions.forEach(b::storeOption);
            return open(b, options, state);
        };
        assertEquals(expected, readAll(remoteReader.apply(null)));

        // With the compression left to be detected, as for local files: the files' first bytes tell it.
        FilePipelineBuilder<?> detecting = builder("tfrecord").dataDir(remoteDir);
        storeOptions.forEach(detecting::storeOption);
        assertEquals(expected, readAll(open(detecting, way("epochs"), null)), "compression detected");
        FilePipelineBuilder<?> distributed = builder("tfrecord").dataDir(remoteDir);
        storeOptions.forEach(distributed::storeOption);
        IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> build(way("distributed").apply(distributed)));
        assertTrue(refused.getMessage().contains("part-00000 is " + compression), refused.getMessage());

        List<Seen> resumedRun = new ArrayList<>();
        DatasetState state;
        try (DataReader first = remoteReader.apply(null)) {
            for (int b = 0; b < 9; b++) {
                resumedRun.add(Seen.of(first.read()));
            }
            state = first.state();
        }
        resumedRun.addAll(readAll(remoteReader.apply(state)));
        assertEquals(expected, resumedRun, "resumed after 9 batches");
    }

    static List<Arguments> compressed() {
        List<Arguments> cases = new ArrayList<>();
        for (String store : List.of("hdfs", "s3a")) {
            for (Compression compression : List.of(Compression.GZIP, Compression.ZLIB)) {
                cases.add(Arguments.of(store, compression));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("storeNames")
    void skipsADamagedRecordAsTheLocalReaderDoes(String store) throws IOException {
        Path dir = local.resolve("skip-" + store);
        Files.createDirectories(dir);
        List<Path> parts = new ArrayList<>();
        for (int p = 0; p < PARTS; p++) {
            String name = org.dataloader4j.format.PartFileNames.partName("part-", PartWriter.SUFFIX_LENGTH, p);
            parts.add(Files.copy(local.resolve("tfrecord").resolve(name), dir.resolve(name),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING));
        }
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(parts.get(1).toFile(), "rw")) {
            // A byte in the middle of a record of the second file: its data CRC no longer matches.
            long at = file.length() / 2;
            file.seek(at);
            int b = file.read();
            file.seek(at);
            file.write(b ^ 0x5a);
        }
        URI remoteDir;
        Map<String, String> storeOptions;
        if (store.equals("hdfs")) {
            RemoteStores.upload(RemoteStores.hdfs(), Map.of(), parts, "skip");
            remoteDir = RemoteStores.hdfs().resolve("/skip/");
            storeOptions = Map.of();
        } else {
            RemoteStores.S3 s3 = RemoteStores.s3();
            RemoteStores.upload(s3.bucket(), s3.options(), parts, "skip");
            remoteDir = s3.bucket().resolve("skip/");
            storeOptions = s3.options();
        }
        FilePipelineBuilder<?> localReader = way("shuffled").apply(builder("tfrecord").dataDir(dir)).skipCorrupt(1);
        FilePipelineBuilder<?> remoteReader = way("shuffled").apply(builder("tfrecord").dataDir(remoteDir)).skipCorrupt(1);
        storeOptions.forEach(remoteReader::storeOption);
        List<Seen> expected = new ArrayList<>();
        List<Seen> actual = new ArrayList<>();
        long localSkipped;
        long remoteSkipped;
        try (DataReader reader = build(localReader)) {
            reader.forEach(b -> expected.add(Seen.of(b)));
            localSkipped = reader.metrics().corruptSkipped();
        }
        try (DataReader reader = build(remoteReader)) {
            reader.forEach(b -> actual.add(Seen.of(b)));
            remoteSkipped = reader.metrics().corruptSkipped();
        }
        assertEquals(1, localSkipped, "the damaged record is skipped locally");
        assertEquals(localSkipped, remoteSkipped, "and remotely");
        assertEquals(expected, actual);
    }

    static List<String> storeNames() {
        return List.of("hdfs", "s3a");
    }

    static List<Arguments> stores() {
        return List.of(Arguments.of("hdfs", "ofrecord", "shuffled"), Arguments.of("s3a", "tfrecord", "shuffled"),
                Arguments.of("hdfs", "tfrecord", "distributed"), Arguments.of("s3a", "ofrecord", "padded"),
                Arguments.of("hdfs", "ofrecord", "grouped"), Arguments.of("s3a", "tfrecord", "distributed-grouped"));
    }

    private static UnaryOperator<FilePipelineBuilder<?>> way(String way) {
        return switch (way) {
            case "sequential" -> b -> b.batchSize(32);
            case "shuffled" -> b -> b.batchSize(32).randomShuffle(true).shuffleBufferSize(256).seed(SEED);
            case "sharded" -> b -> b.batchSize(17).shard(1, 3);
            case "epochs" -> b -> b.batchSize(64).epochs(3).shuffleAfterEpoch(true).randomShuffle(true).seed(SEED)
                    .shuffleBufferSize(100);
            case "distributed" -> b -> b.batchSize(32).distributed(ranks(Remainder.WRAP));
            case "padded" -> b -> b.batchSize(17).distributed(ranks(Remainder.PAD_WITH_MASK));
            case "grouped" -> b -> b.batchSize(16).epochs(2).shuffleAfterEpoch(true).randomShuffle(true).seed(SEED)
                    .shuffleBufferSize(100).groupBy(GroupKey.lengthBuckets("values", 50, 100, 150));
            case "distributed-grouped" -> b -> b.batchSize(16).distributed(ranks(Remainder.DROP))
                    .groupBy(GroupKey.lengthBuckets("values", 50, 100, 150));
            default -> throw new IllegalArgumentException(way);
        };
    }

    /** Rank 1 of 3, shuffled, two epochs, the last samples of an epoch dealt out as {@code remainder} says. */
    private static DistributedTrainingOptions ranks(Remainder remainder) {
        return DistributedTrainingOptions.builder().rank(1).worldSize(3).shuffle(true).seed(SEED).epochs(2)
                .remainder(remainder).environment(Map.of()).build();
    }

    private static FilePipelineBuilder<?> local(String format) {
        return builder(format).dataDir(local.resolve(format));
    }

    private static FilePipelineBuilder<?> remote(String store, String format) {
        FilePipelineBuilder<?> b = builder(format).dataDir(remote.get(store + "-" + format));
        options.get(store + "-" + format).forEach(b::storeOption);
        return b;
    }

    private static FilePipelineBuilder<?> builder(String format) {
        FilePipelineBuilder<?> b;
        if (format.equals("ofrecord")) {
            b = OFRecordReader.builder()
                    .decoder(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64))
                    .decoder(OFRecordRawDecoder.of("values", Shape.of(200), DataType.FLOAT32).withDim1VaryingLength());
        } else {
            b = TFRecordReader.builder()
                    .feature(FixedLenFeature.of("id", Shape.of(1), DataType.INT64))
                    .feature(VarLenFeature.of("values", DataType.FLOAT32, 200));
        }
        return b.dataPartNum(PARTS).partNameSuffixLength(PartWriter.SUFFIX_LENGTH)
                .reader(o -> o.name("equivalence-" + NAMES.incrementAndGet()).parseThreads(2).ringSize(4));
    }

    /** Every batch of {@code reader}, which is then closed. */
    private static List<Seen> readAll(DataReader reader) {
        try (reader) {
            return ResumeRuns.readAll(reader);
        }
    }

    private static DataReader open(FilePipelineBuilder<?> builder, UnaryOperator<FilePipelineBuilder<?>> options,
                                   DatasetState state) {
        FilePipelineBuilder<?> b = options.apply(builder);
        if (state != null) {
            b.reader(o -> o.restore(state));
        }
        return build(b);
    }

    private static DataReader build(FilePipelineBuilder<?> b) {
        return b instanceof OFRecordReader.Builder of ? of.build() : ((TFRecordReader.Builder) b).build();
    }
}
