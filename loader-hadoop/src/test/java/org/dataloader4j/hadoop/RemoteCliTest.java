package org.dataloader4j.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.dataloader4j.cli.Loader;
import org.dataloader4j.cli.Terminal;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.format.RecordConversion;
import org.dataloader4j.format.store.Locations;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code loader} command over {@code hdfs://} and {@code s3a://} files prints what it prints
 * for the same files read locally, with each file's location in place of its path, and exits
 * with the same codes; {@code convert} of remote files writes the bytes it writes from the local
 * copy; no output shows the store's secret key.
 */
@Timeout(300)
class RemoteCliTest {
    private static final int RECORDS = 300;

    private static Path local;
    private static Path damaged;
    private static URI hdfsDir;
    private static URI hdfsDamaged;
    private static URI s3Dir;

    @BeforeAll
    static void writeAndUpload() throws IOException {
        local = RemoteStores.testDir().resolve("cli");
        Path parts = local.resolve("ofrecord");
        Files.createDirectories(parts);
        Random random = new Random(11);
        try (PartWriter out = PartWriter.create(parts, 2)) {
            for (int i = 0; i < RECORDS; i++) {
                float[] values = new float[1 + random.nextInt(100)];
                java.util.Arrays.fill(values, i);
                out.write(Features.record(Map.of("id", Features.int64Feature(i), "values", Features.floatFeature(values))));
            }
        }
        Path tf = local.resolve("tfrecord");
        Files.createDirectories(tf);
        try (PartWriter out = PartWriter.create(tf, PartWriter.PREFIX, PartWriter.SUFFIX_LENGTH, 1, Framing.TFRECORD,
                Compression.NONE)) {
            for (int i = 0; i < 50; i++) {
                out.write(RecordConversion.toExample(Features.record(Map.of("id", Features.int64Feature(i)))).message());
            }
        }
        damaged = tf.resolve("part-00000");
        try (RandomAccessFile file = new RandomAccessFile(damaged.toFile(), "rw")) {
            // A byte in the middle of a record: its data CRC no longer matches.
            long at = file.length() / 2;
            file.seek(at);
            int b = file.read();
            file.seek(at);
            file.write(b ^ 0x5a);
        }
        List<Path> files = List.of(parts.resolve("part-00000"), parts.resolve("part-00001"));
        RemoteStores.upload(RemoteStores.hdfs(), Map.of(), files, "cli/ofrecord");
        hdfsDir = RemoteStores.hdfs().resolve("/cli/ofrecord");
        hdfsDamaged = RemoteStores.upload(RemoteStores.hdfs(), Map.of(), List.of(damaged), "cli/tfrecord").get(0);
        RemoteStores.S3 s3 = RemoteStores.s3();
        RemoteStores.upload(s3.bucket(), s3.options(), files, "cli/ofrecord");
        s3Dir = s3.bucket().resolve("cli/ofrecord");
    }

    @Test
    void inspectAndVerifyShowRemoteFilesAsTheyShowLocalOnes() {
        String dir = Locations.display(hdfsDir);
        for (String command : List.of("inspect", "verify")) {
            Result localRun = run(command, local.resolve("ofrecord").toString());
            Result remoteRun = run(command, hdfsDir.toString());
            assertEquals(0, localRun.code, localRun.toString());
            assertEquals(localRun.replace(local.resolve("ofrecord").toString(), dir), remoteRun, command);
        }
        assertTrue(run("verify", hdfsDir.toString()).out.contains("2 files, " + RECORDS + " records: all valid"));

        for (String command : List.of("inspect", "verify")) {
            Result localRun = run(command, damaged.toString());
            Result remoteRun = run(command, hdfsDamaged.toString());
            assertEquals(1, localRun.code, localRun.toString());
            assertEquals(localRun.replace(damaged.toString(), Locations.display(hdfsDamaged)), remoteRun, command);
        }
    }

    @Test
    void aMissingRemoteFileIsAnIoErrorNamingIt() {
        URI missing = RemoteStores.hdfs().resolve("/cli/none");
        Result r = run("verify", missing.toString());
        assertEquals(3, r.code, r.toString());
        assertEquals("loader: " + Locations.display(missing) + ": no such file or folder\n", r.err);
    }

    @Test
    void indexWritesTheCacheSidecarsOfRemoteFilesAndBenchReadsThem() throws IOException {
        List<String> s3 = s3Args();
        Result noCache = run(with(List.of("index", s3Dir.toString()), s3));
        assertEquals(2, noCache.code, noCache.toString());
        assertTrue(noCache.err.contains("--index-dir"), noCache.err);

        Path cache = RemoteStores.testDir().resolve("cli-index");
        List<Result> runs = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            Result r = run(with(List.of("index", s3Dir.toString(), "--index-dir", cache.toString()), s3));
            runs.add(r);
            assertEquals(0, r.code, r.toString());
            List<String> lines = r.out.lines().toList();
            assertEquals(2, lines.size(), r.out);
            for (int part = 0; part < 2; part++) {
                String line = lines.get(part);
                assertTrue(line.startsWith("s3a://data/cli/ofrecord/part-0000" + part + ": "), line);
                assertTrue(line.endsWith(pass == 0 ? " (written)" : " (already up to date)"), line);
                Path sidecar = Path.of(line.substring(line.indexOf(" records, ") + 10, line.lastIndexOf(" (")));
                assertTrue(Files.isRegularFile(sidecar) && sidecar.startsWith(cache), line);
            }
        }
        Result bench = run(with(List.of("bench", s3Dir.toString(), "--feature", "id:int64:1", "--batch", "32",
                "--threads", "1", "--shuffle", "5"), s3));
        runs.add(bench);
        assertEquals(0, bench.code, bench.toString());
        assertTrue(bench.out.contains("ofrecord, 2 files") && bench.out.contains(RECORDS + " records; batch 32"), bench.out);
        assertTrue(bench.out.contains(RECORDS + " samples"), bench.out);

        runs.add(run(with(List.of("inspect", s3Dir.resolve("cli/none").toString()), s3)));
        for (Result r : runs) {
            assertFalse(r.toString().contains(RemoteStores.SECRET), "the output shows the secret: " + r);
        }
    }

    @Test
    void convertOfRemoteFilesWritesTheBytesOfConvertOfTheLocalCopy() throws IOException {
        Path out = RemoteStores.testDir().resolve("cli-convert");
        List<List<String>> ways = List.of(List.of(), List.of("--to", "tfrecord", "--parts", "3", "--compression", "gzip"));
        for (int w = 0; w < ways.size(); w++) {
            Path fromLocal = out.resolve("local-" + w);
            Path fromHdfs = out.resolve("hdfs-" + w);
            Path fromS3 = out.resolve("s3a-" + w);
            Result localRun = run(with(List.of("convert", local.resolve("ofrecord").toString(), "-o", fromLocal.toString()),
                    ways.get(w)));
            Result hdfsRun = run(with(List.of("convert", hdfsDir.toString(), "-o", fromHdfs.toString()), ways.get(w)));
            List<String> s3 = new ArrayList<>(ways.get(w));
            s3.addAll(s3Args());
            Result s3Run = run(with(List.of("convert", s3Dir.toString(), "-o", fromS3.toString()), s3));
            assertEquals(0, localRun.code, localRun.toString());
            assertEquals(localRun.replace(fromLocal.toString(), fromHdfs.toString()), hdfsRun);
            assertEquals(localRun.replace(fromLocal.toString(), fromS3.toString()), s3Run);
            assertTrue(localRun.out.contains("converted " + RECORDS + " records of 2 files"), localRun.out);
            assertFalse(s3Run.toString().contains(RemoteStores.SECRET), "the output shows the secret: " + s3Run);
            List<String> names;
            try (var files = Files.list(fromLocal)) {
                names = files.map(f -> f.getFileName().toString()).sorted().toList();
            }
            assertEquals(w == 0 ? List.of("part-00000", "part-00001") : List.of("part-00000", "part-00001", "part-00002"),
                    names);
            for (String name : names) {
                byte[] expected = Files.readAllBytes(fromLocal.resolve(name));
                assertTrue(java.util.Arrays.equals(expected, Files.readAllBytes(fromHdfs.resolve(name))), "hdfs " + name);
                assertTrue(java.util.Arrays.equals(expected, Files.readAllBytes(fromS3.resolve(name))), "s3a " + name);
            }
        }
    }

    /**
     * Credentials from the environment alone: a {@code loader} process given S3A's options without
     * its keys, and the keys in {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY}, reads
     * the files and shows the secret nowhere; without them it is refused, again without it.
     */
    @Test
    @Timeout(180)
    void credentialsFromTheEnvironmentReadAndStayUnshown() throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-cp", System.getProperty("java.class.path"), Loader.class.getName(), "verify", s3Dir.toString()));
        RemoteStores.s3().options().forEach((k, v) -> {
            if (!k.equals("fs.s3a.access.key") && !k.equals("fs.s3a.secret.key") && !k.equals("fs.s3a.aws.credentials.provider")) {
                args.add("--store-option");
                args.add(k + "=" + v);
            }
        });
        args.add("--store-option");
        args.add("fs.s3a.aws.credentials.provider=software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider");
        Result withKeys = runProcess(args, Map.of("AWS_ACCESS_KEY_ID", RemoteStores.ACCESS_KEY,
                "AWS_SECRET_ACCESS_KEY", RemoteStores.SECRET));
        assertEquals(0, withKeys.code, withKeys.toString().replace(RemoteStores.SECRET, "<secret>"));
        assertTrue(withKeys.out.contains("2 files, " + RECORDS + " records: all valid"), withKeys.out);
        Result without = runProcess(args, Map.of());
        assertTrue(without.code != 0, without.out);
        for (Result r : List.of(withKeys, without)) {
            assertFalse((r.out + r.err).contains(RemoteStores.SECRET), "the secret is shown");
        }
    }

    /** {@code command} run as a process whose environment lacks AWS's variables but for {@code env}. */
    private static Result runProcess(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(k -> k.startsWith("AWS_"));
        builder.environment().putAll(env);
        Path out = Files.createTempFile("loader-out", ".txt");
        Path err = Files.createTempFile("loader-err", ".txt");
        try {
            Process p = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(150, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("loader did not end within 150 s");
            }
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The store options of s3proxy, secret included, as {@code --store-option} arguments. */
    private static List<String> s3Args() {
        List<String> args = new ArrayList<>();
        RemoteStores.s3().options().forEach((k, v) -> {
            args.add("--store-option");
            args.add(k + "=" + v);
        });
        return args;
    }

    private static String[] with(List<String> args, List<String> more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(more);
        return all.toArray(String[]::new);
    }

    /** What one run of {@code loader} did. */
    private record Result(int code, String out, String err) {
        Result replace(String from, String to) {
            return new Result(code, out.replace(from, to), err.replace(from, to));
        }
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Loader.run(new Terminal(new PrintWriter(out, true), new PrintWriter(err, true), Map.of(), false), args);
        return new Result(code, out.toString(), err.toString());
    }
}
