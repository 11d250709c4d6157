package org.dataloader4j.spark.internal;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.dataloader4j.format.PartFileNames;

/**
 * The files a read covers, through Hadoop's {@link FileSystem} (so {@code file://},
 * {@code hdfs://} and {@code s3a://} alike): each path is a file, a folder or a glob. A folder
 * gives its data files in part order, by OneFlow's listing rule ({@link PartFileNames}): no
 * {@code _SUCCESS}, {@code _temporary}, {@code .crc} or hidden files, and no subfolders. A file
 * named explicitly is read whatever its name.
 */
final class PartListing {
    private PartListing() {
    }

    /**
     * The files of {@code paths}, in the order given and part order within a folder, each once.
     *
     * @throws FileNotFoundException naming a path that matches nothing
     */
    static List<FileStatus> list(Configuration conf, List<String> paths) throws IOException {
        Map<Path, FileStatus> files = new LinkedHashMap<>();
        for (String given : paths) {
            Path path = new Path(given);
            FileSystem fs = path.getFileSystem(conf);
            FileStatus[] matches = fs.globStatus(path);
            if (matches == null || matches.length == 0) {
                throw new FileNotFoundException("no such file or folder: " + given);
            }
            Arrays.sort(matches, Comparator.comparing(s -> s.getPath().getName(), PartFileNames.LISTING_ORDER));
            for (FileStatus match : matches) {
                if (match.isDirectory()) {
                    for (FileStatus file : folder(fs, match.getPath())) {
                        files.putIfAbsent(file.getPath(), file);
                    }
                } else {
                    files.putIfAbsent(match.getPath(), match);
                }
            }
        }
        return new ArrayList<>(files.values());
    }

    /** The data files directly in {@code dir}, in part order. */
    static List<FileStatus> folder(FileSystem fs, Path dir) throws IOException {
        List<FileStatus> out = new ArrayList<>();
        for (FileStatus s : fs.listStatus(dir)) {
            if (s.isFile() && PartFileNames.isDataFile(s.getPath().getName())) {
                out.add(s);
            }
        }
        out.sort(Comparator.comparing(s -> s.getPath().getName(), PartFileNames.LISTING_ORDER));
        return out;
    }
}
