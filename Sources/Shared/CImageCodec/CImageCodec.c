// PNG through libpng's simplified API, JPEG through libjpeg(-turbo), all from memory.
//
// libjpeg reports fatal errors by calling error_exit, which must not return. We longjmp back to
// a setjmp in this file, so the jump never leaves C (Swift frames cannot be unwound by longjmp).
// Everything a failed call must release lives in a "job" struct owned by the caller of the
// function that calls setjmp: locals of that function are not touched after setjmp, which keeps
// clear of C's rule that such locals are indeterminate after longjmp.
#include "CImageCodec.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>
#include <png.h>
#include <zlib.h>

/// A progressive JPEG can hold any number of scans and each one costs a pass over the whole
/// image; real encoders emit around ten. More than this is treated as an attack.
#define SNAPSHARE_JPEG_MAX_SCANS 100

/// libjpeg's dimension limit, repeated here so encode can refuse before calling in.
#define SNAPSHARE_JPEG_MAX_DIMENSION 65500u

static void set_message(char *message, size_t capacity, const char *format, ...) {
    if (message == NULL || capacity == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, capacity, format, arguments);
    va_end(arguments);
}

/// Checks declared dimensions against the limits; 0 when they fit.
static int check_limits(uint32_t width, uint32_t height, const snapshare_image_limits *limits,
                        char *message, size_t capacity) {
    if (width == 0 || height == 0) {
        set_message(message, capacity, "image has zero width or height");
        return SNAPSHARE_IMAGE_DECODE_FAILED;
    }
    if (width > limits->max_width || height > limits->max_height ||
        (uint64_t)width * (uint64_t)height > limits->max_pixels) {
        set_message(message, capacity, "image is %ux%u, over the limit of %ux%u and %llu pixels",
                    width, height, limits->max_width, limits->max_height,
                    (unsigned long long)limits->max_pixels);
        return SNAPSHARE_IMAGE_TOO_LARGE;
    }
    // Row strides are passed to libpng as png_int_32, and width * height * 3 must fit size_t.
    if ((uint64_t)width * 3u > (uint64_t)INT32_MAX ||
        (uint64_t)width * (uint64_t)height > (uint64_t)(SIZE_MAX / 4)) {
        set_message(message, capacity, "image is %ux%u, too large for this platform", width, height);
        return SNAPSHARE_IMAGE_TOO_LARGE;
    }
    return SNAPSHARE_IMAGE_OK;
}

void snapshare_image_free(void *buffer) { free(buffer); }

/// What a read from memory is given: the bytes, the limits, and where its reason goes. The
/// first member of every read job, so a job can be made by `new_read_job`.
struct codec_input {
    const unsigned char *bytes;
    size_t count;
    const snapshare_image_limits *limits;
    char *message;
    size_t message_capacity;
};

/// Allocates a zeroed read job of `size` bytes (one that starts with a `struct codec_input`) and
/// fills in its input; NULL with `*code` and the message saying why when `arguments_ok` is false,
/// an argument is out of range, or memory runs out.
static void *new_read_job(size_t size, int arguments_ok, const unsigned char *bytes, size_t count,
                          const snapshare_image_limits *limits, char *message, size_t message_capacity,
                          int *code) {
    if (!arguments_ok || bytes == NULL || count == 0 || limits == NULL || count > ULONG_MAX) {
        set_message(message, message_capacity, "invalid argument");
        *code = SNAPSHARE_IMAGE_INVALID_ARGUMENT;
        return NULL;
    }
    struct codec_input *input = calloc(1, size);
    if (input == NULL) {
        set_message(message, message_capacity, "out of memory");
        *code = SNAPSHARE_IMAGE_OUT_OF_MEMORY;
        return NULL;
    }
    *input = (struct codec_input){bytes, count, limits, message, message_capacity};
    return input;
}

// MARK: - PNG

/// libpng's simplified API keeps its own setjmp inside; failures come back as a message string.
/// Running out of input is the one we can tell apart, from the memory reader's wording.
static int png_failure_code(const char *library_message) {
    if (strstr(library_message, "end of data") != NULL) return SNAPSHARE_IMAGE_TRUNCATED;
    if (strstr(library_message, "Not enough image data") != NULL) return SNAPSHARE_IMAGE_TRUNCATED;
    if (strstr(library_message, "out of memory") != NULL) return SNAPSHARE_IMAGE_OUT_OF_MEMORY;
    return SNAPSHARE_IMAGE_DECODE_FAILED;
}

int snapshare_png_decode(const unsigned char *bytes, size_t count,
                         const snapshare_image_limits *limits, snapshare_rgb_image *out,
                         char *message, size_t message_capacity) {
    if (out != NULL) memset(out, 0, sizeof *out);
    if (bytes == NULL || count == 0 || limits == NULL || out == NULL) {
        set_message(message, message_capacity, "invalid argument");
        return SNAPSHARE_IMAGE_INVALID_ARGUMENT;
    }

    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, bytes, count)) {
        int code = png_failure_code(image.message);
        set_message(message, message_capacity, "PNG: %s", image.message);
        png_image_free(&image);
        return code;
    }

    int code = check_limits(image.width, image.height, limits, message, message_capacity);
    if (code != SNAPSHARE_IMAGE_OK) {
        png_image_free(&image);
        return code;
    }

    // Whatever the file holds (gray, palette, alpha, 16-bit), ask for 8-bit RGB. The simplified
    // API converts, and composites any alpha over the background given below.
    image.format = PNG_FORMAT_RGB;
    // Without this libpng takes 16-bit files lacking gAMA/sRGB as linear light and brightens
    // them; viewers and encoders in practice treat them as sRGB, like 8-bit files.
    image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
    size_t stride = (size_t)image.width * 3u;
    size_t size = stride * (size_t)image.height;
    unsigned char *pixels = malloc(size);
    if (pixels == NULL) {
        set_message(message, message_capacity, "out of memory for %zu bytes of pixels", size);
        png_image_free(&image);
        return SNAPSHARE_IMAGE_OUT_OF_MEMORY;
    }
    png_color black = {0, 0, 0};
    if (!png_image_finish_read(&image, &black, pixels, (png_int_32)stride, NULL)) {
        code = png_failure_code(image.message);
        set_message(message, message_capacity, "PNG: %s", image.message);
        png_image_free(&image);
        free(pixels);
        return code;
    }
    out->width = image.width;
    out->height = image.height;
    out->pixels = pixels;
    return SNAPSHARE_IMAGE_OK;
}

/// Why a PNG's bytes cannot decode: a message and a code.
static int png_refuse(const struct codec_input *input, int code, const char *format, ...) {
    if (input->message != NULL && input->message_capacity > 0) {
        char detail[SNAPSHARE_IMAGE_MESSAGE_CAPACITY];
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(detail, sizeof detail, format, arguments);
        va_end(arguments);
        snprintf(input->message, input->message_capacity, "PNG: %s", detail);
    }
    return code;
}

static uint32_t read_be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/// Where the decompressed image data stands: which pass and row, and how much of the row is
/// left. Every row starts with a filter byte (0 to 4); nothing may follow the last row.
struct png_rows {
    uint32_t width, height;
    unsigned bits_per_pixel;
    int interlaced;
    int pass;             // 0 for a plain image; 0...6 for Adam7
    uint32_t rows_left;   // in the current pass
    uint64_t row_bytes;   // of the current pass, filter byte excluded
    uint64_t left_in_row; // 0: the next byte is a filter byte
    int done;
};

/// Adam7's passes: first column and row, then the steps between them.
static const uint32_t adam7[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                                     {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};

/// Moves to the next pass that has pixels (Adam7 skips empty ones, filter bytes included).
static void png_rows_enter(struct png_rows *rows, int pass) {
    for (rows->pass = pass; rows->pass < (rows->interlaced ? 7 : 1); rows->pass += 1) {
        uint32_t width = rows->width, height = rows->height;
        if (rows->interlaced) {
            const uint32_t *a = adam7[rows->pass];
            width = rows->width > a[0] ? (rows->width - a[0] + a[2] - 1) / a[2] : 0;
            height = rows->height > a[1] ? (rows->height - a[1] + a[3] - 1) / a[3] : 0;
        }
        if (width == 0 || height == 0) continue;
        rows->rows_left = height;
        rows->row_bytes = ((uint64_t)width * rows->bits_per_pixel + 7) / 8;
        rows->left_in_row = 0;
        return;
    }
    rows->done = 1;
}

/// Walks `count` decompressed bytes; 0 when they fit the image, else 1 (bad filter byte) or 2
/// (more data than the image has).
static int png_rows_take(struct png_rows *rows, const unsigned char *bytes, size_t count) {
    size_t at = 0;
    while (at < count) {
        if (rows->done) return 2;
        if (rows->left_in_row == 0) {
            if (bytes[at] > 4) return 1;
            at += 1;
            rows->left_in_row = rows->row_bytes;
            continue;
        }
        uint64_t step = count - at < rows->left_in_row ? count - at : rows->left_in_row;
        at += (size_t)step;
        rows->left_in_row -= step;
        if (rows->left_in_row == 0) {
            rows->rows_left -= 1;
            if (rows->rows_left == 0) png_rows_enter(rows, rows->pass + 1);
        }
    }
    return 0;
}

/// Reads a PNG's structure the way a decoder must, without unfiltering a pixel: the
/// signature, every chunk's length and CRC through IEND, the header's values, and the zlib
/// stream of the IDAT chunks inflated in small pieces (zlib checks its Adler-32) into exactly
/// the rows the header promises, each with a valid filter byte. Unfiltering cannot fail, so
/// what passes decodes; it costs a CRC and an inflate, a fraction of a decode.
static int png_verify_structure(const struct codec_input *input, snapshare_image_size *size) {
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    const unsigned char *bytes = input->bytes;
    size_t count = input->count;
    if (count < 8 || memcmp(bytes, signature, 8) != 0) return png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "not a PNG signature");

    struct png_rows rows;
    memset(&rows, 0, sizeof rows);
    int have_header = 0, have_palette = 0, color_type = 0, idat_state = 0;  // 0 before, 1 in, 2 after
    z_stream zlib;
    memset(&zlib, 0, sizeof zlib);
    int zlib_open = 0, zlib_ended = 0, code = SNAPSHARE_IMAGE_OK;
    unsigned char window[16384];
    size_t at = 8;
    for (;;) {
        if (count - at < 12) { code = png_refuse(input, SNAPSHARE_IMAGE_TRUNCATED, "the file ends before IEND"); break; }
        uint32_t length = read_be32(bytes + at);
        const unsigned char *type = bytes + at + 4;
        if (length > 0x7FFFFFFFu || count - at - 12 < length) {
            code = png_refuse(input, SNAPSHARE_IMAGE_TRUNCATED, "the %.4s chunk runs past the end of the file", type);
            break;
        }
        for (int i = 0; i < 4; i += 1) {
            unsigned char c = type[i];
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
                code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "a chunk has an invalid type");
                goto finish;
            }
        }
        const unsigned char *data = type + 4;
        uint32_t stored_crc = read_be32(data + length);
        if ((uint32_t)crc32(crc32(0L, Z_NULL, 0), type, length + 4u) != stored_crc) {
            code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "%.4s: CRC error", type);
            break;
        }
        at += 12u + length;
        int is_idat = memcmp(type, "IDAT", 4) == 0;
        if (idat_state == 1 && !is_idat) idat_state = 2;
        if (!have_header) {
            if (memcmp(type, "IHDR", 4) != 0 || length != 13) {
                code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "IHDR is not the first chunk");
                break;
            }
            uint32_t width = read_be32(data), height = read_be32(data + 4);
            unsigned depth = data[8];
            color_type = data[9];
            if (width > 0x7FFFFFFFu || height > 0x7FFFFFFFu) { code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "IHDR: invalid size"); break; }
            code = check_limits(width, height, input->limits, input->message, input->message_capacity);
            if (code != SNAPSHARE_IMAGE_OK) break;
            unsigned channels = color_type == 0 ? 1 : color_type == 2 ? 3 : color_type == 3 ? 1 : color_type == 4 ? 2 : color_type == 6 ? 4 : 0;
            int depth_ok = (color_type == 0 && (depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16)) ||
                           (color_type == 3 && (depth == 1 || depth == 2 || depth == 4 || depth == 8)) ||
                           ((color_type == 2 || color_type == 4 || color_type == 6) && (depth == 8 || depth == 16));
            if (channels == 0 || !depth_ok || data[10] != 0 || data[11] != 0 || data[12] > 1) {
                code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "IHDR: invalid colour type %d, depth %u or method", color_type, depth);
                break;
            }
            rows.width = width;
            rows.height = height;
            rows.bits_per_pixel = channels * depth;
            rows.interlaced = data[12];
            png_rows_enter(&rows, 0);
            have_header = 1;
            continue;
        }
        if (memcmp(type, "IHDR", 4) == 0) { code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "a second IHDR"); break; }
        if (memcmp(type, "PLTE", 4) == 0) {
            if (idat_state != 0 || length == 0 || length % 3 != 0 || length > 768) {
                code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "PLTE: invalid palette");
                break;
            }
            have_palette = 1;
            continue;
        }
        if (is_idat) {
            if (idat_state == 2) { code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "IDAT chunks are not consecutive"); break; }
            if (color_type == 3 && !have_palette) { code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "missing PLTE before IDAT"); break; }
            if (!zlib_open) {
                if (inflateInit(&zlib) != Z_OK) { code = png_refuse(input, SNAPSHARE_IMAGE_OUT_OF_MEMORY, "zlib: out of memory"); break; }
                zlib_open = 1;
            }
            idat_state = 1;
            zlib.next_in = (Bytef *)data;
            zlib.avail_in = length;
            while (zlib.avail_in > 0 && !zlib_ended) {
                zlib.next_out = window;
                zlib.avail_out = sizeof window;
                int status = inflate(&zlib, Z_NO_FLUSH);
                if (status != Z_OK && status != Z_STREAM_END && !(status == Z_BUF_ERROR && zlib.avail_in == 0)) {
                    code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "IDAT: %s", zlib.msg != NULL ? zlib.msg : "bad compressed data");
                    goto finish;
                }
                int walked = png_rows_take(&rows, window, sizeof window - zlib.avail_out);
                if (walked != 0) {
                    code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, walked == 1 ? "IDAT: invalid filter type" : "IDAT: too much image data");
                    goto finish;
                }
                if (status == Z_STREAM_END) zlib_ended = 1;
            }
            if (zlib.avail_in > 0) { code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "IDAT: data after the end of the image stream"); break; }
            continue;
        }
        if (memcmp(type, "IEND", 4) == 0) {
            if (!zlib_open) { code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "no IDAT"); break; }
            if (!zlib_ended || !rows.done) { code = png_refuse(input, SNAPSHARE_IMAGE_TRUNCATED, "IDAT: not enough image data"); break; }
            size->width = rows.width;
            size->height = rows.height;
            break;
        }
        // An unknown critical chunk (upper-case first letter) cannot be skipped by a decoder.
        if (type[0] >= 'A' && type[0] <= 'Z') {
            code = png_refuse(input, SNAPSHARE_IMAGE_DECODE_FAILED, "unknown critical chunk %.4s", type);
            break;
        }
    }
finish:
    if (zlib_open) inflateEnd(&zlib);
    return code;
}

int snapshare_png_verify(const unsigned char *bytes, size_t count,
                         const snapshare_image_limits *limits, snapshare_image_size *out,
                         char *message, size_t message_capacity) {
    if (out != NULL) memset(out, 0, sizeof *out);
    int code = SNAPSHARE_IMAGE_OK;
    struct codec_input *input = new_read_job(sizeof *input, out != NULL, bytes, count, limits,
                                             message, message_capacity, &code);
    if (input == NULL) return code;
    snapshare_image_size size = {0, 0};
    code = png_verify_structure(input, &size);
    if (code == SNAPSHARE_IMAGE_OK) *out = size;
    free(input);
    return code;
}

int snapshare_png_encode(const unsigned char *pixels, uint32_t width, uint32_t height,
                         unsigned char **out, size_t *out_count,
                         char *message, size_t message_capacity) {
    if (out != NULL) *out = NULL;
    if (out_count != NULL) *out_count = 0;
    if (pixels == NULL || out == NULL || out_count == NULL || width == 0 || height == 0 ||
        width > (uint32_t)INT32_MAX / 3u || height > (uint32_t)INT32_MAX ||
        (uint64_t)width * height > (uint64_t)(SIZE_MAX / 8)) {
        set_message(message, message_capacity, "invalid argument");
        return SNAPSHARE_IMAGE_INVALID_ARGUMENT;
    }

    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGB;
    png_int_32 stride = (png_int_32)(width * 3u);

    // A photo almost always compresses below its raw size, so one pass usually does. When it
    // does not, libpng reports the exact size it needs and the second pass fits.
    png_alloc_size_t capacity = (png_alloc_size_t)width * height * 3u + 1024u;
    for (int attempt = 0; attempt < 2; attempt += 1) {
        unsigned char *buffer = malloc(capacity);
        if (buffer == NULL) {
            set_message(message, message_capacity, "out of memory for %zu bytes", (size_t)capacity);
            return SNAPSHARE_IMAGE_OUT_OF_MEMORY;
        }
        png_alloc_size_t written = capacity;
        if (png_image_write_to_memory(&image, buffer, &written, 0, pixels, stride, NULL)) {
            unsigned char *shrunk = realloc(buffer, written > 0 ? written : 1);
            *out = shrunk != NULL ? shrunk : buffer;
            *out_count = written;
            return SNAPSHARE_IMAGE_OK;
        }
        free(buffer);
        if (written <= capacity) break;  // a real failure, not a short buffer
        capacity = written;
        png_image_free(&image);
        memset(&image, 0, sizeof image);
        image.version = PNG_IMAGE_VERSION;
        image.width = width;
        image.height = height;
        image.format = PNG_FORMAT_RGB;
    }
    set_message(message, message_capacity, "PNG: %s",
                image.message[0] != '\0' ? image.message : "encoder failed");
    png_image_free(&image);
    return SNAPSHARE_IMAGE_ENCODE_FAILED;
}

// MARK: - JPEG errors

/// libjpeg's error manager plus the place to jump back to.
struct codec_error {
    struct jpeg_error_mgr library;
    jmp_buf jump;
    /// SNAPSHARE_IMAGE_* code to report after the jump.
    int code;
    /// Set once every scanline has been read: a missing EOI after that is harmless.
    int pixels_complete;
    /// Set by verify: every warning about damaged data is a failure, a missing EOI included.
    int strict;
    /// Our own reason, used instead of libjpeg's message when set.
    const char *reason;
};

static void codec_error_exit(j_common_ptr cinfo) {
    struct codec_error *error = (struct codec_error *)cinfo->err;
    if (error->code == SNAPSHARE_IMAGE_OK) {
        error->code = cinfo->err->msg_code == JERR_OUT_OF_MEMORY ? SNAPSHARE_IMAGE_OUT_OF_MEMORY
                                                                  : SNAPSHARE_IMAGE_DECODE_FAILED;
    }
    longjmp(error->jump, 1);
}

/// True for the warnings about metadata we never use, the ones a strict read still lets pass.
static int is_metadata_warning(int msg_code) {
    return msg_code == JWRN_ADOBE_XFORM || msg_code == JWRN_JFIF_MAJOR || msg_code == JWRN_BOGUS_ICC;
}

/// Warnings are silent (libjpeg would print to stderr), except running out of data before the
/// pixels are complete: libjpeg would pad with grey and carry on, we refuse the file. A strict
/// read (verify) also refuses every other warning about the data, which libjpeg papers over.
static void codec_emit_message(j_common_ptr cinfo, int level) {
    struct codec_error *error = (struct codec_error *)cinfo->err;
    if (level >= 0) return;
    int msg_code = cinfo->err->msg_code;
    if (msg_code == JWRN_JPEG_EOF && (!error->pixels_complete || error->strict)) {
        error->code = SNAPSHARE_IMAGE_TRUNCATED;
        longjmp(error->jump, 1);
    }
    if (error->strict && !is_metadata_warning(msg_code)) {
        error->code = SNAPSHARE_IMAGE_DECODE_FAILED;
        longjmp(error->jump, 1);
    }
    cinfo->err->num_warnings += 1;
}

/// Called between scans while a progressive file is absorbed; stops scan-count bombs.
static void codec_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
    if (decompress->input_scan_number > SNAPSHARE_JPEG_MAX_SCANS) {
        struct codec_error *error = (struct codec_error *)cinfo->err;
        error->code = SNAPSHARE_IMAGE_DECODE_FAILED;
        error->reason = "JPEG has too many progressive scans";
        longjmp(error->jump, 1);
    }
}

static void install_error_manager(struct codec_error *error, j_common_ptr cinfo) {
    memset(error, 0, sizeof *error);
    cinfo->err = jpeg_std_error(&error->library);
    error->library.error_exit = codec_error_exit;
    error->library.emit_message = codec_emit_message;
}

static void copy_jpeg_message(j_common_ptr cinfo, const struct codec_error *error,
                              char *message, size_t capacity) {
    if (error->reason != NULL) {
        set_message(message, capacity, "%s", error->reason);
        return;
    }
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    set_message(message, capacity, "JPEG: %s", text);
}

// MARK: - JPEG decode and verify

struct jpeg_decode_job {
    struct codec_input input;
    struct jpeg_decompress_struct cinfo;
    struct codec_error error;
    struct jpeg_progress_mgr progress;
    /// Read every scan and scanline but keep no pixels (snapshare_jpeg_verify).
    int verify_only;
    unsigned char *pixels;
    /// A row of CMYK samples on their way to RGB; when verifying, the one row every scanline goes to.
    unsigned char *row;
    uint32_t width;
    uint32_t height;
};

/// Photoshop writes Adobe-marked CMYK inverted (0 = full ink); others write it plain.
static void cmyk_row_to_rgb(const unsigned char *cmyk, unsigned char *rgb, uint32_t width,
                            int inverted) {
    for (uint32_t x = 0; x < width; x += 1) {
        unsigned int c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) {
            c = 255u - c; m = 255u - m; y = 255u - y; k = 255u - k;
        }
        rgb[3 * x] = (unsigned char)((c * k + 127u) / 255u);
        rgb[3 * x + 1] = (unsigned char)((m * k + 127u) / 255u);
        rgb[3 * x + 2] = (unsigned char)((y * k + 127u) / 255u);
    }
}

/// Stops the job with `reason` (libjpeg's own jump, from our side).
static void fail_jpeg_job(struct jpeg_decode_job *job, int code, const char *reason) {
    job->error.reason = reason;
    job->error.code = code;
    longjmp(job->error.jump, 1);
}

/// The part of the decode that libjpeg may longjmp out of. Returns a SNAPSHARE_IMAGE_* code.
static int run_jpeg_decode(struct jpeg_decode_job *job) {
    j_decompress_ptr cinfo = &job->cinfo;
    install_error_manager(&job->error, (j_common_ptr)cinfo);
    job->error.strict = job->verify_only;
    if (setjmp(job->error.jump) != 0) {
        copy_jpeg_message((j_common_ptr)cinfo, &job->error, job->input.message, job->input.message_capacity);
        jpeg_destroy_decompress(cinfo);
        return job->error.code;
    }

    jpeg_create_decompress(cinfo);
    // Coefficient buffers of a progressive image: at most 4 components of 2-byte samples.
    uint64_t memory = job->input.limits->max_pixels * 8u + 64u * 1024u * 1024u;
    cinfo->mem->max_memory_to_use = memory > (uint64_t)LONG_MAX ? LONG_MAX : (long)memory;
    job->progress.progress_monitor = codec_progress;
    cinfo->progress = &job->progress;
    jpeg_mem_src(cinfo, job->input.bytes, (unsigned long)job->input.count);
    jpeg_read_header(cinfo, TRUE);

    int code = check_limits(cinfo->image_width, cinfo->image_height, job->input.limits,
                            job->input.message, job->input.message_capacity);
    if (code != SNAPSHARE_IMAGE_OK) {
        jpeg_destroy_decompress(cinfo);
        return code;
    }

    int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    // libjpeg-turbo converts gray and YCbCr to RGB itself, but not CMYK: take CMYK and convert.
    // A verification asks for the same, so it refuses whatever the decoder cannot convert.
    cinfo->out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    if (job->verify_only) {
        // At 1/8 scale every coefficient is still entropy-decoded, which is where damage shows;
        // only the inverse DCT, upsampling and colour conversion shrink to a 64th of the work.
        cinfo->scale_num = 1;
        cinfo->scale_denom = 8;
        cinfo->dct_method = JDCT_IFAST;
        cinfo->do_fancy_upsampling = FALSE;
    }
    jpeg_start_decompress(cinfo);
    int full_size = cinfo->output_width == cinfo->image_width && cinfo->output_height == cinfo->image_height;
    if ((!full_size && !job->verify_only) || cinfo->output_components != (cmyk ? 4 : 3)) {
        fail_jpeg_job(job, SNAPSHARE_IMAGE_DECODE_FAILED, "JPEG decoder produced an unexpected layout");
    }

    job->width = cinfo->image_width;
    job->height = cinfo->image_height;
    size_t stride = (size_t)cinfo->output_width * 3u;
    if (job->verify_only) {
        job->row = malloc((size_t)cinfo->output_width * (size_t)cinfo->output_components);
    } else {
        job->pixels = malloc(stride * cinfo->output_height);
        if (cmyk) job->row = malloc((size_t)cinfo->output_width * 4u);
    }
    if ((job->verify_only || cmyk) ? job->row == NULL : job->pixels == NULL) {
        fail_jpeg_job(job, SNAPSHARE_IMAGE_OUT_OF_MEMORY, "out of memory for pixels");
    }

    while (cinfo->output_scanline < cinfo->output_height) {
        unsigned char *target = job->pixels != NULL ? job->pixels + stride * cinfo->output_scanline : NULL;
        JSAMPROW row = job->row != NULL ? job->row : target;
        if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
            fail_jpeg_job(job, SNAPSHARE_IMAGE_DECODE_FAILED, "JPEG decoder stopped early");
        }
        if (target != NULL && cmyk) cmyk_row_to_rgb(job->row, target, cinfo->output_width, cinfo->saw_Adobe_marker);
    }
    job->error.pixels_complete = 1;
    // Reads on to EOI: a strict read refuses a file that ends before it.
    jpeg_finish_decompress(cinfo);
    jpeg_destroy_decompress(cinfo);
    return SNAPSHARE_IMAGE_OK;
}

/// Decodes (or, with `verify_only`, reads without keeping pixels) a JPEG; `out->pixels` stays
/// NULL when verifying.
static int read_jpeg(const unsigned char *bytes, size_t count, const snapshare_image_limits *limits,
                     int verify_only, snapshare_rgb_image *out, char *message, size_t message_capacity) {
    if (out != NULL) memset(out, 0, sizeof *out);
    int code = SNAPSHARE_IMAGE_OK;
    struct jpeg_decode_job *job = new_read_job(sizeof *job, out != NULL, bytes, count, limits,
                                               message, message_capacity, &code);
    if (job == NULL) return code;
    job->verify_only = verify_only;

    code = run_jpeg_decode(job);
    free(job->row);
    if (code == SNAPSHARE_IMAGE_OK) {
        out->width = job->width;
        out->height = job->height;
        out->pixels = job->pixels;
    } else {
        free(job->pixels);
    }
    free(job);
    return code;
}

int snapshare_jpeg_decode(const unsigned char *bytes, size_t count,
                          const snapshare_image_limits *limits, snapshare_rgb_image *out,
                          char *message, size_t message_capacity) {
    return read_jpeg(bytes, count, limits, 0, out, message, message_capacity);
}

int snapshare_jpeg_verify(const unsigned char *bytes, size_t count,
                          const snapshare_image_limits *limits, snapshare_image_size *out,
                          char *message, size_t message_capacity) {
    if (out != NULL) memset(out, 0, sizeof *out);
    snapshare_rgb_image image;
    int code = read_jpeg(bytes, count, limits, 1, out != NULL ? &image : NULL, message, message_capacity);
    if (code == SNAPSHARE_IMAGE_OK) {
        out->width = image.width;
        out->height = image.height;
    }
    return code;
}

// MARK: - JPEG encode

/// A destination that grows with realloc and that we own, so a failed encode frees it.
/// (jpeg_mem_dest allocates its own buffers and loses track of them if libjpeg bails out.)
struct growing_destination {
    struct jpeg_destination_mgr library;
    unsigned char *buffer;
    size_t capacity;
    size_t count;
};

static void destination_init(j_compress_ptr cinfo) {
    struct growing_destination *destination = (struct growing_destination *)cinfo->dest;
    destination->library.next_output_byte = destination->buffer;
    destination->library.free_in_buffer = destination->capacity;
}

/// Called when the buffer is full: double it and hand libjpeg the new half.
static boolean destination_grow(j_compress_ptr cinfo) {
    struct growing_destination *destination = (struct growing_destination *)cinfo->dest;
    size_t used = destination->capacity;
    if (used > SIZE_MAX / 2) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    unsigned char *grown = realloc(destination->buffer, used * 2);
    if (grown == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 11);
    destination->buffer = grown;
    destination->capacity = used * 2;
    destination->library.next_output_byte = grown + used;
    destination->library.free_in_buffer = destination->capacity - used;
    return TRUE;
}

static void destination_term(j_compress_ptr cinfo) {
    struct growing_destination *destination = (struct growing_destination *)cinfo->dest;
    destination->count = destination->capacity - destination->library.free_in_buffer;
}

struct jpeg_encode_job {
    struct jpeg_compress_struct cinfo;
    struct codec_error error;
    struct growing_destination destination;
    const unsigned char *pixels;
    uint32_t width;
    uint32_t height;
    int quality;
    int progressive;
    char *message;
    size_t message_capacity;
};

static int run_jpeg_encode(struct jpeg_encode_job *job) {
    j_compress_ptr cinfo = &job->cinfo;
    install_error_manager(&job->error, (j_common_ptr)cinfo);
    if (setjmp(job->error.jump) != 0) {
        copy_jpeg_message((j_common_ptr)cinfo, &job->error, job->message, job->message_capacity);
        jpeg_destroy_compress(cinfo);
        return job->error.code == SNAPSHARE_IMAGE_OUT_OF_MEMORY ? SNAPSHARE_IMAGE_OUT_OF_MEMORY
                                                                 : SNAPSHARE_IMAGE_ENCODE_FAILED;
    }

    jpeg_create_compress(cinfo);
    job->destination.library.init_destination = destination_init;
    job->destination.library.empty_output_buffer = destination_grow;
    job->destination.library.term_destination = destination_term;
    cinfo->dest = &job->destination.library;

    cinfo->image_width = job->width;
    cinfo->image_height = job->height;
    cinfo->input_components = 3;
    cinfo->in_color_space = JCS_RGB;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, job->quality, TRUE);
    if (job->progressive) jpeg_simple_progression(cinfo);

    jpeg_start_compress(cinfo, TRUE);
    size_t stride = (size_t)job->width * 3u;
    while (cinfo->next_scanline < cinfo->image_height) {
        // libjpeg's row type is not const, but compression only reads the rows.
        JSAMPROW row = (JSAMPROW)(job->pixels + stride * cinfo->next_scanline);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    jpeg_destroy_compress(cinfo);
    return SNAPSHARE_IMAGE_OK;
}

int snapshare_jpeg_encode(const unsigned char *pixels, uint32_t width, uint32_t height,
                          int quality, int progressive,
                          unsigned char **out, size_t *out_count,
                          char *message, size_t message_capacity) {
    if (out != NULL) *out = NULL;
    if (out_count != NULL) *out_count = 0;
    if (pixels == NULL || out == NULL || out_count == NULL || width == 0 || height == 0 ||
        width > SNAPSHARE_JPEG_MAX_DIMENSION || height > SNAPSHARE_JPEG_MAX_DIMENSION ||
        quality < 1 || quality > 100) {
        set_message(message, message_capacity, "invalid argument");
        return SNAPSHARE_IMAGE_INVALID_ARGUMENT;
    }
    struct jpeg_encode_job *job = calloc(1, sizeof *job);
    if (job == NULL) {
        set_message(message, message_capacity, "out of memory");
        return SNAPSHARE_IMAGE_OUT_OF_MEMORY;
    }
    // Start near the size of a typical compressed photo, capped so a huge image does not
    // reserve memory it may never use; the destination doubles as needed.
    size_t guess = (size_t)width * height / 2u + 4096u;
    job->destination.capacity = guess < 4u * 1024u * 1024u ? guess : 4u * 1024u * 1024u;
    job->destination.buffer = malloc(job->destination.capacity);
    if (job->destination.buffer == NULL) {
        free(job);
        set_message(message, message_capacity, "out of memory");
        return SNAPSHARE_IMAGE_OUT_OF_MEMORY;
    }
    job->pixels = pixels;
    job->width = width;
    job->height = height;
    job->quality = quality;
    job->progressive = progressive;
    job->message = message;
    job->message_capacity = message_capacity;

    int code = run_jpeg_encode(job);
    if (code == SNAPSHARE_IMAGE_OK) {
        unsigned char *shrunk = realloc(job->destination.buffer, job->destination.count);
        *out = shrunk != NULL ? shrunk : job->destination.buffer;
        *out_count = job->destination.count;
    } else {
        free(job->destination.buffer);
    }
    free(job);
    return code;
}
