package org.dataloader4j.cli;

import org.dataloader4j.cli.internal.CliException;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.image.ImageCodec;
import org.dataloader4j.image.ImageCodecs;
import picocli.CommandLine;

/** The image codecs a command line can name: {@code native} or {@code imageio}. */
enum CodecOption {
    /** libjpeg-turbo and libpng, where they load. */
    NATIVE,
    /** JDK ImageIO. */
    IMAGEIO;

    /**
     * The codec {@code option} names, or {@link ImageCodecs#preferred()} for none.
     *
     * @throws CliException (a usage error) if the native codec is named and cannot be loaded here
     */
    static ImageCodec codec(CodecOption option) {
        if (option == null) {
            return ImageCodecs.preferred();
        }
        return switch (option) {
            case IMAGEIO -> ImageCodecs.imageIO();
            case NATIVE -> ImageCodecs.nativeCodec().orElseThrow(() -> new CliException(ExitCodes.USAGE,
                    "--codec native: the native codec cannot be used here (" + ImageCodecs.nativeUnavailableReason() + ")"));
        };
    }

    /** Reads {@code native} or {@code imageio}, the lower-case names ({@code native} is a Java keyword). */
    static final class Converter implements CommandLine.ITypeConverter<CodecOption> {
        @Override
        public CodecOption convert(String value) {
            return switch (value) {
                case "native" -> NATIVE;
                case "imageio" -> IMAGEIO;
                default -> throw new CommandLine.TypeConversionException("expected native or imageio: codec=" + value);
            };
        }
    }

    /**
     * The codec in words, as the reports name it: {@code native (libjpeg-turbo, libpng)}, or
     * {@code imageio (JDK ImageIO)} and why the native codec is not used where it cannot be.
     */
    static String describe(ImageCodec codec) {
        if (codec.name().equals("native")) {
            return "native (libjpeg-turbo, libpng)";
        }
        String reason = ImageCodecs.nativeUnavailableReason();
        return "imageio (JDK ImageIO" + (reason != null ? "; the native codec is unavailable: " + reason : "") + ")";
    }
}
