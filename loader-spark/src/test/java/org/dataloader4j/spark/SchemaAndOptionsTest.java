package org.dataloader4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.FileConversion;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RecordWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The inference rule, the listing rule, the options and the errors of both sources, on the local disk. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SchemaAndOptionsTest {
    @TempDir
    Path dir;

    private static SparkSession spark() {
        return SparkTests.session();
    }

    private String uri(Path p) {
        return "file:" + p;
    }

    /** Writes OFRecords with feature {@code x} holding {@code counts[i]} int64 values in record i. */
    private Path ofrecords(Path file, int... counts) throws IOException {
        Files.createDirectories(file.getParent());
        try (RecordWriter w = RecordWriter.create(file)) {
            for (int i = 0; i < counts.length; i++) {
                long[] values = new long[counts[i]];
                java.util.Arrays.fill(values, i);
                w.write(Features.record(Map.of("x", Features.int64Feature(values), "n", Features.int32Feature(i))));
            }
        }
        return file;
    }

    @Test
    void aFeatureIsAScalarOnlyIfEverySampledRecordHoldsOneValue() throws IOException {
        Path file = ofrecords(dir.resolve("d/part-00000"), 1, 1, 1, 2, 1);

        StructType sampledFirstThree = spark().read().format("ofrecord").option("samplingLimit", "3").load(uri(file)).schema();
        StructType sampledAll = spark().read().format("ofrecord").load(uri(file)).schema();

        assertEquals(new StructType().add("n", DataTypes.IntegerType).add("x", DataTypes.LongType), sampledFirstThree);
        assertEquals(new StructType().add("n", DataTypes.IntegerType)
                .add("x", DataTypes.createArrayType(DataTypes.LongType, false)), sampledAll);
        Exception e = assertThrows(Exception.class,
                () -> spark().read().format("ofrecord").option("samplingLimit", "3").load(uri(file)).collectAsList());
        assertTrue(SparkRoundTripContract.messages(e).contains(
                "feature x holds 2 values, which column x of type bigint cannot read at record 3"), SparkRoundTripContract.messages(e));
    }

    @Test
    void aFeatureOfTwoKindsCannotBeInferred() throws IOException {
        Path file = dir.resolve("mixed");
        try (RecordWriter w = RecordWriter.create(file)) {
            w.write(Features.record(Map.of("x", Features.floatFeature(1f))));
            w.write(Features.record(Map.of("x", Features.bytesFeature("one"))));
        }

        Exception e = assertThrows(Exception.class, () -> spark().read().format("ofrecord").load(uri(file)));

        assertTrue(e.getMessage().contains("feature x is a float_list in record 0 of " + uri(file)
                + " but a bytes_list in record 1 of " + uri(file)), e.getMessage());
    }

    @Test
    void aFolderListsItsPartsInOrderAndLeavesOutMarkersChecksumsAndHiddenFiles() throws IOException {
        Path folder = dir.resolve("parts");
        ofrecords(folder.resolve("part-10"), 1);
        ofrecords(folder.resolve("part-2"), 1, 1);
        Files.writeString(folder.resolve("_SUCCESS"), "");
        Files.writeString(folder.resolve(".hidden"), "not records");
        Files.writeString(folder.resolve("notes.crc"), "not records");
        Files.createDirectories(folder.resolve("_temporary/0"));

        List<Row> rows = spark().read().format("ofrecord").load(uri(folder)).select("n").collectAsList();

        assertEquals(List.of(0, 1, 0), rows.stream().map(r -> r.getInt(0)).toList(), "part-2's records before part-10's");
        assertEquals(3, spark().read().format("ofrecord").load(uri(folder) + "/part-*").count());
        Exception missing = assertThrows(Exception.class, () -> spark().read().format("ofrecord").load(uri(dir.resolve("none"))));
        assertTrue(SparkRoundTripContract.messages(missing).contains("no such file or folder: " + uri(dir.resolve("none"))));
    }

    @Test
    void anEmptyFolderNeedsAGivenSchema() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty"));

        Exception e = assertThrows(Exception.class, () -> spark().read().format("tfrecord").load(uri(empty)));

        assertTrue(e.getMessage().contains("no tf.Example to infer a schema from"), e.getMessage());
        StructType given = new StructType().add("x", DataTypes.LongType);
        assertEquals(0, spark().read().format("tfrecord").schema(given).load(uri(empty)).count());
    }

    @Test
    void filesConvertedByTheProjectReadAsTheOriginals() throws IOException {
        Path of = ofrecords(dir.resolve("of/part-00000"), 1, 3, 2);
        Path tf = Files.createDirectories(dir.resolve("tf")).resolve("part-00000");
        FileConversion.convert(of, tf, FileConversion.Options.toTFRecord(Compression.GZIP));

        List<Row> fromOFRecord = spark().read().format("ofrecord").load(uri(of)).collectAsList();
        List<Row> fromTFRecord = spark().read().format("tfrecord").load(uri(tf)).collectAsList();

        // int32_list n became an int64_list: the same numbers, as longs.
        assertEquals(fromOFRecord.stream().map(r -> List.of((long) r.getInt(0), r.getList(1))).toList(),
                fromTFRecord.stream().map(r -> List.of(r.getLong(0), r.getList(1))).toList());
    }

    @Test
    void badOptionsAndColumnTypesAreRefusedBeforeAnyTaskRuns() {
        String out = uri(dir.resolve("out"));
        Dataset<Row> dates = spark().createDataFrame(List.of(RowFactory.create(Date.valueOf("2024-01-02"))),
                new StructType().add("day", DataTypes.DateType));

        Exception date = assertThrows(Exception.class, () -> dates.write().format("tfrecord").mode("overwrite").save(out));
        Exception compression = assertThrows(Exception.class,
                () -> spark().range(3).write().format("tfrecord").option("compression", "lz4").mode("overwrite").save(out));
        Exception sampling = assertThrows(Exception.class,
                () -> spark().read().format("tfrecord").option("samplingLimit", "0").load(out));

        assertTrue(SparkRoundTripContract.messages(date).contains("column day has type date, which tfrecord does not hold"),
                SparkRoundTripContract.messages(date));
        assertTrue(SparkRoundTripContract.messages(compression).contains("compression must be none, gzip or zlib: compression=lz4"));
        assertTrue(SparkRoundTripContract.messages(sampling).contains("samplingLimit must be > 0: samplingLimit=0"));
        assertTrue(Files.notExists(dir.resolve("out")), "a refused write wrote nothing");
    }

    @Test
    void anOFRecordRowWithNoValueIsRefused() {
        List<Row> rows = new ArrayList<>();
        rows.add(RowFactory.create(1L));
        rows.add(RowFactory.create((Object) null));
        Dataset<Row> df = spark().createDataFrame(rows, new StructType().add("x", DataTypes.LongType)).coalesce(1);

        Exception e = assertThrows(Exception.class,
                () -> df.write().format("ofrecord").mode("overwrite").save(uri(dir.resolve("nulls"))));

        assertTrue(SparkRoundTripContract.messages(e).contains("row 1 of partition 0 has no non-null column"),
                SparkRoundTripContract.messages(e));
        assertTrue(Files.notExists(dir.resolve("nulls/part-00000")), "a failed job left a part file");
    }

    @Test
    void gzipAndZlibTFRecordInputIsDetectedOrNamed() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("compressed"));
        List<byte[]> payloads = List.of(Digits.example(1).toByteArray(), Digits.example(2).toByteArray());
        Files.write(folder.resolve("part-00000"), StoredFiles.frame(payloads, Framing.TFRECORD, Compression.GZIP));
        Files.write(folder.resolve("part-00001"), StoredFiles.frame(payloads, Framing.TFRECORD, Compression.ZLIB));
        StructType id = new StructType().add("id", DataTypes.LongType);

        assertEquals(4, spark().read().format("tfrecord").schema(id).load(uri(folder)).count());
        assertEquals(2, spark().read().format("tfrecord").schema(id).option("compression", "gzip")
                .load(uri(folder.resolve("part-00000"))).count());
    }
}
