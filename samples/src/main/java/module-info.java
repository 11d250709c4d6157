/**
 * Runnable examples of dataloader4j, one idea each; only the {@code loader} command depends on
 * this module, to run them as its demo.
 */
module org.dataloader4j.samples {
    requires org.dataloader4j.mini;
    requires transitive org.dataloader4j.ofrecord;

    exports org.dataloader4j.samples;
}
