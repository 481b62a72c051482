#ifndef SNAPSHARE_CIMAGECODEC_H
#define SNAPSHARE_CIMAGECODEC_H
#include <stddef.h>
#include <stdint.h>

/// PNG and JPEG decode/encode from memory for Snapshare.
///
/// Every call runs to completion inside C: libjpeg reports errors with longjmp, and a longjmp
/// must never cross Swift frames. Results are RGB8, row-major, no padding, in a buffer from
/// malloc that the caller releases with snapshare_image_free. On failure the return value is
/// one of the SNAPSHARE_IMAGE_* codes and `message` holds a NUL-terminated reason.

/// Return codes. Stable: the Swift side maps them to ImageError.
enum {
    SNAPSHARE_IMAGE_OK = 0,
    /// Arguments out of range (NULL pointers, zero sizes, bad quality).
    SNAPSHARE_IMAGE_INVALID_ARGUMENT = 1,
    /// The declared width/height exceed the limits; nothing was allocated for pixels.
    SNAPSHARE_IMAGE_TOO_LARGE = 2,
    /// The data ended before the image did.
    SNAPSHARE_IMAGE_TRUNCATED = 3,
    /// The library rejected the data (corrupt stream, unsupported variant).
    SNAPSHARE_IMAGE_DECODE_FAILED = 4,
    /// The library could not encode the pixels.
    SNAPSHARE_IMAGE_ENCODE_FAILED = 5,
    /// malloc failed or the library's memory limit was reached.
    SNAPSHARE_IMAGE_OUT_OF_MEMORY = 6,
};

/// Size of the message buffer callers should pass (longer messages are cut).
#define SNAPSHARE_IMAGE_MESSAGE_CAPACITY 200

/// Limits checked against the dimensions the file declares, before any pixel buffer exists.
typedef struct snapshare_image_limits {
    uint32_t max_width;
    uint32_t max_height;
    uint64_t max_pixels;
} snapshare_image_limits;

/// A decoded image: width * height * 3 bytes at `pixels`, owned by the caller.
typedef struct snapshare_rgb_image {
    uint32_t width;
    uint32_t height;
    unsigned char *pixels;
} snapshare_rgb_image;

/// The dimensions of an image that was read but not kept.
typedef struct snapshare_image_size {
    uint32_t width;
    uint32_t height;
} snapshare_image_size;

/// Decodes a PNG (any bit depth / colour type, interlaced or not) to RGB8.
/// Alpha is composited over black; 16-bit samples are reduced to 8 bits.
int snapshare_png_decode(const unsigned char *bytes, size_t count,
                         const snapshare_image_limits *limits, snapshare_rgb_image *out,
                         char *message, size_t message_capacity);

/// Decodes a baseline, extended or progressive 8-bit JPEG to RGB8.
/// Grayscale is expanded; CMYK/YCCK is converted naively (no colour profile).
int snapshare_jpeg_decode(const unsigned char *bytes, size_t count,
                          const snapshare_image_limits *limits, snapshare_rgb_image *out,
                          char *message, size_t message_capacity);

/// Reads a whole PNG without keeping its pixels: every chunk's CRC (ancillary chunks too)
/// through IEND, the header's values, and the IDAT stream inflated into exactly the rows the
/// header promises, each with a valid filter byte. Succeeds only for files the decoder takes,
/// and refuses some it would take (a bad CRC in an ancillary chunk, a missing IEND).
int snapshare_png_verify(const unsigned char *bytes, size_t count,
                         const snapshare_image_limits *limits, snapshare_image_size *out,
                         char *message, size_t message_capacity);

/// Reads a whole JPEG without keeping its pixels: every scan entropy-decoded, scanlines produced
/// at 1/8 scale into one row buffer, through EOI. Corrupt-data warnings that the decoder lets
/// pass (premature end of data, bad Huffman codes, extraneous bytes) are failures here.
int snapshare_jpeg_verify(const unsigned char *bytes, size_t count,
                          const snapshare_image_limits *limits, snapshare_image_size *out,
                          char *message, size_t message_capacity);

/// Encodes RGB8 pixels as an 8-bit RGB PNG. `*out` is malloc'd, `*out_count` bytes long.
int snapshare_png_encode(const unsigned char *pixels, uint32_t width, uint32_t height,
                         unsigned char **out, size_t *out_count,
                         char *message, size_t message_capacity);

/// Encodes RGB8 pixels as a JFIF JPEG with quality 1...100, 4:2:0 chroma, optionally progressive.
int snapshare_jpeg_encode(const unsigned char *pixels, uint32_t width, uint32_t height,
                          int quality, int progressive,
                          unsigned char **out, size_t *out_count,
                          char *message, size_t message_capacity);

/// Releases a buffer returned by any function above. NULL is ignored.
void snapshare_image_free(void *buffer);

#endif
