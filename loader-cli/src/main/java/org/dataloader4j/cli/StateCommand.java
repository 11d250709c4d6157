package org.dataloader4j.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.cli.internal.CliException;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.cli.internal.StateJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code loader state}: reads a reader's saved resume state in any of its three forms and prints
 * it as JSON, or converts it to another form.
 */
@Command(name = "state", mixinStandardHelpOptions = true,
        description = {"Read a saved reader state (what DataReader.state() returns, to resume a reader where it stood) "
                + "and print it as JSON, or convert it with --to. Its form is detected: bytes "
                + "(DatasetStateCodec.toBytes, starting DSST), JSON, or one line of text (DatasetStateCodec.toText).",
            "JSON: {\"kind\", \"fields\": {name: integer}, \"lists\": {name: [integers]}, \"upstream\": the wrapped "
                + "dataset's state or null}, from the outermost dataset in; integers are 64-bit."},
        footer = {"%nExamples:%n"
                + "  loader state checkpoints/step-1000/reader.state%n"
                + "  loader state reader.json --to bytes -o reader.state",
            ExitCodes.HELP})
final class StateCommand implements Callable<Integer> {
    /** The three forms of a saved state. */
    enum Form { json, text, bytes }

    @ParentCommand
    private Loader loader;

    @Parameters(paramLabel = "FILE", description = "a saved state: bytes, JSON or text")
    private Path file;

    @Option(names = "--to", paramLabel = "FORM", defaultValue = "json", description = "json (default), text or bytes")
    private Form to;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "write to OUT instead (needed for bytes)")
    private Path output;

    @Override
    public Integer call() throws IOException {
        if (to == Form.bytes && output == null) {
            throw new IllegalArgumentException("--to bytes needs -o OUT: bytes are not printed");
        }
        DatasetState state = read(file, Files.readAllBytes(file));
        if (output == null) {
            loader.terminal().out().println(to == Form.json ? StateJson.write(state) : DatasetStateCodec.toText(state));
        } else {
            Files.write(output, switch (to) {
                case json -> (StateJson.write(state) + "\n").getBytes(StandardCharsets.UTF_8);
                case text -> (DatasetStateCodec.toText(state) + "\n").getBytes(StandardCharsets.UTF_8);
                case bytes -> DatasetStateCodec.toBytes(state);
            });
        }
        return ExitCodes.OK;
    }

    /** The state in {@code content}, in the form its first bytes show. */
    private static DatasetState read(Path file, byte[] content) {
        Form form = detect(content);
        if (form == null) {
            throw new CliException(ExitCodes.BAD_DATA, file + ": not a dataset state: neither its bytes (DSST...), "
                    + "JSON ({...}) nor one line of text (kind{...}/...)");
        }
        try {
            return switch (form) {
                case bytes -> DatasetStateCodec.fromBytes(content);
                case json -> StateJson.read(new String(content, StandardCharsets.UTF_8));
                case text -> DatasetStateCodec.fromText(new String(content, StandardCharsets.US_ASCII));
            };
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCodes.BAD_DATA, file + ": " + e.getMessage());
        }
    }

    /**
     * Bytes if they start as {@link DatasetStateCodec#toBytes} output does, JSON if the first
     * byte but white space is an opening brace, text if they are one line of printable ASCII
     * (white space around it aside), else none (null): a file of anything else is not worth
     * quoting in an error.
     */
    private static Form detect(byte[] content) {
        if (DatasetStateCodec.looksLikeBytes(content)) {
            return Form.bytes;
        }
        String s = new String(content, StandardCharsets.ISO_8859_1).strip();
        if (s.startsWith("{")) {
            return Form.json;
        }
        return !s.isEmpty() && s.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? Form.text : null;
    }
}
