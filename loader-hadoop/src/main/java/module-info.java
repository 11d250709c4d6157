/**
 * Part files from any Hadoop {@code FileSystem} ({@code hdfs://}, {@code s3a://}, {@code file://}
 * and whatever else the user's Hadoop client reads), as a file store the readers find at run
 * time. Hadoop is the user's: this module is built against its client API and ships without it.
 */
module org.dataloader4j.hadoop {
    requires transitive org.dataloader4j.format;
    requires transitive hadoop.client.api;

    exports org.dataloader4j.hadoop;

    provides org.dataloader4j.format.store.FileStoreProvider with org.dataloader4j.hadoop.HadoopFileStoreProvider;
}
