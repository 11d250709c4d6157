/*
 * d4j_jpeg: the JPEG decoder of dataloader4j's native image codec, a thin layer over the
 * system libjpeg-turbo (libjpeg 6.2 API) that Java calls through java.lang.foreign.
 *
 * libjpeg reports a fatal error by calling error_exit, which must not return; a foreign call
 * cannot be unwound, so this layer owns the decompressor and an error manager that longjmps
 * back into the function that was called. Every function here returns normally: an error is a
 * return code and a message, never an abort or exit.
 *
 * One d4j_jpeg is used by one thread at a time; it is kept from image to image, and each image
 * gets a new libjpeg decompressor, so that none decodes with tables another one defined.
 */
#ifndef D4J_JPEG_H
#define D4J_JPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct d4j_jpeg d4j_jpeg;

/* Returned by the functions below. */
#define D4J_OK 0
/* The image is damaged, truncated or of a kind that cannot be decoded: see d4j_jpeg_message. */
#define D4J_BAD_IMAGE 1
/* The call was wrong for this image (a window outside it, an output too small): see d4j_jpeg_message. */
#define D4J_BAD_ARGUMENT 2

/* The channels written by d4j_jpeg_decode. */
#define D4J_GRAY 0
#define D4J_RGB 1
#define D4J_BGR 2

/* Indexes into the array filled by d4j_jpeg_header. */
#define D4J_INFO_WIDTH 0
#define D4J_INFO_HEIGHT 1
#define D4J_INFO_COMPONENTS 2
#define D4J_INFO_COLOR_SPACE 3 /* libjpeg's J_COLOR_SPACE of the stored data */
#define D4J_INFO_LENGTH 4

/* A new decompressor, or NULL if out of memory. */
d4j_jpeg *d4j_jpeg_create(void);

/* Frees the decompressor and its buffers. NULL is allowed. */
void d4j_jpeg_destroy(d4j_jpeg *ctx);

/*
 * The message of the last call that did not return D4J_OK: a NUL-terminated string owned by
 * ctx, valid until the next call with ctx.
 */
const char *d4j_jpeg_message(const d4j_jpeg *ctx);

/*
 * Reads the header of the JPEG in data[0, size) into info[D4J_INFO_LENGTH]: width, height,
 * components and stored color space.
 */
int d4j_jpeg_header(d4j_jpeg *ctx, const uint8_t *data, size_t size, int32_t *info);

/*
 * Decodes the window (x, y, width, height) of the JPEG in data[0, size), scaled down by scale
 * (1, 2, 4 or 8: libjpeg's scaled IDCT), into out as color (D4J_GRAY, D4J_RGB or D4J_BGR): height
 * rows of width * channels bytes, without padding. The window is in the scaled image, whose sides
 * are the image's divided by scale and rounded up. The pixels equal those of the same window of
 * the whole image decoded at that scale (ISLOW IDCT, fancy upsampling). Only the iMCU columns around the window are decoded, and rows above it are
 * skipped; data after the window's last row is not read. Gray from YCbCr is the Y plane; CMYK
 * and YCCK images are converted as d4j_jpeg.c says. Data that ends before the window's pixels
 * do is an error (D4J_BAD_IMAGE), not grey padding.
 */
int d4j_jpeg_decode(d4j_jpeg *ctx, const uint8_t *data, size_t size, int32_t color, int32_t scale,
                    int32_t x, int32_t y, int32_t width, int32_t height,
                    uint8_t *out, size_t out_size);

#ifdef __cplusplus
}
#endif

#endif
