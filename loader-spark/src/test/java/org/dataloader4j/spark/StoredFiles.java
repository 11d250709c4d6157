package org.dataloader4j.spark;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.PartFileNames;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.format.RecordReader;
import org.dataloader4j.format.RecordWriter;

/**
 * The project's own readers and writers over any Hadoop file system URI, so that a round trip
 * test runs the same against {@code file://}, {@code hdfs://} or {@code s3a://}.
 */
final class StoredFiles {
    private StoredFiles() {
    }

    static FileSystem fs(String uri) throws IOException {
        return new Path(uri).getFileSystem(SparkTests.session().sparkContext().hadoopConfiguration());
    }

    /** The names in folder {@code dir}, hidden ones included, sorted. */
    static List<String> names(String dir) throws IOException {
        List<String> out = new ArrayList<>();
        for (FileStatus s : fs(dir).listStatus(new Path(dir))) {
            out.add(s.getPath().getName());
        }
        out.sort(null);
        return out;
    }

    /** The data files' names in folder {@code dir}, in part order. */
    static List<String> dataFiles(String dir) throws IOException {
        List<String> out = new ArrayList<>(names(dir).stream().filter(PartFileNames::isDataFile).toList());
        out.sort(PartFileNames.LISTING_ORDER);
        return out;
    }

    /** Every payload of {@code file}, compression detected, CRCs checked. */
    static List<byte[]> read(String file, Framing framing) throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (RecordReader in = RecordReader.of(fs(file).open(new Path(file)), file, framing, null, true)) {
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                out.add(r.payload());
            }
        }
        return out;
    }

    /** The first bytes of {@code file}. */
    static byte[] head(String file, int n) throws IOException {
        try (var in = fs(file).open(new Path(file))) {
            return in.readNBytes(n);
        }
    }

    /** The bytes of a record file of {@code payloads}. */
    static byte[] frame(List<byte[]> payloads, Framing framing, Compression compression) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (RecordWriter w = RecordWriter.of(bytes, framing, compression)) {
            for (byte[] p : payloads) {
                w.write(p);
            }
        }
        return bytes.toByteArray();
    }

    /** Writes {@code bytes} to {@code file}, replacing it. */
    static void put(String file, byte[] bytes) throws IOException {
        try (OutputStream out = fs(file).create(new Path(file), true)) {
            out.write(bytes);
        }
    }
}
