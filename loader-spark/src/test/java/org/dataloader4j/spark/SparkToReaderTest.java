package org.dataloader4j.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FileSystem;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.Shape;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.hadoop.RemoteServers;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.tfrecord.FixedLenFeature;
import org.dataloader4j.tfrecord.TFRecordReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The path of docs/remote-and-spark.md end to end: a Spark job writes a DataFrame as part files
 * on the local disk, HDFS or S3, and dataloader4j's training readers read them there, by their
 * URI, with the values of the DataFrame's rows. JDK 25 only (tag {@code remote}): the readers are
 * Java 25 modules.
 */
@Tag("remote")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SparkToReaderTest {
    private static final int ROWS = 40;
    private static final AtomicInteger FOLDERS = new AtomicInteger();

    @TempDir
    static Path local;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"file, ofrecord", "file, tfrecord", "hdfs, ofrecord", "hdfs, tfrecord", "s3a, ofrecord", "s3a, tfrecord"})
    void theReadersTrainFromWhatSparkWrote(String store, String format) throws IOException {
        Map<String, String> options = store.equals("s3a") ? RemoteServers.s3Options() : Map.of();
        options.forEach(SparkRoundTripContract.spark().sparkContext().hadoopConfiguration()::set);
        String dir = folder(store);
        var writer = SparkRoundTripContract.digits(ROWS, 3).write().format(format).mode("overwrite");
        if (format.equals("tfrecord")) {
            writer = writer.option("compression", "gzip");
        }
        writer.save(dir);

        Map<Long, Integer> rowOfId = new TreeMap<>();
        for (int i = 0; i < ROWS; i++) {
            rowOfId.put(Digits.id(i), i);
        }
        int read = 0;
        try (DataReader reader = reader(format, URI.create(dir), options)) {
            for (Batch batch : reader) {
                for (int r = 0; r < batch.size(); r++) {
                    long id = batch.tensor("id").getLong(r);
                    Integer i = rowOfId.remove(id);
                    assertNotNull(i, "a row of the DataFrame, once: id " + id);
                    float[] pixels = new float[Digits.PIXELS];
                    for (int p = 0; p < pixels.length; p++) {
                        pixels[p] = batch.tensor("pixels").getFloat((long) r * Digits.PIXELS + p);
                    }
                    assertArrayEquals(Digits.pixels(i), pixels, "pixels of row " + i);
                    read++;
                }
            }
        }
        assertEquals(ROWS, read);
    }

    /** A fresh folder URI on {@code store}. */
    private static String folder(String store) throws IOException {
        String name = "spark-to-reader-" + FOLDERS.getAndIncrement();
        String dir = switch (store) {
            case "file" -> local.resolve(name).toUri().toString();
            case "hdfs" -> RemoteServers.hdfs().resolve("/" + name).toString();
            default -> RemoteServers.s3Bucket().resolve(name).toString();
        };
        FileSystem fs = StoredFiles.fs(dir);
        fs.delete(new org.apache.hadoop.fs.Path(dir), true);
        return dir;
    }

    /** The training reader of {@code format} over the part files of {@code dir}, as listed there. */
    private static DataReader reader(String format, URI dir, Map<String, String> options) {
        if (format.equals("ofrecord")) {
            OFRecordReader.Builder b = OFRecordReader.builder().dataDir(dir).listParts(true).batchSize(7)
                    .decoder(OFRecordRawDecoder.of("id", Shape.of(1), DataType.INT64))
                    .decoder(OFRecordRawDecoder.of("pixels", Shape.of(Digits.PIXELS), DataType.FLOAT32));
            options.forEach(b::storeOption);
            return b.build();
        }
        TFRecordReader.Builder b = TFRecordReader.builder().dataDir(dir).listParts(true).batchSize(7)
                .feature(FixedLenFeature.of("id", Shape.of(1), DataType.INT64))
                .feature(FixedLenFeature.of("pixels", Shape.of(Digits.PIXELS), DataType.FLOAT32));
        options.forEach(b::storeOption);
        return b.build();
    }
}
