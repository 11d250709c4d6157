package org.dataloader4j.benchmarks;

import java.util.Arrays;

/** What {@link ImageCompare}'s systems do with each picture. */
public enum ImagePath {
    /** The whole JPEG decoded to RGB pixels (uint8, height × width × 3), and its label. */
    DECODE("decode"),
    /**
     * The training transform of ImageNet: a random-resized-crop window (area 8 % to 100 %, aspect
     * ratio 3/4 to 4/3), resized to 224 × 224 (bilinear), mirrored half the time, each channel
     * normalized with ImageNet's mean and std into float32; and the label.
     */
    FUSED("fused");

    private final String id;

    ImagePath(String id) {
        this.id = id;
    }

    /** The name in RESULT lines and on the command line. */
    public String id() {
        return id;
    }

    /**
     * The path named {@code id}.
     *
     * @throws IllegalArgumentException naming the paths there are
     */
    public static ImagePath of(String id) {
        for (ImagePath p : values()) {
            if (p.id.equals(id)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no path " + id + ": paths are " + Arrays.stream(values()).map(ImagePath::id).toList());
    }
}
