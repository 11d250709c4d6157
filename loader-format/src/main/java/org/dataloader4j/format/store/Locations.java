package org.dataloader4j.format.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The rules every store shares for naming files: what a location string means, how a location
 * is shown, which files of a folder hold data, and OneFlow's part names.
 */
public final class Locations {
    /** A scheme of two or more characters, then {@code :}: one letter is a Windows drive. */
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+:.*");

    private Locations() {
    }

    /**
     * {@code location} as a URI: one with a scheme ({@code hdfs://nn:8020/data}, {@code s3a://bucket/x},
     * {@code file:///data}) as written, anything else as a local path.
     *
     * @throws IllegalArgumentException if it has a scheme but is not a valid URI
     */
    public static URI parse(String location) {
        Objects.requireNonNull(location, "location");
        if (!SCHEME.matcher(location).matches()) {
            return Path.of(location).toAbsolutePath().normalize().toUri();
        }
        try {
            return new URI(location);
        } catch (URISyntaxException e) {
            // The message would repeat the location, which may hold user information.
            throw new IllegalArgumentException("not a valid location: " + displayString(location) + " (" + e.getReason() + ")");
        }
    }

    /** Whether {@code location} is on the local file system: no scheme, or {@code file}. */
    public static boolean isLocal(URI location) {
        String scheme = location.getScheme();
        return scheme == null || scheme.equalsIgnoreCase("file");
    }

    /** The lower-case scheme of {@code location}, {@code "file"} if it has none. */
    public static String scheme(URI location) {
        String scheme = location.getScheme();
        return scheme == null ? "file" : scheme.toLowerCase(Locale.ROOT);
    }

    /**
     * {@code location} as shown in messages and logs: without its user information
     * ({@code s3a://key:secret@bucket/x} shows as {@code s3a://bucket/x}), its query and its
     * fragment, where credentials may also be written.
     */
    public static String display(URI location) {
        if (location.getRawAuthority() == null) {
            return location.getScheme() == null ? location.getPath() : location.getScheme() + ":" + location.getPath();
        }
        String host = location.getHost() != null ? location.getHost() : hostOf(location.getRawAuthority());
        return location.getScheme() + "://" + host + (location.getPort() >= 0 ? ":" + location.getPort() : "")
                + (location.getPath() == null ? "" : location.getPath());
    }

    private static String hostOf(String authority) {
        int at = authority.lastIndexOf('@');
        return at < 0 ? authority : authority.substring(at + 1);
    }

    private static String displayString(String location) {
        int scheme = location.indexOf("://");
        int at = location.indexOf('@');
        int slash = scheme < 0 ? -1 : location.indexOf('/', scheme + 3);
        if (scheme >= 0 && at > scheme && (slash < 0 || at < slash)) {
            return location.substring(0, scheme + 3) + location.substring(at + 1);
        }
        return location;
    }

    /** The last segment of {@code location}'s path. */
    public static String name(URI location) {
        String path = location.getPath();
        if (path == null) {
            return "";
        }
        int end = path.endsWith("/") ? path.length() - 1 : path.length();
        return path.substring(path.lastIndexOf('/', end - 1) + 1, end);
    }

    /** The file {@code name} in folder {@code dir}. */
    public static URI resolve(URI dir, String name) {
        String path = dir.getPath() == null || dir.getPath().isEmpty() ? "/" : dir.getPath();
        URI folder = path.endsWith("/") ? dir : withPath(dir, path + "/");
        return folder.resolve(name);
    }

    private static URI withPath(URI uri, String path) {
        try {
            return new URI(uri.getScheme(), uri.getRawAuthority() == null ? null : uri.getAuthority(), path,
                    uri.getQuery(), uri.getFragment());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("cannot resolve a file in " + display(uri), e);
        }
    }
}
