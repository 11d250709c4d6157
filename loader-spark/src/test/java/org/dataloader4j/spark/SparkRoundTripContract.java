package org.dataloader4j.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.format.tf.Example;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Round trips between Spark and the project's readers and writers, on any storage a Hadoop
 * file system reaches: a subclass gives a fresh folder URI per test ({@link #folder()}), on the
 * local disk, HDFS or S3.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class SparkRoundTripContract {
    static final int ROWS = 40;

    /** A fresh, empty or missing folder for one test, as a URI ({@code file:/…}, {@code hdfs://…}). */
    abstract String folder() throws IOException;

    static SparkSession spark() {
        return SparkTests.session();
    }

    static Dataset<Row> digits(int rows, int partitions) {
        return spark().createDataFrame(Digits.rows(rows), Digits.SCHEMA).repartition(partitions);
    }

    /** The rows of {@code df} by their id, ascending. */
    static List<Row> byId(Dataset<Row> df) {
        List<Row> rows = new ArrayList<>(df.collectAsList());
        rows.sort(Comparator.comparingLong(r -> r.getLong(r.fieldIndex("id"))));
        return rows;
    }

    /** Which row a record came from: its id. */
    private static int index(long id) {
        return (int) (id / Digits.id(1));
    }

    @Test
    void sparkWritesOFRecordPartsThatTheProjectReads() throws IOException {
        String dir = folder();
        digits(ROWS, 3).write().format("ofrecord").mode("overwrite").save(dir);

        assertEquals(List.of("part-00000", "part-00001", "part-00002"), StoredFiles.dataFiles(dir));
        assertTrue(StoredFiles.names(dir).contains("_SUCCESS"), () -> "no _SUCCESS in " + dir);
        List<OFRecord> read = new ArrayList<>();
        for (String part : StoredFiles.dataFiles(dir)) {
            for (byte[] payload : StoredFiles.read(dir + "/" + part, Framing.OFRECORD)) {
                read.add(OFRecord.parseFrom(payload));
            }
        }
        assertEquals(ROWS, read.size());
        for (OFRecord r : read) {
            int i = index(r.getFeatureOrThrow("id").getInt64List().getValue(0));
            assertEquals(Digits.record(i), r, "row " + i);
        }
    }

    @Test
    void sparkWritesGzipTFRecordPartsThatTheProjectReads() throws IOException {
        String dir = folder();
        digits(ROWS, 2).write().format("tfrecord").option("compression", "gzip").mode("overwrite").save(dir);

        List<String> parts = StoredFiles.dataFiles(dir);
        assertEquals(List.of("part-00000", "part-00001"), parts);
        int read = 0;
        for (String part : parts) {
            assertEquals(Compression.GZIP, Compression.detect(part, StoredFiles.head(dir + "/" + part, 12), Framing.TFRECORD));
            for (byte[] payload : StoredFiles.read(dir + "/" + part, Framing.TFRECORD)) {
                Example e = Example.parseFrom(payload);
                int i = index(e.getFeatures().getFeatureOrThrow("id").getInt64List().getValue(0));
                assertEquals(Digits.example(i), e, "row " + i);
                read++;
            }
        }
        assertEquals(ROWS, read);
    }

    @Test
    void sparkInfersTheSchemaOfOFRecordPartsTheProjectWrote() throws IOException {
        String dir = folder();
        writeParts(dir, Framing.OFRECORD, Compression.NONE, 2);
        StoredFiles.put(dir + "/_SUCCESS", new byte[0]);
        StoredFiles.put(dir + "/_temporary", "not records".getBytes(StandardCharsets.UTF_8));

        Dataset<Row> df = spark().read().format("ofrecord").load(dir);

        StructType inferred = new StructType()
                .add("id", DataTypes.LongType)
                .add("image", DataTypes.BinaryType)
                .add("label", DataTypes.IntegerType)
                .add("name", DataTypes.BinaryType) // bytes are never guessed to be text
                .add("note", DataTypes.BinaryType)
                .add("pixels", DataTypes.createArrayType(DataTypes.FloatType, false))
                .add("weights", DataTypes.createArrayType(DataTypes.DoubleType, false));
        assertEquals(inferred, df.schema());
        List<Row> rows = byId(df);
        assertEquals(ROWS, rows.size());
        for (int i = 0; i < ROWS; i++) {
            Row r = rows.get(i);
            assertEquals(Digits.id(i), r.getLong(0));
            assertArrayEquals(Digits.image(i), (byte[]) r.get(1));
            assertEquals(Digits.label(i), r.getInt(2));
            assertArrayEquals(Digits.name(i).getBytes(StandardCharsets.UTF_8), (byte[]) r.get(3));
            if (Digits.note(i) == null) {
                assertTrue(r.isNullAt(4), "note of row " + i);
            } else {
                assertArrayEquals(Digits.note(i).getBytes(StandardCharsets.UTF_8), (byte[]) r.get(4));
            }
            assertArrayEquals(Digits.pixels(i), floats(r.getList(5)));
            assertArrayEquals(Digits.weights(i), doubles(r.getList(6)));
        }
    }

    @Test
    void sparkReadsZlibTFRecordPartsTheProjectWroteWithAGivenSchema() throws IOException {
        String dir = folder();
        writeParts(dir, Framing.TFRECORD, Compression.ZLIB, 3);
        StructType given = new StructType()
                .add("name", DataTypes.StringType)
                .add("label", DataTypes.IntegerType) // an int64_list read as int
                .add("id", DataTypes.LongType)
                .add("weights", DataTypes.createArrayType(DataTypes.DoubleType)) // a float_list read as double
                .add("absent", DataTypes.StringType);

        List<Row> rows = byId(spark().read().format("tfrecord").schema(given).load(dir));

        assertEquals(ROWS, rows.size());
        for (int i = 0; i < ROWS; i++) {
            Row r = rows.get(i);
            assertEquals(Digits.name(i), r.getString(0));
            assertEquals(Digits.label(i), r.getInt(1));
            assertEquals(Digits.id(i), r.getLong(2));
            double[] rounded = Arrays.stream(Digits.weights(i)).map(w -> (float) w).toArray();
            assertArrayEquals(rounded, doubles(r.getList(3)));
            assertTrue(r.isNullAt(4), "a feature no record has reads as null");
        }
        Dataset<Row> pruned = spark().read().format("tfrecord").schema(given).load(dir).select("id");
        assertEquals(ROWS, pruned.count());
    }

    @Test
    void appendNumbersNewPartsAfterTheOldAndOverwriteReplacesThem() throws IOException {
        String dir = folder();
        digits(10, 2).write().format("tfrecord").mode("overwrite").save(dir);
        byte[] firstPart = StoredFiles.head(dir + "/part-00000", Integer.MAX_VALUE);

        digits(ROWS, 3).write().format("tfrecord").mode("append").save(dir);

        assertEquals(List.of("part-00000", "part-00001", "part-00002", "part-00003", "part-00004"), StoredFiles.dataFiles(dir));
        assertArrayEquals(firstPart, StoredFiles.head(dir + "/part-00000", Integer.MAX_VALUE), "append rewrote part-00000");
        assertEquals(10 + ROWS, spark().read().format("tfrecord").load(dir).count());
        assertTrue(StoredFiles.names(dir).stream().noneMatch(n -> n.equals("_temporary")), "temporary files left behind");

        digits(5, 1).write().format("tfrecord").mode("overwrite").save(dir);

        assertEquals(List.of("part-00000"), StoredFiles.dataFiles(dir));
        assertEquals(5, spark().read().format("tfrecord").load(dir).count());
    }

    @Test
    void aCorruptRecordFailsTheReadNamingFileRecordAndOffset() throws IOException {
        String dir = folder();
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            payloads.add(Digits.example(i).toByteArray());
        }
        byte[] file = StoredFiles.frame(payloads, Framing.TFRECORD, Compression.NONE);
        long offset = 0;
        for (int i = 0; i < 2; i++) {
            offset += 12 + payloads.get(i).length + 4;
        }
        file[(int) offset + 12 + 3] ^= 0x40; // a payload byte of record 2
        StoredFiles.put(dir + "/part-00000", file);

        Dataset<Row> df = spark().read().format("tfrecord").schema(new StructType().add("id", DataTypes.LongType)).load(dir);
        Exception e = assertThrows(Exception.class, df::collectAsList);

        String message = messages(e);
        assertTrue(message.contains("corrupted record at offset " + offset + " in " + dir + "/part-00000 (data CRC mismatch); record 2"),
                message);
    }

    @Test
    void aFeatureOfAnotherKindThanItsColumnFailsTheReadNamingIt() throws IOException {
        String dir = folder();
        writeParts(dir, Framing.OFRECORD, Compression.NONE, 1);
        StructType wrong = new StructType().add("pixels", DataTypes.createArrayType(DataTypes.LongType));

        Exception e = assertThrows(Exception.class, () -> spark().read().format("ofrecord").schema(wrong).load(dir).collectAsList());

        String message = messages(e);
        assertTrue(message.contains("feature pixels is a float_list, which column pixels of type array<bigint> cannot read at record 0, offset 0 in "
                + dir + "/part-00000"), message);
    }

    /** Writes {@link #ROWS} digits as the project's part writer spreads them: row i to part i % parts. */
    void writeParts(String dir, Framing framing, Compression compression, int parts) throws IOException {
        for (int p = 0; p < parts; p++) {
            List<byte[]> payloads = new ArrayList<>();
            for (int i = p; i < ROWS; i += parts) {
                payloads.add(framing == Framing.OFRECORD ? Digits.record(i).toByteArray() : Digits.example(i).toByteArray());
            }
            StoredFiles.put(dir + "/part-" + String.format("%05d", p), StoredFiles.frame(payloads, framing, compression));
        }
    }

    static float[] floats(List<Object> values) {
        float[] out = new float[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (Float) values.get(i);
        }
        return out;
    }

    static double[] doubles(List<Object> values) {
        return values.stream().mapToDouble(v -> (Double) v).toArray();
    }

    /** The messages of {@code e} and its causes. */
    static String messages(Throwable e) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            out.append(t.getMessage()).append('\n');
        }
        return out.toString();
    }
}
