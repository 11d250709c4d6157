/**
 * The {@code loader} command: {@code demo}, {@code inspect}, {@code verify}, {@code convert},
 * {@code index}, {@code bench}, {@code preview} and {@code soak} on record files, with progress
 * bars on long work; {@code state} on saved reader states.
 */
module org.dataloader4j.cli {
    requires org.dataloader4j.ofrecord;
    requires org.dataloader4j.tfrecord;
    // Images in records: inspect --decode-images, bench --image, preview.
    requires org.dataloader4j.image;
    // preview writes its grid as a PNG with ImageIO.
    requires java.desktop;
    requires org.dataloader4j.samples;
    requires info.picocli;
    // JSON: saved reader states, and records for inspect --json.
    requires com.fasterxml.jackson.databind;
    // soak reports the live heap.
    requires java.management;

    exports org.dataloader4j.cli;
    // picocli sets the annotated option fields of the commands by reflection.
    opens org.dataloader4j.cli to info.picocli;
}
