package org.dataloader4j.image;

/** The JDK ImageIO codec. (Placeholder until it is written.) */
final class ImageIoCodec implements ImageCodec {
    static final ImageIoCodec INSTANCE = new ImageIoCodec();

    private ImageIoCodec() {
    }

    @Override
    public String name() {
        return "imageio";
    }

    @Override
    public Context newContext() {
        throw new UnsupportedOperationException("not written yet");
    }
}
