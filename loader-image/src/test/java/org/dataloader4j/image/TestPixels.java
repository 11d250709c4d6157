package org.dataloader4j.image;

/** What the codec tests compare decoded pixels with: windows cut from a whole image, channels swapped. */
final class TestPixels {
    private TestPixels() {
    }

    /** {@code window} of {@code whole}, an HWC image {@code width} pixels wide of {@code channels} bytes a pixel. */
    static byte[] cut(byte[] whole, int width, int channels, CropWindow window) {
        int row = window.width() * channels;
        byte[] out = new byte[window.height() * row];
        for (int y = 0; y < window.height(); y++) {
            System.arraycopy(whole, ((window.y() + y) * width + window.x()) * channels, out, y * row, row);
        }
        return out;
    }

    /** {@code rgb} with its first and third channel swapped: RGB as BGR, or BGR as RGB. */
    static byte[] swapRedAndBlue(byte[] rgb) {
        byte[] bgr = rgb.clone();
        for (int i = 0; i < bgr.length; i += 3) {
            bgr[i] = rgb[i + 2];
            bgr[i + 2] = rgb[i];
        }
        return bgr;
    }
}
