package org.dataloader4j.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assertions;

/**
 * Keeps the Java snippets of a document true: every {@code ```java} block of the document must
 * be, line for line, a region of source code that a test compiles and runs. A region is marked in
 * the source by a line {@code // --- <doc> snippet: <name> ---} before it and
 * {@code // --- <doc> snippet end ---} after it; regions and blocks are compared without their
 * common indentation and trailing spaces, so a region may sit inside a class or a method.
 */
public final class DocSnippets {
    private static final Pattern START = Pattern.compile("^\\s*// --- (\\S+) snippet: (.+) ---\\s*$");
    private static final Pattern END = Pattern.compile("^\\s*// --- (\\S+) snippet end ---\\s*$");

    private DocSnippets() {
    }

    /** One block of a document, from its line {@code line} (counted from 1). */
    public record Block(int line, String text) {
    }

    /**
     * The file {@code relative} of the project, found from the working directory up: a test runs
     * in its module's folder, under the project's root.
     *
     * @throws AssertionError if no folder above holds it
     */
    public static Path projectFile(String relative) {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve(relative);
            if (Files.exists(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("no " + relative + " in " + Path.of("").toAbsolutePath() + " or above");
    }

    /** The {@code ```java} blocks of {@code markdown}, in order. */
    public static List<Block> javaBlocks(Path markdown) {
        List<String> lines = read(markdown);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals("```java")) {
                continue;
            }
            int start = i + 1;
            int end = start;
            while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                end++;
            }
            if (end == lines.size()) {
                throw new AssertionError(markdown + ":" + (i + 1) + ": a java block that never ends");
            }
            blocks.add(new Block(i + 1, normalize(lines.subList(start, end))));
            i = end;
        }
        return blocks;
    }

    /** The regions of {@code source} marked for the document {@code doc}, in order. */
    public static List<String> regions(Path source, String doc) {
        List<String> lines = read(source);
        List<String> regions = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher start = START.matcher(lines.get(i));
            if (!start.matches() || !start.group(1).equals(doc)) {
                continue;
            }
            int end = i + 1;
            while (end < lines.size() && !isEnd(lines.get(end), doc)) {
                end++;
            }
            if (end == lines.size()) {
                throw new AssertionError(source + ":" + (i + 1) + ": snippet " + start.group(2) + " never ends");
            }
            regions.add(normalize(lines.subList(i + 1, end)));
            i = end;
        }
        return regions;
    }

    private static boolean isEnd(String line, String doc) {
        Matcher m = END.matcher(line);
        return m.matches() && m.group(1).equals(doc);
    }

    /**
     * Checks that {@code markdown} has Java blocks and that each is a region marked for it (by its
     * file name without {@code .md}) in one of {@code sources}, and that every such region is
     * shown in the document.
     */
    public static void assertEveryBlockIsRun(Path markdown, Path... sources) {
        String doc = markdown.getFileName().toString().replaceFirst("\\.md$", "");
        List<String> regions = new ArrayList<>();
        for (Path source : sources) {
            regions.addAll(regions(source, doc));
        }
        List<Block> blocks = javaBlocks(markdown);
        Assertions.assertFalse(blocks.isEmpty(), markdown + " has no java blocks");
        for (Block block : blocks) {
            Assertions.assertTrue(regions.contains(block.text()), markdown + ":" + block.line()
                    + ": this block is no region marked `// --- " + doc + " snippet: ... ---` in " + List.of(sources)
                    + ", so no test runs it:\n" + block.text());
        }
        List<String> shown = blocks.stream().map(Block::text).toList();
        for (String region : regions) {
            Assertions.assertTrue(shown.contains(region), "a region marked for " + markdown + " is not in it:\n" + region);
        }
    }

    /** The lines without their common indentation and trailing spaces, joined by newlines. */
    static String normalize(List<String> lines) {
        int indent = Integer.MAX_VALUE;
        for (String line : lines) {
            if (!line.isBlank()) {
                indent = Math.min(indent, line.length() - line.stripLeading().length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            String stripped = line.isBlank() ? "" : line.substring(indent).stripTrailing();
            out.append(stripped).append('\n');
        }
        return out.toString().strip();
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
