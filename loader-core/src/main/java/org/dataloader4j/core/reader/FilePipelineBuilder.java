package org.dataloader4j.core.reader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;
import org.dataloader4j.api.Dataset;
import org.dataloader4j.api.Parser;
import org.dataloader4j.api.RandomAccessDataset;
import org.dataloader4j.core.dataset.BatchDataset;
import org.dataloader4j.core.dataset.Checks;
import org.dataloader4j.core.dataset.DistributedTrainingDataset;
import org.dataloader4j.core.dataset.DistributedTrainingOptions;
import org.dataloader4j.core.dataset.GroupBatchDataset;
import org.dataloader4j.core.dataset.GroupBatchOptions;
import org.dataloader4j.core.dataset.RandomShuffleDataset;
import org.dataloader4j.core.dataset.RecordSlice;
import org.dataloader4j.core.dataset.SkipCorruptDataset;
import org.dataloader4j.core.dataset.SkipPolicy;
import org.dataloader4j.core.dataset.ValidMaskParser;
import org.dataloader4j.core.decode.RecordFeatures;
import org.dataloader4j.core.files.CompressedFileException;
import org.dataloader4j.core.files.FileOrder;
import org.dataloader4j.core.files.FrameReader;
import org.dataloader4j.core.files.PartFiles;
import org.dataloader4j.core.files.RecordFiles;
import org.dataloader4j.core.files.RecordStream;
import org.dataloader4j.core.files.RemoteRecordDataset;
import org.dataloader4j.core.files.StreamedRecordDataset;
import org.dataloader4j.core.reader.internal.SkipBudget;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.store.FileStore;
import org.dataloader4j.format.store.FileStores;
import org.dataloader4j.format.store.Locations;
import org.dataloader4j.format.store.StoredFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The options every reader of part files shares, with OneFlow's names and defaults, and the
 * pipeline they build: {@code <format dataset> → [RandomShuffleDataset] → BatchDataset →
 * DataReader}, or with {@link #groupBy} a {@link GroupBatchDataset} in place of the
 * {@code BatchDataset}. A format's builder (such as {@code MiniReader.Builder}) extends it, adds its own
 * options and calls {@link #assemble} (or {@link #assembleRecords} for a format of framed
 * records). Every setter checks its argument at once.
 *
 * <p>Reading is strict: the first corrupt record fails {@code read()}. With {@link #skipCorrupt},
 * corrupt records are replaced by good ones, within a budget: in record files read by number, by
 * the parse thread that meets one, with the next good record in the files; elsewhere by a
 * {@link SkipCorruptDataset} right above the format's dataset, with the records after it.
 *
 * <p>Ranks share the data by whole files ({@link #shard}, OneFlow's way) or, for formats of
 * framed records, by records ({@link #distributed}): then the source is a record index over
 * every file and a {@link DistributedTrainingDataset} deals out its records, with equal step
 * counts on every rank. How the reader itself runs is one {@link ReaderOptions} ({@link #reader}).
 *
 * <p>Longer than most classes: it is mostly OneFlow's options, one checked setter each with its
 * default written out, and the assembly they feed.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class FilePipelineBuilder<B extends FilePipelineBuilder<B>> {
    private static final Logger LOG = LoggerFactory.getLogger(FilePipelineBuilder.class);

    private Path dataDir;
    private List<Path> files;
    private int dataPartNum = 1;
    private String partNamePrefix = PartFiles.DEFAULT_PREFIX;
    private int partNameSuffixLength = PartFiles.NO_PADDING;
    private int rank;
    private int worldSize = 1;
    private int batchSize = -1;
    private boolean randomShuffle;
    private boolean shuffleAfterEpoch;
    private int shuffleBufferSize = 1024;
    private long seed = -1;
    private long epochs = 1;
    private boolean dropRemainder;
    private final String defaultName;
    private ReaderOptions reader;
    private DistributedTrainingOptions distributed;
    private Path indexDir;
    private SkipPolicy skipCorrupt = SkipPolicy.STRICT;
    /** A remote folder of part files, or null. */
    private URI remoteDir;
    /** Remote files, or null. */
    private List<URI> remoteFiles;
    private final Map<String, String> storeOptions = new LinkedHashMap<>();
    private boolean listParts;
    private GroupKey groupKey;
    private int groupBuffer;

    /** A builder whose reader threads are named after {@code defaultName} unless its {@link #reader} options name them. */
    protected FilePipelineBuilder(String defaultName) {
        this.defaultName = Objects.requireNonNull(defaultName, "defaultName");
    }

    private B self() {
        @SuppressWarnings("unchecked")
        B b = (B) this;
        return b;
    }

    /** The folder of the part files. */
    public B dataDir(Path dataDir) {
        this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
        this.remoteDir = null;
        return self();
    }

    /**
     * The folder of the part files, anywhere a file store reads: {@code hdfs://namenode:8020/data},
     * {@code s3a://bucket/data}, or a local {@code file:} URI (read through memory mappings, as a
     * {@link Path} is). Remote files need loader-hadoop and a Hadoop client on the class path;
     * see {@link #storeOption}.
     */
    public B dataDir(URI dataDir) {
        Objects.requireNonNull(dataDir, "dataDir");
        if (Locations.isLocal(dataDir)) {
            return dataDir(localPath(dataDir));
        }
        this.remoteDir = dataDir;
        this.dataDir = null;
        return self();
    }

    /** The local file of {@code location}: a {@code file:} URI, or one without a scheme (a path). */
    private static Path localPath(URI location) {
        return location.getScheme() == null ? Path.of(location.getPath()).toAbsolutePath() : Path.of(location);
    }

    /** {@link #dataDir(URI)} of a location written as a URI ({@code hdfs://…}, {@code s3a://…}) or a local path. */
    public B dataDir(String dataDir) {
        return dataDir(Locations.parse(dataDir));
    }

    /** Reads exactly these files, in this order, instead of part files in {@code dataDir}. */
    public B files(List<Path> files) {
        this.files = List.copyOf(files);
        this.remoteFiles = null;
        return self();
    }

    /**
     * Reads exactly these files, in this order, wherever they are kept: all local ({@link
     * #files(List)}) or all in one remote store ({@link #dataDir(URI)}).
     *
     * @throws IllegalArgumentException if there are none, or local and remote files are mixed
     */
    public B files(URI... files) {
        List<URI> list = List.of(files);
        if (list.isEmpty()) {
            throw new IllegalArgumentException("a dataset needs at least one file");
        }
        long local = list.stream().filter(Locations::isLocal).count();
        if (local == list.size()) {
            return files(list.stream().map(FilePipelineBuilder::localPath).toList());
        }
        if (local > 0) {
            throw new IllegalArgumentException("files must be all local or all remote: " + local + " of " + list.size() + " are local");
        }
        this.remoteFiles = list;
        this.files = null;
        return self();
    }

    /** {@link #files(URI...)} of locations written as URIs or local paths. */
    public B files(String... files) {
        return files(java.util.Arrays.stream(files).map(Locations::parse).toArray(URI[]::new));
    }

    /**
     * Sets an option of the store of remote files: for loader-hadoop, a Hadoop configuration key
     * ({@code fs.s3a.endpoint}, {@code dfs.client.socket-timeout}, …) set over the configuration
     * Hadoop loads from its class path. Credentials are best left to Hadoop's configuration files
     * or the environment; those given here are passed on and never shown.
     */
    public B storeOption(String key, String value) {
        storeOptions.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return self();
    }

    /**
     * Reads every data file that {@code dataDir} lists whose name starts with {@link
     * #partNamePrefix}, in name order (as Spark writes {@code part-00000-<id>.tfrecord}),
     * instead of exactly {@link #dataPartNum} files named OneFlow's way. Files that hold no data
     * ({@code _SUCCESS}, {@code .crc} checksums, hidden files, index sidecars) are passed over.
     * Default off.
     */
    public B listParts(boolean listParts) {
        this.listParts = listParts;
        return self();
    }

    /** The number of part files; default 1. */
    public B dataPartNum(int dataPartNum) {
        this.dataPartNum = Checks.positive("dataPartNum", dataPartNum);
        return self();
    }

    /** The part-file name before the index; default {@code "part-"}. */
    public B partNamePrefix(String partNamePrefix) {
        this.partNamePrefix = Objects.requireNonNull(partNamePrefix, "partNamePrefix");
        return self();
    }

    /** Zero-pads the part index to this many digits; -1 (the default) for no padding. */
    public B partNameSuffixLength(int partNameSuffixLength) {
        if (partNameSuffixLength < PartFiles.NO_PADDING) {
            throw new IllegalArgumentException("partNameSuffixLength must be >= -1: partNameSuffixLength=" + partNameSuffixLength);
        }
        this.partNameSuffixLength = partNameSuffixLength;
        return self();
    }

    /**
     * Reads only rank {@code rank}'s share of the files out of {@code worldSize} ranks: a
     * contiguous, balanced run of them (OneFlow's file-level sharding). Default: rank 0 of 1.
     */
    public B shard(int rank, int worldSize) {
        Checks.positive("worldSize", worldSize);
        if (rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank must be in [0, worldSize): rank=" + rank + " worldSize=" + worldSize);
        }
        this.rank = rank;
        this.worldSize = worldSize;
        return self();
    }

    /**
     * Deals out records, not files, among the ranks: every file is indexed (its record index kept
     * in a sidecar beside the file unless {@link #indexDir} says where) and a {@link
     * DistributedTrainingDataset} with {@code options} gives this rank its share of the global
     * stream, epoch after epoch, the same number of steps on every rank. The options hold the
     * rank, world size, epochs and the per-epoch permutation, so {@link #shard}, {@link #epochs}
     * and {@link #shuffleAfterEpoch} must be left unset; {@link #randomShuffle} still shuffles
     * this rank's samples through a buffer. Under {@link DistributedTrainingOptions.Remainder#PAD_WITH_MASK}
     * each batch has a {@code valid} output ({@link ValidMaskParser}). Only for formats of framed
     * records (OFRecord, uncompressed TFRecord).
     */
    public B distributed(DistributedTrainingOptions options) {
        this.distributed = Objects.requireNonNull(options, "options");
        return self();
    }

    /**
     * Where the record-index sidecars of record files are kept (a folder the reader may write
     * to, when the data's own is read-only); default beside each file. For remote files, the
     * local cache folder of their sidecars, each named after its file and a hash of its location
     * and checked against the file's length and modification time; without it, their indexes
     * are kept in memory, and made again (by reading each file once) every time a reader opens.
     */
    public B indexDir(Path indexDir) {
        this.indexDir = Objects.requireNonNull(indexDir, "indexDir");
        return self();
    }

    /** Samples per batch (required): the rows of the reader's slots. */
    public B batchSize(int batchSize) {
        this.batchSize = Checks.positive("batchSize", batchSize);
        return self();
    }

    /** Shuffles samples through a buffer of {@link #shuffleBufferSize}; default off. */
    public B randomShuffle(boolean randomShuffle) {
        this.randomShuffle = randomShuffle;
        return self();
    }

    /** Reads the files in a new order each epoch after the first; default off. */
    public B shuffleAfterEpoch(boolean shuffleAfterEpoch) {
        this.shuffleAfterEpoch = shuffleAfterEpoch;
        return self();
    }

    /** The shuffle buffer's size in samples; default 1024. */
    public B shuffleBufferSize(int shuffleBufferSize) {
        this.shuffleBufferSize = Checks.positive("shuffleBufferSize", shuffleBufferSize);
        return self();
    }

    /**
     * The seed of every random choice; -1 (the default) draws a random seed for the shuffle
     * buffer and uses OneFlow's 524287 for the file order.
     */
    public B seed(long seed) {
        this.seed = seed;
        return self();
    }

    /** The number of passes over the files, or {@code Dataset.FOREVER}; default 1. */
    public B epochs(long epochs) {
        this.epochs = Checks.epochs(epochs);
        return self();
    }

    /** Drops a partial last batch instead of delivering it; default off. */
    public B dropRemainder(boolean dropRemainder) {
        this.dropRemainder = dropRemainder;
        return self();
    }

    /**
     * How the reader runs: its name, ring, parse threads, watchdog, checkpoints, and the state it
     * starts from ({@link ReaderOptions}). Default: {@link ReaderOptions#defaults()}, named after
     * the format.
     */
    public B reader(ReaderOptions options) {
        this.reader = Objects.requireNonNull(options, "options");
        return self();
    }

    /**
     * Changes some of the reader's options, keeping the others as given before (or the
     * defaults): {@code builder.reader(o -> o.restore(state))} starts a reader configured
     * elsewhere at a checkpoint.
     */
    public B reader(UnaryOperator<ReaderOptions.Builder> change) {
        return reader(change.apply(readerOptions().toBuilder()).build());
    }

    /** The reader's options as given so far, or the defaults named after the format. */
    private ReaderOptions readerOptions() {
        return reader != null ? reader : ReaderOptions.builder().name(defaultName).build();
    }

    /**
     * Skips up to {@code maxRecords} corrupt records in all, each replaced by the next good one
     * (see the class comment); one more fails {@code read()}. Default 0: strict, the first corrupt
     * record fails {@code read()}.
     */
    public B skipCorrupt(long maxRecords) {
        this.skipCorrupt = SkipPolicy.maxRecords(maxRecords);
        return self();
    }

    /**
     * Skips corrupt records while they are at most {@code maxRatio} of the records read so far,
     * and at least one ({@link SkipPolicy#maxRatio}); each is replaced by the next good one.
     */
    public B skipCorrupt(double maxRatio) {
        this.skipCorrupt = SkipPolicy.maxRatio(maxRatio);
        return self();
    }

    /**
     * Batches records by {@code key}: every batch holds records of one group, batches in the order
     * their first record was read ({@link GroupBatchDataset}, OneFlow's rule), at most
     * {@code 16 × batchSize} records held back waiting for their group's batch to fill, after
     * which the oldest batch goes out short. Every other option applies as without it: the files,
     * their naming and sharding ({@link #shard}, {@link #distributed}), the shuffle (before the
     * grouping), epochs, {@link #skipCorrupt} (a corrupt record is skipped before its key is
     * read), the metrics and {@link ReaderOptions#restore resume}; {@link #dropRemainder} drops
     * the partial batches left at the end. The key is read on the load thread, which then reads
     * each record's bytes; batch sizes depend on the data, so the reader knows no
     * {@link DataReader#stepsPerEpoch()}, and under {@link #distributed} ranks may take different
     * numbers of steps. For formats of records with a feature map (OFRecord, TFRecord); not with
     * {@link DistributedTrainingOptions.Remainder#PAD_WITH_MASK}.
     */
    public B groupBy(GroupKey key) {
        this.groupKey = Objects.requireNonNull(key, "key");
        return self();
    }

    /**
     * As {@link #groupBy(GroupKey)}, holding back at most {@code maxBufferedSamples} records
     * ({@link GroupBatchOptions#maxBufferedSamples()}; at least the batch size, checked when the
     * reader is built).
     */
    public B groupBy(GroupKey key, int maxBufferedSamples) {
        this.groupBuffer = Checks.positive("maxBufferedSamples", maxBufferedSamples);
        return groupBy(key);
    }

    /**
     * The layout of this format's features, which the built-in {@link GroupKey}s read; null (the
     * default) for a format without a feature map.
     */
    @SuppressWarnings("exports") // RecordFeatures: for the format modules, which see core.decode
    protected RecordFeatures recordFeatures() {
        return null;
    }

    /**
     * Checks that every file exists and starts the reader: each format's builder says what else
     * it checks.
     *
     * @throws IllegalArgumentException     if the options do not fit together
     * @throws java.io.UncheckedIOException naming a missing file
     */
    public abstract DataReader build();

    /** The reader's name, which its threads' names start with. */
    protected String readerName() {
        return readerOptions().name();
    }

    /** The samples per batch. */
    protected int batchSize() {
        return batchSize;
    }

    /** The number of epochs, or {@code Dataset.FOREVER}. */
    protected long epochs() {
        return epochs;
    }

    /** Whether later epochs reorder the files. */
    protected boolean shuffleAfterEpoch() {
        return shuffleAfterEpoch;
    }

    /** The seed of the file order: the user's, or OneFlow's 524287. */
    protected long fileOrderSeed() {
        return seed != -1 ? seed : FileOrder.ONEFLOW_SEED;
    }

    /**
     * This rank's files: the explicit list or OneFlow's part files, each checked to exist, then
     * sharded.
     *
     * @throws IllegalArgumentException     if neither {@code dataDir} nor {@code files} is set,
     *                                      or the files cannot be shared out among the ranks
     * @throws java.io.UncheckedIOException naming a missing file
     */
    protected List<Path> resolveFiles() {
        List<Path> all = allFiles();
        return worldSize == 1 ? all : FileOrder.shard(all, rank, worldSize);
    }

    private List<Path> allFiles() {
        List<Path> all;
        if (files != null) {
            all = PartFiles.of(files);
        } else if (dataDir != null && listParts) {
            all = PartFiles.of(listed(FileStores.local(), dataDir.toUri()).stream().map(f -> Path.of(f.location())).toList());
        } else if (dataDir != null) {
            all = PartFiles.oneflow(dataDir, partNamePrefix, partNameSuffixLength, dataPartNum);
        } else if (remote()) {
            throw new IllegalArgumentException("this reader reads local files only; remote files ("
                    + Locations.display(remoteDir != null ? remoteDir : remoteFiles.get(0))
                    + ") are read by the readers of framed records (OFRecord, uncompressed TFRecord)");
        } else {
            throw new IllegalArgumentException("set dataDir or files");
        }
        return all;
    }

    /**
     * How a format's remote files are read where their records cannot be fetched by location
     * (compressed files): as {@code framing}, decompressed as {@code compression} ({@code null}:
     * detected per file from its name and first bytes), the CRCs checked if {@code verifyCrc};
     * {@code kind} names the states, as the format's local reader names them.
     */
    @SuppressWarnings("exports") // Framing, Compression: for the format modules, which see loader-format
    public record StreamFormat(Framing framing, Compression compression, boolean verifyCrc, String kind) {
        /** Checks that the framing and kind are given. */
        public StreamFormat {
            java.util.Objects.requireNonNull(framing, "framing");
            java.util.Objects.requireNonNull(kind, "kind");
        }
    }

    /** Whether the files are remote. */
    private boolean remote() {
        return remoteDir != null || remoteFiles != null;
    }

    /**
     * Whether the files are remote ({@link #dataDir(URI)}, {@link #files(URI...)}): then only
     * {@link #assembleRecords} with a frame rule reads them, and {@link #openedFiles()} has no paths to give.
     */
    protected boolean readsRemoteFiles() {
        return remote();
    }

    /** The files {@code dir} lists whose names start with the part prefix. */
    private List<StoredFile> listed(FileStore store, URI dir) {
        try {
            List<StoredFile> parts = store.list(dir).stream().filter(f -> f.name().startsWith(partNamePrefix)).toList();
            if (parts.isEmpty()) {
                throw new IllegalArgumentException("no part files named " + partNamePrefix + "* in " + Locations.display(dir));
            }
            return parts;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + Locations.display(dir), e);
        }
    }

    /** Every remote file of the dataset, found in {@code store}: listed, named OneFlow's way, or given. */
    private List<StoredFile> remoteFiles(FileStore store) {
        if (remoteDir != null && listParts) {
            return listed(store, remoteDir);
        }
        List<URI> locations = remoteFiles;
        if (remoteDir != null) {
            locations = new java.util.ArrayList<>(dataPartNum);
            for (int i = 0; i < dataPartNum; i++) {
                locations.add(Locations.resolve(remoteDir, PartFiles.partName(partNamePrefix, partNameSuffixLength, i)));
            }
        }
        List<StoredFile> found = new java.util.ArrayList<>(locations.size());
        for (URI location : locations) {
            try {
                found.add(store.stat(location));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + Locations.display(location), e);
            }
        }
        return found;
    }

    /** Whether the reader deals out records among ranks ({@link #distributed}). */
    protected boolean distributesRecords() {
        return distributed != null;
    }

    /**
     * The files this rank opens: its share of the files, or with {@link #distributed} every file.
     *
     * @throws IllegalArgumentException     as {@link #resolveFiles()}
     * @throws java.io.UncheckedIOException naming a missing file
     */
    protected List<Path> openedFiles() {
        return distributed != null ? allFiles() : resolveFiles();
    }

    /**
     * The reader of a format of framed records: {@code files} read in file order (built by
     * {@code fileDataset} from this rank's files), or, with {@link #distributed}, this rank's share
     * of the records of every file through their index ({@code indexed} opens every file with the
     * {@link #indexDir}, null for sidecars beside the files). Where every file is a mapped file of
     * records framed by {@code frames} (null if not: a compressed file), the files are indexed
     * when the reader opens and its load thread deals in record numbers ({@link RecordStream}).
     *
     * <p>Remote files are read the same ways: by record number, fetched by batch, where they are
     * framed by {@code frames}, also with {@link #distributed} ({@link RemoteRecordDataset});
     * in order through the store's sequential streams as {@code streams} says (null if the
     * format has no such reading) where they are compressed or grouped by {@link #groupBy}. Where
     * {@code streams} leaves the compression to be detected, a remote file is looked at (its name,
     * then its first bytes) before it is indexed, as a local one is.
     *
     * @throws IllegalArgumentException if {@link #distributed} is combined with file sharding,
     *                                  epochs or a file order, or with compressed remote files,
     *                                  or the batch size is not set
     */
    @SuppressWarnings("exports") // FrameReader, StreamFormat: for the format modules
    protected DataReader assembleRecords(Function<List<Path>, Dataset<RecordSlice>> fileDataset,
                                         BiFunction<List<Path>, Path, RandomAccessDataset<RecordSlice>> indexed,
                                         Parser<RecordSlice> parser, FrameReader frames, StreamFormat streams) {
        if (remote() && distributed != null && frames == null) {
            throw new IllegalArgumentException("distributed(options) indexes the records of uncompressed files only: share"
                    + " compressed remote files among ranks with shard(rank, worldSize)");
        }
        if (remote() && distributed == null && streams == null && (frames == null || groupKey != null)) {
            throw new IllegalArgumentException(frames == null
                    ? "this format's compressed record files are read from local files only: copy them to a local disk,"
                    + " or write them uncompressed"
                    : "groupBy reads this format's remote files in order, which it cannot: copy them to a local disk");
        }
        ToLongFunction<RecordSlice> groupFn = groupKey == null ? null : groupKey.bind(recordFeatures());
        if (distributed == null && frames != null && groupFn == null) {
            checkBatchSize(null);
            if (remote()) {
                try {
                    return numbered(frames, parser, detected(streams));
                } catch (CompressedFileException e) {
                    // As for local files: compressed ones are read as streams, one after another.
                    LOG.info("reader {}: {}; reading the files as streams", readerOptions().name(), e.getMessage());
                    return pipeline(remoteStreams(streams), parser, null);
                }
            }
            return numbered(frames, parser, null);
        }
        if (distributed == null) {
            // Files read in order: a group batch's load thread reads the records' bytes, and so
            // does a compressed file's; remote ones stream through the store.
            Dataset<RecordSlice> source = remote() ? remoteStreams(streams) : fileDataset.apply(resolveFiles());
            checkBatchSize(source);
            return pipeline(source, parser, groupFn);
        }
        checkBatchSize(null);
        if (!skipCorrupt.strict()) {
            throw new IllegalArgumentException("distributed(options) does not skip corrupt records: a skip would change"
                    + " one rank's step count alone; check the files with `loader verify` and leave skipCorrupt unset");
        }
        if (worldSize != 1 || epochs != 1 || shuffleAfterEpoch) {
            throw new IllegalArgumentException("distributed(options) sets the ranks, epochs and order itself: leave shard,"
                    + " epochs and shuffleAfterEpoch unset (shard=" + rank + "/" + worldSize + " epochs=" + epochs
                    + " shuffleAfterEpoch=" + shuffleAfterEpoch + ")");
        }
        if (groupFn != null && distributed.remainder() == DistributedTrainingOptions.Remainder.PAD_WITH_MASK) {
            throw new IllegalArgumentException("groupBy makes batches of the data's own sizes, which PAD_WITH_MASK cannot"
                    + " pad: use Remainder.DROP or WRAP with groupBy");
        }
        RandomAccessDataset<RecordSlice> records;
        try {
            records = remote() ? new RemoteRecordDataset(openRemote(frames, readerOptions(), detected(streams)), 1)
                    : indexed.apply(allFiles(), indexDir);
        } catch (CompressedFileException e) {
            throw new IllegalArgumentException("distributed(options) indexes the records of uncompressed files only, "
                    + e.file() + " is " + e.compression() + ": share compressed files among ranks with shard(rank, worldSize)");
        }
        DistributedTrainingDataset<RecordSlice> share;
        try {
            share = new DistributedTrainingDataset<>(records, distributed);
        } catch (RuntimeException e) {
            records.close();
            throw e;
        }
        return distributed.remainder() == DistributedTrainingOptions.Remainder.PAD_WITH_MASK
                ? pipeline(share, new ValidMaskParser<>(parser), null)
                : pipeline(share.unwrapped(), parser, groupFn);
    }

    /**
     * Shuffles (if asked) and batches {@code source}, and starts a reader that parses it with
     * {@code parser}.
     *
     * @throws IllegalArgumentException if the batch size is not set
     */
    protected <T> DataReader assemble(Dataset<T> source, Parser<? super T> parser) {
        checkBatchSize(source);
        if (distributed != null) {
            source.close();
            throw new IllegalArgumentException("distributed(options) deals out framed records through an index;"
                    + " this reader has none: use shard(rank, worldSize) to share whole files");
        }
        if (groupKey != null) {
            source.close();
            throw new IllegalArgumentException("groupBy(" + groupKey + ") groups records of record files; this reader"
                    + " reads none: batch with GroupBatchDataset over the dataset");
        }
        return pipeline(source, parser, null);
    }

    /** Throws if the batch size is not set, closing {@code source} (may be null) first. */
    private void checkBatchSize(Dataset<?> source) {
        if (batchSize < 0) {
            if (source != null) {
                source.close();
            }
            throw new IllegalArgumentException("batchSize must be set");
        }
    }

    /**
     * This rank's files indexed ({@link RecordFiles}, the scans over as many threads as the
     * machine has cores) and read as record numbers, shuffled and batched by a {@link RecordStream}.
     */
    private DataReader numbered(FrameReader frames, Parser<RecordSlice> parser, Framing detect) {
        ReaderOptions options = readerOptions();
        RecordFiles records = remote() ? openRemote(frames, options, detect)
                : RecordFiles.open(resolveFiles(), frames, indexDir, options.name() + "-index",
                Runtime.getRuntime().availableProcessors());
        RecordStream stream;
        try {
            stream = new RecordStream(records, epochs, shuffleAfterEpoch, fileOrderSeed(), batchSize, dropRemainder,
                    randomShuffle ? shuffleBufferSize : 0, randomShuffle ? shuffleSeed(options) : 0, !skipCorrupt.strict());
        } catch (RuntimeException e) {
            records.close();
            throw e;
        }
        return skipCorrupt.strict() ? DataReader.of(stream, parser, options)
                : DataReader.skipping(stream, parser, options, new SkipBudget(skipCorrupt));
    }

    /**
     * This rank's remote files, indexed ({@link RecordFiles#open(FileStore, List, FrameReader,
     * Framing, Path, String, int)}, sidecars cached in the {@link #indexDir} if set, else kept in
     * memory), a compressed one told as {@code detect} says.
     *
     * @throws CompressedFileException if {@code detect} is given and a file is compressed
     */
    private RecordFiles openRemote(FrameReader frames, ReaderOptions options, Framing detect) {
        return withRemoteFiles((store, mine) -> RecordFiles.open(store, mine, frames, detect, indexDir,
                options.name() + "-index", Runtime.getRuntime().availableProcessors()));
    }

    /**
     * The framing in which to tell compressed remote files before indexing them: where the format
     * reads streams whose compression is detected per file ({@code streams} gives none), as
     * local files' is; else null.
     */
    private static Framing detected(StreamFormat streams) {
        return streams != null && streams.compression() == null ? streams.framing() : null;
    }

    /**
     * This rank's remote files read one after another through the store's sequential streams
     * ({@link StreamedRecordDataset}), as {@code streams} says.
     */
    private Dataset<RecordSlice> remoteStreams(StreamFormat streams) {
        return withRemoteFiles((store, mine) -> new StreamedRecordDataset(store, mine, streams.framing(),
                streams.compression(), streams.verifyCrc(), epochs, shuffleAfterEpoch, fileOrderSeed(), streams.kind()));
    }

    /**
     * What {@code open} makes of the store of the remote files and this rank's share of them; it
     * owns the store from then on. The store is closed if finding the files or {@code open} fails.
     */
    private <T> T withRemoteFiles(BiFunction<FileStore, List<StoredFile>, T> open) {
        URI first = remoteDir != null ? remoteDir : remoteFiles.get(0);
        FileStore store;
        try {
            store = FileStores.forLocation(first, storeOptions);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach the store of " + Locations.display(first), e);
        }
        try {
            List<StoredFile> all = remoteFiles(store);
            List<StoredFile> mine = worldSize == 1 ? all : FileOrder.shard(all, rank, worldSize);
            return open.apply(store, mine);
        } catch (RuntimeException e) {
            try {
                store.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** The settings of the group batch: the batch size, the bound if given, {@link #dropRemainder}. */
    private GroupBatchOptions groupOptions() {
        GroupBatchOptions.Builder options = GroupBatchOptions.builder(batchSize).dropRemainder(dropRemainder);
        if (groupBuffer > 0) {
            options.maxBufferedSamples(groupBuffer);
        }
        return options.build();
    }

    /** The seed of the shuffle buffer: the user's, or a random one, logged. */
    private long shuffleSeed(ReaderOptions options) {
        if (seed != -1) {
            return seed;
        }
        // Logged and kept in the state, so an unseeded run can be reproduced and resumed.
        long drawn = ThreadLocalRandom.current().nextLong();
        LOG.info("reader {}: no seed given, shuffling with seed {}", options.name(), drawn);
        return drawn;
    }

    /**
     * {@code source}, with corrupt samples skipped and shuffled if asked, batched (by
     * {@code groupFn}'s groups where it is not null), parsed by {@code parser}.
     */
    private <T> DataReader pipeline(Dataset<T> source, Parser<? super T> parser, ToLongFunction<? super T> groupFn) {
        ReaderOptions options = readerOptions();
        Dataset<T> dataset = source;
        try {
            if (!skipCorrupt.strict()) {
                dataset = new SkipCorruptDataset<>(dataset, parser, skipCorrupt);
            }
            if (randomShuffle) {
                dataset = new RandomShuffleDataset<>(dataset, shuffleBufferSize, shuffleSeed(options));
            }
            dataset = groupFn == null ? new BatchDataset<>(dataset, batchSize, dropRemainder)
                    : new GroupBatchDataset<>(dataset, groupFn, groupOptions());
        } catch (RuntimeException e) {
            dataset.close();
            throw e;
        }
        return DataReader.of(dataset, parser, options);
    }
}
