package org.dataloader4j.cli.internal;

/**
 * A failure the command has already put into words, with the exit code it ends the process
 * with: printed as one line, {@code loader: MESSAGE}, without a stack trace.
 */
public final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    /** Ends the command with {@code exitCode} (one of {@link ExitCodes}) and {@code message}. */
    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    /** The exit code. */
    public int exitCode() {
        return exitCode;
    }
}
