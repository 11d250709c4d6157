package org.dataloader4j.spark.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dataloader4j.format.Compression;

/**
 * The data source's options, read from Spark's option map (keys ignore case) and checked
 * eagerly, with {@code name=value} messages.
 *
 * @param paths         the files, folders or globs to read, or the one folder to write
 * @param samplingLimit how many records schema inference reads, at most
 * @param compression   the compression of files read ({@code null}: detected per file), or of
 *                      files written ({@link Compression#NONE} unless given)
 * @param verifyCrc     whether TFRecord CRCs are checked on reading
 */
record SourceOptions(List<String> paths, int samplingLimit, Compression compression, boolean verifyCrc)
        implements Serializable {
    /** OneFlow's connector's default. */
    static final int DEFAULT_SAMPLING_LIMIT = 1024;

    private static final String PATH = "path";
    private static final String PATHS = "paths";
    private static final String SAMPLING_LIMIT = "samplingLimit";
    private static final String COMPRESSION = "compression";
    private static final String VERIFY_CRC = "verifyCrc";

    /** Checks the arguments. */
    SourceOptions {
        paths = List.copyOf(paths);
        if (samplingLimit < 1) {
            throw new IllegalArgumentException("samplingLimit must be > 0: samplingLimit=" + samplingLimit);
        }
    }

    /** The options in {@code options}, whose keys are looked up ignoring case. */
    static SourceOptions of(Map<String, String> options) {
        return new SourceOptions(paths(options), samplingLimit(options), compression(options),
                bool(options, VERIFY_CRC, true));
    }

    /** Whether {@code key} is one of the data source's own options rather than one for Hadoop. */
    static boolean isOwn(String key) {
        return List.of(PATH, PATHS, SAMPLING_LIMIT, COMPRESSION, VERIFY_CRC).stream().anyMatch(key::equalsIgnoreCase);
    }

    /** The compression to write: the option given, or none. */
    Compression writeCompression() {
        return compression != null ? compression : Compression.NONE;
    }

    /** The one folder written to. */
    String writePath() {
        if (paths.size() != 1) {
            throw new IllegalArgumentException("writing needs exactly one path, the output folder: paths=" + paths);
        }
        return paths.get(0);
    }

    private static String get(Map<String, String> options, String key) {
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().equalsIgnoreCase(key)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** Spark passes one path as {@code path}, several as {@code paths}, a JSON array. */
    private static List<String> paths(Map<String, String> options) {
        List<String> out = new ArrayList<>();
        String one = get(options, PATH);
        if (one != null) {
            out.add(one);
        }
        String many = get(options, PATHS);
        if (many != null) {
            try {
                out.addAll(List.of(new ObjectMapper().readValue(many, String[].class)));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("paths must be a JSON array of strings: paths=" + many, e);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no path given: load(path) or save(path) names the files");
        }
        return out;
    }

    private static int samplingLimit(Map<String, String> options) {
        String value = get(options, SAMPLING_LIMIT);
        if (value == null) {
            return DEFAULT_SAMPLING_LIMIT;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("samplingLimit must be a positive integer: samplingLimit=" + value, e);
        }
    }

    private static Compression compression(Map<String, String> options) {
        String value = get(options, COMPRESSION);
        if (value == null) {
            return null;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "none", "" -> Compression.NONE;
            case "gzip" -> Compression.GZIP;
            case "zlib" -> Compression.ZLIB;
            default -> throw new IllegalArgumentException("compression must be none, gzip or zlib: compression=" + value);
        };
    }

    private static boolean bool(Map<String, String> options, String key, boolean absent) {
        String value = get(options, key);
        if (value == null) {
            return absent;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false: " + key + "=" + value);
        };
    }
}
