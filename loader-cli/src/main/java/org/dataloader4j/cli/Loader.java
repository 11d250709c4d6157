package org.dataloader4j.cli;

import org.dataloader4j.cli.internal.ExitCodes;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code loader} command: everything a user does with record files, from the shell.
 *
 * <pre>
 * loader demo                          train a softmax classifier on a cached MNIST-like dataset
 * loader inspect data/part-00000 -n 2  format, record count, schema, first records
 * loader verify data/                  check every frame, CRC and protobuf; exit 1 if any is bad
 * loader convert in.tfrecord -o out/   TFRecord, OFRecord, CSV, image folders to record files
 * loader index data/                   write the record-index sidecars
 * loader bench data/ --feature images:float32:784 --feature labels:int64:1
 * loader preview data/ --image encoded -o grid.png   the first batch's augmented images, as a PNG
 * loader state reader.state            a saved reader state as JSON, or in another form
 * </pre>
 *
 * <p>Errors are one line, {@code loader: CAUSE}, with the exit codes of {@link ExitCodes}.
 */
@Command(name = "loader", mixinStandardHelpOptions = true, versionProvider = Loader.Version.class,
        description = "Inspect, verify, convert, index and benchmark OFRecord and TFRecord files, "
                + "preview their images, read saved reader states, or run the demo.",
        subcommands = {DemoCommand.class, InspectCommand.class, VerifyCommand.class, ConvertCommand.class,
            IndexCommand.class, BenchCommand.class, PreviewCommand.class, SoakCommand.class, StateCommand.class, CommandLine.HelpCommand.class},
        footer = {"%nExample:%n  loader inspect data/part-00000 -n 2", ExitCodes.HELP})
public final class Loader implements Runnable {
    private final Terminal terminal;
    @Spec
    private CommandSpec spec;

    private Loader(Terminal terminal) {
        this.terminal = terminal;
    }

    /** Runs {@code loader} with {@code args} and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(run(Terminal.system(), args));
    }

    /**
     * Runs {@code loader} with {@code args}, writing to {@code terminal}, and returns the exit
     * code; never exits the process.
     */
    public static int run(Terminal terminal, String... args) {
        CommandLine cli = new CommandLine(new Loader(terminal));
        cli.setOut(terminal.out());
        cli.setErr(terminal.err());
        cli.setParameterExceptionHandler((e, a) -> {
            terminal.err().println("loader: " + e.getMessage());
            terminal.err().println("        see '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'");
            return ExitCodes.USAGE;
        });
        cli.setExecutionExceptionHandler((e, c, parsed) -> {
            terminal.err().println("loader: " + ExitCodes.describe(e));
            return ExitCodes.of(e);
        });
        int code = cli.execute(args);
        terminal.out().flush();
        terminal.err().flush();
        return code;
    }

    /** The terminal the commands write to. */
    Terminal terminal() {
        return terminal;
    }

    /** {@code loader} alone: the usage, on standard output. */
    @Override
    public void run() {
        spec.commandLine().usage(terminal.out());
    }

    /** The version from the jar's manifest, if any. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Loader.class.getPackage().getImplementationVersion();
            return new String[] {"loader (dataloader4j) " + (v != null ? v : "development build")};
        }
    }
}
