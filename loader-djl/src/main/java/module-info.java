/**
 * Batches of a {@code DataReader} as DJL {@code NDArray}s: a DJL {@code Dataset} for DJL
 * training loops, without a copy where the engine can take the off-heap memory.
 */
module org.dataloader4j.djl {
    requires transitive org.dataloader4j.core;
    requires transitive ai.djl.api;

    exports org.dataloader4j.djl;
}
