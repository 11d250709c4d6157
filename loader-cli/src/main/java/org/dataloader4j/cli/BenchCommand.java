package org.dataloader4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.dataloader4j.api.Batch;
import org.dataloader4j.cli.internal.ExitCodes;
import org.dataloader4j.cli.internal.FeatureOption;
import org.dataloader4j.cli.internal.FileFormat;
import org.dataloader4j.cli.internal.InputFile;
import org.dataloader4j.cli.internal.InputFiles;
import org.dataloader4j.cli.internal.Progress;
import org.dataloader4j.cli.internal.RecordScan;
import org.dataloader4j.cli.internal.Units;
import org.dataloader4j.core.decode.ValueCopier;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.ReaderMetrics;
import org.dataloader4j.core.reader.ReaderOptions;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.RawRecord;
import org.dataloader4j.image.ColorSpace;
import org.dataloader4j.image.ImageCodec;
import org.dataloader4j.image.ImageDecoder;
import org.dataloader4j.image.ImageTransform;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.tfrecord.FixedLenFeature;
import org.dataloader4j.tfrecord.TFRecordReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code loader bench}: the full reading pipeline over a folder of record files, with a
 * training loop that does nothing but take batches, so that the loop waits on the loader the
 * whole time. Reports what the command measures itself: a single-threaded framing pass, the
 * reader's build time, time to first batch, the read loop's records/s and MB/s, and the time
 * spent waiting inside {@code read()}. With {@code --image}, an image feature goes through the
 * fused training path ({@link ImageTransform#training}) or, with {@code --decode-only}, is
 * decoded whole ({@link ImageDecoder}); the report adds images/s and the codec that ran.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Run the full pipeline (load thread, ring, parse threads) over the record files in DIR "
                + "with a training loop that only takes batches, and report records/s, MB/s, the time "
                + "spent waiting in read() (input stall) and a breakdown by stage.",
            "First a single-threaded pass reads every frame (decompression, framing and CRCs, no parsing): "
                + "the rate that reading the files alone allows. It also warms the file cache for the pipeline run.",
            "With --image FEATURE, each record's JPEG or PNG in FEATURE goes through the training path (a random "
                + "resized crop to 224×224, a coin-flip mirror, ImageNet normalization, into NCHW float32), or with "
                + "--decode-only is decoded whole to RGB; the report adds images/s and the codec that ran."},
        footer = {"%nExamples:%n  loader bench data/ --format ofrecord --feature images:float32:784 "
                + "--feature labels:int64:1 --batch 256 --threads 2 --epochs 3",
            "  loader bench imagenet-of/ --image encoded --feature class/label:int64:1 --threads 8 --codec native", ExitCodes.HELP})
final class BenchCommand implements Callable<Integer> {
    @ParentCommand
    private Loader loader;

    @Mixin
    private RecordInputs inputs;

    @Option(names = "--feature", paramLabel = "NAME:TYPE:SHAPE",
            description = "a dense feature to decode, e.g. images:float32:784 (repeat for more; needed unless --image is given)")
    private List<String> features = List.of();

    @Option(names = "--image", paramLabel = "FEATURE",
            description = "a bytes feature of one JPEG or PNG a record, through the training path (RandomResizedCrop 224, flip, normalize)")
    private String image;

    @Option(names = "--decode-only", description = "with --image: decode whole images to RGB pixels instead of the training path")
    private boolean decodeOnly;

    @Option(names = "--dct-scaling", description = "with --image: decode large JPEG windows at 1/2, 1/4 or 1/8 size (libjpeg's scaled IDCT) before resizing")
    private boolean dctScaling;

    @Option(names = "--codec", paramLabel = "CODEC", converter = CodecOption.Converter.class,
            description = "with --image: native or imageio (default: native where it loads, else imageio)")
    private CodecOption codec;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "0",
            description = "with --image: the seed of the random crops and flips (default: ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--batch", paramLabel = "N", description = "records per batch (default: 256; 64 with --image)")
    private Integer batch;

    @Option(names = "--threads", paramLabel = "N", description = "parse threads (default: the number of processors)")
    private Integer threads;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "1", description = "passes over the files (default: ${DEFAULT-VALUE})")
    private int epochs;

    @Option(names = "--ring", paramLabel = "N", description = "slots in the reader's ring, a power of two (default: the reader's)")
    private Integer ring;

    @Option(names = "--shuffle", paramLabel = "SEED", description = "shuffle records with this seed (default: no shuffle)")
    private Long shuffle;

    @Option(names = "--skip-corrupt", paramLabel = "N",
            description = "skip up to N corrupt records, each replaced by the next good one (default: strict)")
    private Long skipCorrupt;

    @Override
    public Integer call() throws IOException {
        if (epochs < 1) {
            throw new IllegalArgumentException("--epochs must be > 0: epochs=" + epochs);
        }
        if (features.isEmpty() && image == null) {
            throw new IllegalArgumentException("give a feature to decode: --feature NAME:TYPE:SHAPE or --image FEATURE");
        }
        if (image == null && (decodeOnly || dctScaling || codec != null)) {
            throw new IllegalArgumentException((decodeOnly ? "--decode-only" : dctScaling ? "--dct-scaling" : "--codec")
                    + " needs --image FEATURE");
        }
        if (decodeOnly && dctScaling) {
            throw new IllegalArgumentException("--dct-scaling applies to the training path, not --decode-only");
        }
        if (batch == null) {
            batch = image != null ? 64 : 256;
        }
        List<FeatureOption> specs = features.stream().map(FeatureOption::parse).toList();
        ImageCodec imageCodec = image != null ? CodecOption.codec(codec) : null;
        try (InputFiles opened = inputs.open()) {
            return bench(opened.files(), specs, imageCodec);
        }
    }

    private int bench(List<InputFile> files, List<FeatureOption> specs, ImageCodec imageCodec) throws IOException {
        Framing framing = inputs.formatOf(files.get(0)).framing();
        PrintWriter out = loader.terminal().out();

        long fileBytes = 0;
        for (InputFile f : files) {
            fileBytes += f.size();
            if (framing == Framing.OFRECORD && FileFormat.of(f, Framing.OFRECORD).compression() != Compression.NONE) {
                throw new IllegalArgumentException(f + ": the OFRecord reader maps files and cannot read a compressed one");
            }
        }
        FramingPass pass = framingPass(files, framing, fileBytes);
        out.printf("bench %s: %s, %d %s, %s, %,d records; batch %d, %s, %d %s%n", inputs.shown(),
                FileFormat.name(framing), files.size(), files.size() == 1 ? "file" : "files", Units.megabytes(fileBytes),
                pass.records, batch, threads == null ? "default parse threads" : threads + " parse threads",
                epochs, epochs == 1 ? "epoch" : "epochs");
        out.printf("packed varints into int32 and int64 tensors: %s%n",
                ValueCopier.vectorVarints() ? "Vector API decoder (SIMD)" : "scalar decoder");
        if (image != null) {
            out.printf("images in %s: %s; codec %s%n", image, decodeOnly ? "decoded whole to RGB uint8 (--decode-only)"
                    : "training path (random resized crop to 224x224, flip, normalize; NCHW float32, seed " + seed
                            + (dctScaling ? "; DCT scaling" : "") + ")",
                    CodecOption.describe(imageCodec));
        }
        out.printf("framing pass (1 thread: read, decompress, frames, CRCs; no parsing)%n");
        out.printf("  %-28s %s  %s  %s%n", "all files", Units.seconds(pass.nanos),
                Units.perSecond(pass.records, pass.nanos, "records"), Units.megabytesPerSecond(pass.payloadBytes, pass.nanos));

        Run run = pipeline(files, framing, specs, imageCodec, pass.records * epochs);
        long loop = run.loopEnd - run.built;
        long payload = pass.payloadBytes * epochs;
        out.printf("pipeline (load thread, ring, parse threads; the loop only takes batches)%n");
        out.printf("  %-28s %s%n", "build (open, map, plan)", Units.seconds(run.built - run.start));
        out.printf("  %-28s %s%n", "time to first batch", Units.seconds(run.firstBatch - run.built));
        out.printf("  %-28s %s  %s  %s of records, %s of tensors%n", "read loop, " + String.format("%,d", run.records) + " records",
                Units.seconds(loop), Units.perSecond(run.records, loop, "records"), Units.megabytesPerSecond(payload, loop),
                Units.megabytesPerSecond(run.tensorBytes, loop));
        if (image != null) {
            out.printf("  %-28s %s  %s%n", "images, " + String.format("%,d", run.records), Units.seconds(loop),
                    Units.perSecond(run.records, loop, "images"));
        }
        out.printf("  %-28s %s  (%s of the read loop)%n", "input stall (inside read())", Units.seconds(run.stall),
                Units.percent(run.stall, loop));
        out.printf("  %-28s %s%n", "close", Units.seconds(run.closed - run.loopEnd));
        ReaderMetrics m = run.metrics;
        out.printf("stages (the reader's own counters)%n");
        out.printf("  %-28s %s  (%s of the read loop)%n", "load: in the dataset", Units.seconds(m.loadBusy().toNanos()),
                Units.percent(m.loadBusy().toNanos(), loop));
        out.printf("  %-28s %s  (%s of the read loop)%n", "load: waiting for a slot", Units.seconds(m.loadBlocked().toNanos()),
                Units.percent(m.loadBlocked().toNanos(), loop));
        out.printf("  %-28s %s  (%s of the read loop)%n", "parse: in the parser", Units.seconds(m.parseBusy().toNanos()),
                Units.percent(m.parseBusy().toNanos(), loop));
        out.printf("  %-28s %,d samples, %,d batches parsed, %,d read, %,d corrupt records skipped%n", "counted", m.samples(),
                m.batchesParsed(), m.batchesRead(), m.corruptSkipped());
        return ExitCodes.OK;
    }

    /** What the framing pass saw. */
    private record FramingPass(long records, long payloadBytes, long nanos) {
    }

    private FramingPass framingPass(List<InputFile> files, Framing framing, long fileBytes) throws IOException {
        long records = 0;
        long payload = 0;
        long done = 0;
        long start = System.nanoTime();
        try (Progress progress = loader.terminal().progress("framing pass", fileBytes)) {
            for (InputFile f : files) {
                try (RecordScan scan = RecordScan.open(f, FileFormat.of(f, framing))) {
                    for (RawRecord r = scan.next(); r != null; r = scan.next()) {
                        records++;
                        payload += r.payload().length;
                        progress.update(done + scan.position(), records + " records");
                    }
                }
                done += f.size();
            }
        }
        return new FramingPass(records, payload, System.nanoTime() - start);
    }

    /** The pipeline run's clock readings (System.nanoTime) and counts. */
    private static final class Run {
        long start;
        long built;
        long firstBatch;
        long loopEnd;
        long closed;
        long stall;
        long records;
        long tensorBytes;
        ReaderMetrics metrics;
    }

    private Run pipeline(List<InputFile> files, Framing framing, List<FeatureOption> specs, ImageCodec imageCodec, long expected) {
        Run run = new Run();
        run.start = System.nanoTime();
        try (DataReader reader = build(files, framing, specs, imageCodec);
             Progress progress = loader.terminal().progress("pipeline", expected)) {
            run.built = System.nanoTime();
            while (true) {
                long before = System.nanoTime();
                Batch b = reader.read();
                long after = System.nanoTime();
                run.stall += after - before;
                if (b == null) {
                    run.loopEnd = after;
                    break;
                }
                if (run.records == 0) {
                    run.firstBatch = after;
                }
                run.records += b.size();
                for (String name : b.names()) {
                    if (decodeOnly && name.equals(image)) {
                        // Ragged pixels: the bytes of this batch's rows, not the slot's capacity.
                        run.tensorBytes += b.ragged(name).offset(b.size());
                    } else {
                        run.tensorBytes += b.tensor(name).segment().byteSize();
                    }
                }
                progress.update(run.records, Units.perSecond(run.records, after - run.built, "records"));
            }
            run.metrics = reader.metrics();
        }
        run.closed = System.nanoTime();
        if (run.records == 0) {
            run.firstBatch = run.loopEnd;
        }
        return run;
    }

    private DataReader build(List<InputFile> files, Framing framing, List<FeatureOption> specs, ImageCodec imageCodec) {
        if (framing == Framing.OFRECORD) {
            OFRecordReader.Builder b = OFRecordReader.builder();
            specs.forEach(s -> b.decoder(OFRecordRawDecoder.of(s.name(), s.shape(), s.dataType())));
            if (image != null) {
                b.imageCodec(imageCodec);
                images(b::imageDecoder, b::imageTransform);
            }
            return configure(b, files).build();
        }
        TFRecordReader.Builder b = TFRecordReader.builder();
        specs.forEach(s -> b.feature(FixedLenFeature.of(s.name(), s.shape(), s.dataType())));
        if (image != null) {
            b.imageCodec(imageCodec);
            images(b::imageDecoder, b::imageTransform);
        }
        return configure(b, files).build();
    }

    /** Adds the image feature's decoder (with --decode-only) or training transform to a reader's builder. */
    private void images(Consumer<ImageDecoder> decoder, Consumer<ImageTransform> transform) {
        if (decodeOnly) {
            decoder.accept(ImageDecoder.of(image).colorSpace(ColorSpace.RGB));
        } else {
            transform.accept(ImageTransform.training(image, seed).dctScaling(dctScaling));
        }
    }

    /** The reader's options; remote files are read through their stores, with the store options given. */
    private <B extends org.dataloader4j.core.reader.FilePipelineBuilder<B>> B configure(B b, List<InputFile> files) {
        inputs.readFiles(b, files).batchSize(batch).epochs(epochs);
        ReaderOptions.Builder reader = ReaderOptions.builder().name("bench");
        if (threads != null) {
            reader.parseThreads(threads);
        }
        if (ring != null) {
            reader.ringSize(ring);
        }
        b.reader(reader.build());
        if (shuffle != null) {
            b.randomShuffle(true).seed(shuffle);
        }
        if (skipCorrupt != null) {
            b.skipCorrupt(skipCorrupt);
        }
        return b;
    }
}
