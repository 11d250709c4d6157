/**
 * Images: the decoders of encoded JPEG and PNG bytes read in place from a record, and OneFlow's
 * image preprocessing ops. Native decoding (libjpeg-turbo through a shim of the project's own,
 * libpng) where the libraries load, JDK ImageIO everywhere else.
 */
module org.dataloader4j.image {
    requires transitive org.dataloader4j.core;
    requires java.desktop;
    requires org.slf4j;

    exports org.dataloader4j.image;
}
