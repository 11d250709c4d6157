package org.dataloader4j.image;

/**
 * The channels decoded pixels are given in, as OneFlow's {@code color_space}: BGR (its default),
 * RGB, or one gray channel. A gray image decoded as BGR or RGB has three equal channels; a color
 * image decoded as GRAY has its luma (libjpeg's and ITU-R BT.601's weights).
 */
public enum ColorSpace {
    BGR(3),
    RGB(3),
    GRAY(1);

    private final int channels;

    ColorSpace(int channels) {
        this.channels = channels;
    }

    /** The channels of a pixel: 3, or 1 for GRAY. */
    public int channels() {
        return channels;
    }
}
