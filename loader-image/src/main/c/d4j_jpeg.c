/*
 * d4j_jpeg: see d4j_jpeg.h. Built by loader-image's pom (profile native-jpeg) with
 *   gcc -O2 -fPIC -shared -Wall -Werror d4j_jpeg.c -ljpeg
 */
#include "d4j_jpeg.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h> /* jpeglib.h uses FILE */
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

struct d4j_error {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
};

struct d4j_jpeg {
  struct jpeg_decompress_struct cinfo;
  struct d4j_error error;
  char message[JMSG_LENGTH_MAX];
  /* One decoded row of the crop, for windows that are copied out of it. */
  JSAMPLE *row;
  size_t row_capacity;
  /* Streams read since the decompressor was made (see read_header). */
  unsigned streams;
};

/* How many streams one decompressor reads before it is made anew (see read_header). */
#define STREAMS_PER_DECOMPRESSOR 64

/* Records libjpeg's message and returns to the setjmp of the function that was called. */
static void on_error_exit(j_common_ptr cinfo) {
  d4j_jpeg *ctx = (d4j_jpeg *)cinfo->client_data;
  (*cinfo->err->format_message)(cinfo, ctx->message);
  longjmp(ctx->error.jump, D4J_BAD_IMAGE);
}

/*
 * Warnings are counted and otherwise ignored, as most decoders do (extraneous bytes before a
 * marker, a bad Huffman code, an odd progression), except the two that say the image's data ends
 * before its pixels do: "Premature end of JPEG file" (the bytes end) and "premature end of data
 * segment" (a marker, such as an early EOI, ends the scan). After either, libjpeg pads the rest
 * of the image with grey and goes on; here such an image is corrupt, not grey.
 */
static void on_emit_message(j_common_ptr cinfo, int msg_level) {
  if (msg_level >= 0) {
    return; /* a trace message */
  }
  int code = cinfo->err->msg_code;
  if (code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER) {
    on_error_exit(cinfo);
  }
  cinfo->err->num_warnings++;
}

/* libjpeg's default writes to stderr; messages reach Java through d4j_jpeg_message instead. */
static void on_output_message(j_common_ptr cinfo) {
  (void)cinfo;
}

/* Fails the current call with a message of this layer's own (code D4J_BAD_IMAGE or D4J_BAD_ARGUMENT). */
static void fail(d4j_jpeg *ctx, int code, const char *format, ...) __attribute__((format(printf, 3, 4), noreturn));

static void fail(d4j_jpeg *ctx, int code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(ctx->message, sizeof ctx->message, format, args);
  va_end(args);
  longjmp(ctx->error.jump, code);
}

d4j_jpeg *d4j_jpeg_create(void) {
  d4j_jpeg *ctx = calloc(1, sizeof *ctx);
  if (ctx == NULL) {
    return NULL;
  }
  ctx->cinfo.err = jpeg_std_error(&ctx->error.pub);
  ctx->error.pub.error_exit = on_error_exit;
  ctx->error.pub.emit_message = on_emit_message;
  ctx->error.pub.output_message = on_output_message;
  ctx->cinfo.client_data = ctx;
  if (setjmp(ctx->error.jump) != 0) {
    /* jpeg_create_decompress fails only when memory runs out. */
    jpeg_destroy_decompress(&ctx->cinfo);
    free(ctx);
    return NULL;
  }
  jpeg_create_decompress(&ctx->cinfo);
  return ctx;
}

void d4j_jpeg_destroy(d4j_jpeg *ctx) {
  if (ctx == NULL) {
    return;
  }
  jpeg_destroy_decompress(&ctx->cinfo);
  free(ctx->row);
  free(ctx);
}

const char *d4j_jpeg_message(const d4j_jpeg *ctx) {
  return ctx->message;
}

/*
 * Points the decompressor at data as if it were new, and reads the header; on error, longjmps.
 * libjpeg keeps the quantization and Huffman tables of a stream in the decompressor for the next
 * one (abbreviated streams, which records never hold): kept, they would decode a JPEG that lacks a
 * table with the last image's. So the decompressor forgets them: libjpeg then allocates the tables
 * a stream defines (and its standard Huffman tables) anew, as a new decompressor does, from a pool
 * freed only with the decompressor. Making a decompressor for every stream costs more than the
 * decoding of a window saves (its pools come from the system each time); so one is made anew every
 * STREAMS_PER_DECOMPRESSOR streams, which bounds what the forgotten tables hold to a few hundred KB.
 */
static void read_header(d4j_jpeg *ctx, const uint8_t *data, size_t size) {
  if (size > (unsigned long)-1) {
    fail(ctx, D4J_BAD_IMAGE, "JPEG of %zu bytes is too large", size);
  }
  if (++ctx->streams >= STREAMS_PER_DECOMPRESSOR) {
    ctx->streams = 0;
    jpeg_destroy_decompress(&ctx->cinfo);
    jpeg_create_decompress(&ctx->cinfo);
  } else {
    for (int i = 0; i < NUM_QUANT_TBLS; i++) {
      ctx->cinfo.quant_tbl_ptrs[i] = NULL;
    }
    for (int i = 0; i < NUM_HUFF_TBLS; i++) {
      ctx->cinfo.dc_huff_tbl_ptrs[i] = NULL;
      ctx->cinfo.ac_huff_tbl_ptrs[i] = NULL;
    }
  }
  jpeg_mem_src(&ctx->cinfo, data, (unsigned long)size);
  /* require_image: a tables-only stream is an error (JERR_NO_IMAGE), not a header. */
  jpeg_read_header(&ctx->cinfo, TRUE);
}

int d4j_jpeg_header(d4j_jpeg *ctx, const uint8_t *data, size_t size, int32_t *info) {
  j_decompress_ptr cinfo = &ctx->cinfo;
  ctx->message[0] = '\0';
  int code = setjmp(ctx->error.jump);
  if (code != 0) {
    jpeg_abort_decompress(cinfo);
    return code;
  }
  read_header(ctx, data, size);
  info[D4J_INFO_WIDTH] = (int32_t)cinfo->image_width;
  info[D4J_INFO_HEIGHT] = (int32_t)cinfo->image_height;
  info[D4J_INFO_COMPONENTS] = cinfo->num_components;
  info[D4J_INFO_COLOR_SPACE] = (int32_t)cinfo->jpeg_color_space;
  jpeg_abort_decompress(cinfo);
  return D4J_OK;
}

static JSAMPLE *row_buffer(d4j_jpeg *ctx, size_t bytes) {
  if (bytes > ctx->row_capacity) {
    JSAMPLE *grown = realloc(ctx->row, bytes);
    if (grown == NULL) {
      fail(ctx, D4J_BAD_IMAGE, "out of memory for a row of %zu bytes", bytes);
    }
    ctx->row = grown;
    ctx->row_capacity = bytes;
  }
  return ctx->row;
}

/* (a * b + 127) / 255, rounded as Pillow's MULDIV255 rounds it. */
static inline unsigned muldiv255(unsigned a, unsigned b) {
  unsigned t = a * b + 128;
  return ((t >> 8) + t) >> 8;
}

/*
 * Converts width CMYK pixels to RGB, BGR or gray. libjpeg gives CMYK as stored, and CMYK JPEGs
 * are taken to be stored inverted, as Adobe's encoders write them (255 = no ink); in that form,
 * per channel,
 *   R = k - MULDIV255(255 - c, k),   G = k - MULDIV255(255 - m, k),   B = k - MULDIV255(255 - y, k),
 * about c * k / 255: the naive conversion without a colour profile that Pillow makes (its
 * cmyk2rgb, after undoing the inversion). Gray is the luma of that RGB,
 *   L = (19595 R + 38470 G + 7471 B + 32768) >> 16   (ITU-R BT.601, as Pillow's RGB to L).
 */
static void cmyk_to(int color, const JSAMPLE *in, uint8_t *out, size_t width) {
  for (size_t i = 0; i < width; i++, in += 4) {
    unsigned k = in[3];
    unsigned r = k - muldiv255(255u - in[0], k);
    unsigned g = k - muldiv255(255u - in[1], k);
    unsigned b = k - muldiv255(255u - in[2], k);
    switch (color) {
    case D4J_RGB:
      *out++ = (uint8_t)r;
      *out++ = (uint8_t)g;
      *out++ = (uint8_t)b;
      break;
    case D4J_BGR:
      *out++ = (uint8_t)b;
      *out++ = (uint8_t)g;
      *out++ = (uint8_t)r;
      break;
    default:
      *out++ = (uint8_t)((19595u * r + 38470u * g + 7471u * b + 32768u) >> 16);
      break;
    }
  }
}

int d4j_jpeg_decode(d4j_jpeg *ctx, const uint8_t *data, size_t size, int32_t color, int32_t scale,
                    int32_t x, int32_t y, int32_t width, int32_t height,
                    uint8_t *out, size_t out_size) {
  j_decompress_ptr cinfo = &ctx->cinfo;
  ctx->message[0] = '\0';
  int code = setjmp(ctx->error.jump);
  if (code != 0) {
    jpeg_abort_decompress(cinfo);
    return code;
  }
  if (color != D4J_GRAY && color != D4J_RGB && color != D4J_BGR) {
    fail(ctx, D4J_BAD_ARGUMENT, "unknown color: %d", color);
  }
  if (scale != 1 && scale != 2 && scale != 4 && scale != 8) {
    fail(ctx, D4J_BAD_ARGUMENT, "scale must be 1, 2, 4 or 8: %d", scale);
  }
  if (x < 0 || y < 0 || width <= 0 || height <= 0) {
    fail(ctx, D4J_BAD_ARGUMENT, "bad window: x=%d y=%d width=%d height=%d", x, y, width, height);
  }
  size_t channels = color == D4J_GRAY ? 1 : 3;
  size_t out_row = (size_t)width * channels;
  if ((uint64_t)out_row * (uint64_t)height > out_size) {
    fail(ctx, D4J_BAD_ARGUMENT, "out holds %zu bytes, the window needs %zu", out_size, out_row * (size_t)height);
  }

  read_header(ctx, data, size);
  int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
  cinfo->out_color_space = cmyk ? JCS_CMYK : color == D4J_GRAY ? JCS_GRAYSCALE : color == D4J_RGB ? JCS_RGB : JCS_EXT_BGR;
  /* libjpeg's defaults, stated because the pixels are expected to match other decoders' exactly. */
  cinfo->dct_method = JDCT_ISLOW;
  cinfo->do_fancy_upsampling = TRUE;
  cinfo->scale_num = 1;
  cinfo->scale_denom = (unsigned int)scale;
  jpeg_calc_output_dimensions(cinfo);
  /* From here on the image is the scaled one. */
  JDIMENSION image_width = cinfo->output_width;
  JDIMENSION image_height = cinfo->output_height;
  if ((uint64_t)x + (uint64_t)width > image_width || (uint64_t)y + (uint64_t)height > image_height) {
    fail(ctx, D4J_BAD_ARGUMENT, "the window x=%d y=%d width=%d height=%d is not inside the image of %ux%u",
         x, y, width, height, image_width, image_height);
  }
  jpeg_start_decompress(cinfo);

  /*
   * Decode only the iMCU columns around the window. Fancy upsampling computes a pixel from its
   * neighbours in the chroma planes and treats the edges of the crop as the edges of the image, so
   * the crop is widened by one pixel on either side (where the image has one) to keep the window's
   * pixels equal to the whole image's. It also needs two chroma samples a row, else libjpeg falls
   * back to plain upsampling for the crop: so the crop is at least max_h_samp_factor + 1 pixels
   * wide. jpeg_crop_scanline then moves the left edge down to an iMCU boundary and widens the crop
   * to match.
   *
   * In a progressive image whose coefficients are not all there (its last scans missing), libjpeg
   * smooths each block with the DC values of the two blocks either side, and libjpeg-turbo takes
   * the crop's left edge for the image's: there the crop starts two iMCU columns further left,
   * which hold at least two blocks of every component.
   */
  JDIMENSION crop_x = x > 0 ? (JDIMENSION)x - 1 : 0;
  if (cinfo->progressive_mode && cinfo->do_block_smoothing) {
    JDIMENSION margin = 2 * (JDIMENSION)cinfo->max_h_samp_factor * (JDIMENSION)cinfo->min_DCT_scaled_size;
    crop_x = crop_x > margin ? crop_x - margin : 0;
  }
  JDIMENSION crop_end = (JDIMENSION)x + (JDIMENSION)width < image_width ? (JDIMENSION)x + (JDIMENSION)width + 1 : image_width;
  JDIMENSION min_width = (JDIMENSION)cinfo->max_h_samp_factor + 1;
  while (crop_end - crop_x < min_width && crop_end - crop_x < image_width) {
    if (crop_end < image_width) {
      crop_end++;
    } else {
      crop_x--;
    }
  }
  JDIMENSION crop_width = crop_end - crop_x;
  if (crop_width < image_width) {
    jpeg_crop_scanline(cinfo, &crop_x, &crop_width);
  }
  size_t skip_left = (size_t)((JDIMENSION)x - crop_x);

  JDIMENSION skipped = 0;
  while (skipped < (JDIMENSION)y) {
    JDIMENSION n = jpeg_skip_scanlines(cinfo, (JDIMENSION)y - skipped);
    if (n == 0) {
      fail(ctx, D4J_BAD_IMAGE, "could not skip to row %d", y);
    }
    skipped += n;
  }

  /* Rows that are exactly the crop go straight to out; others through the row buffer. */
  int direct = !cmyk && skip_left == 0 && crop_width == (JDIMENSION)width;
  size_t in_channels = (size_t)cinfo->output_components;
  JSAMPLE *row = direct ? NULL : row_buffer(ctx, (size_t)cinfo->output_width * in_channels);
  for (int32_t r = 0; r < height; r++) {
    uint8_t *dst = out + (size_t)r * out_row;
    JSAMPROW target = direct ? dst : row;
    if (jpeg_read_scanlines(cinfo, &target, 1) != 1) {
      fail(ctx, D4J_BAD_IMAGE, "no data for row %d", y + r);
    }
    if (cmyk) {
      cmyk_to(color, row + skip_left * in_channels, dst, (size_t)width);
    } else if (!direct) {
      memcpy(dst, row + skip_left * in_channels, out_row);
    }
  }
  /* The rows below the window are not needed: no reason to read them, or to require an EOI. */
  jpeg_abort_decompress(cinfo);
  return D4J_OK;
}
